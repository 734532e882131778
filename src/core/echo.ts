// What the CLI and the MCP server print is masked on its way out (issue 22): a command repeats what it
// was given (a query, a trace's command line in replay's "stored", a rejected field in an error), and
// agents' transcripts and CI logs keep it. Stored text is masked already; this is the net for echoes.
// A JSON line is masked value by value (each string at its own level of escaping, so a value that is
// JSON inside JSON is read as the detectors expect, and the line stays valid JSON); the other lines as
// text, runs of them together (a key block spans lines).
import { maskDeep, maskSecrets } from './mask';

const OPTS = { genericHome: false } as const;

export function maskEcho(s: string): string {
  if (!s) return s;
  if (!/^\s*[[{]/m.test(s)) return maskSecrets(s, OPTS);
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => { if (run.length) out.push(maskSecrets(run.join('\n'), OPTS)); run = []; };
  for (const line of s.split('\n')) {
    const json = /^\s*[[{]/.test(line) ? maskedJsonLine(line) : undefined;
    if (json === undefined) { run.push(line); continue; }
    flush();
    out.push(json);
  }
  flush();
  return out.join('\n');
}

/** The line masked value by value, when it is JSON as JSON.stringify writes it; else undefined. */
function maskedJsonLine(line: string): string | undefined {
  let v: unknown;
  try { v = JSON.parse(line); } catch { return undefined; }
  if (JSON.stringify(v) !== line) return undefined;
  return JSON.stringify(maskDeep(v, OPTS));
}
