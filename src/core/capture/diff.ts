// Small, bounded line diffs between a file's text when an episode began and at its end, and the code
// excerpt around an error. Pure (no 'vscode' import) so the benchmark and unit tests can load it.
import type { FileDiff } from '../../core/episodeSummary';

const CONTEXT = 2;
/** Above this many changed lines on either side, skip the LCS and show the blocks as they are. */
const LCS_LIMIT = 400;

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Line diff as unified-style hunks, at most `maxChars`; undefined when nothing changed. */
export function lineDiff(file: string, before: string, after: string, maxChars = 2000): FileDiff | undefined {
  if (before === after) return undefined;
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);

  // ops over the middle: ' ' keep, '-' removed, '+' added
  const ops: { op: ' ' | '-' | '+'; line: string }[] = [];
  if (midA.length <= LCS_LIMIT && midB.length <= LCS_LIMIT) {
    const n = midA.length, m = midB.length;
    const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
    let i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) { ops.push({ op: ' ', line: midA[i] }); i++; j++; }
      // Removals before additions, as in unified diffs.
      else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) { ops.push({ op: '-', line: midA[i] }); i++; }
      else { ops.push({ op: '+', line: midB[j] }); j++; }
    }
  } else {
    for (const line of midA) ops.push({ op: '-', line });
    for (const line of midB) ops.push({ op: '+', line });
  }

  const added = ops.filter(o => o.op === '+').length;
  const removed = ops.filter(o => o.op === '-').length;
  const lead = a.slice(Math.max(0, start - CONTEXT), start).map(line => ` ${line}`);
  const trail = a.slice(endA, Math.min(a.length, endA + CONTEXT)).map(line => ` ${line}`);
  const header = `--- ${file}\n+++ ${file}\n@@ -${start + 1},${endA - start} +${start + 1},${endB - start} @@`;
  let body = [...lead, ...ops.map(o => `${o.op}${o.line}`), ...trail].join('\n');
  if (body.length > maxChars) body = body.slice(0, maxChars) + `\n… (${body.length - maxChars} more characters)`;
  return {
    file, diff: `${header}\n${body}`, added, removed,
    firstRemoved: telling(ops, '-'),
    firstAdded: telling(ops, '+'),
  };
}

/** The first changed line that says something (not just a brace), else the first changed line. */
function telling(ops: { op: string; line: string }[], op: '-' | '+'): string | undefined {
  const lines = ops.filter(o => o.op === op).map(o => o.line);
  return lines.find(l => /[A-Za-z0-9]/.test(l)) ?? lines[0];
}

/** The first changed line of `after` (0-based), for placing the "code after" excerpt. */
export function firstChangedLine(before: string, after: string): number | undefined {
  if (before === after) return undefined;
  const a = splitLines(before), b = splitLines(after);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Lines around `line` (0-based), numbered, bounded. */
export function excerptAround(text: string, line: number, radius = 3, maxChars = 1500): string {
  const lines = splitLines(text);
  const from = Math.max(0, line - radius);
  const to = Math.min(lines.length, line + radius + 1);
  const out = lines.slice(from, to).map((l, k) => `${String(from + k + 1).padStart(4)}| ${l}`).join('\n');
  return out.length > maxChars ? out.slice(0, maxChars) + '…' : out;
}
