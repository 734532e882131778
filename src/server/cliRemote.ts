// The CLI against a team server: `--server URL` (token in ENGRAM_TOKEN) sends recall, show, forget,
// feedback and import there instead of the local store, with the same output (`recall --json` is the very
// shape `POST /v1/recall` answers); `engram team push FILE` moves a git team file (.engram/team.jsonl) to
// the server, each line merged and checked by the server's write layer like any other memory.
import * as fs from 'fs';
import { toExportLine } from '../core/importFormat';
import { MAX_TEAM_FILE_BYTES, mergeTeamLines } from '../core/team';
import { ServerError, ServerUnreachable, TeamClient, type RecallResultJsonLike } from './client';

export interface CliArgs { positional: string[]; flags: Map<string, string | true> }
interface Io { out(s: string): void; err(s: string): void }

export const REMOTE_COMMANDS = ['recall', 'show', 'forget', 'feedback', 'import'] as const;
const BATCH = 200;

function str(a: CliArgs, name: string): string | undefined {
  const v = a.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function clientFor(a: CliArgs, env: NodeJS.ProcessEnv = process.env): TeamClient {
  const url = str(a, 'server') ?? env.ENGRAM_SERVER;
  if (!url) throw new Error('--server URL is required (or set ENGRAM_SERVER)');
  const token = env.ENGRAM_TOKEN;
  if (!token) throw new Error('set ENGRAM_TOKEN to a token from `engram serve token create`');
  return new TeamClient({ url, token });
}

/** Runs `cmd` on the server; the exit code the CLI returns. */
export async function runRemote(cmd: string, rest: string[], a: CliArgs, io: Io): Promise<number> {
  try {
    const client = clientFor(a);
    const json = a.flags.has('json');
    switch (cmd) {
      case 'recall': {
        const query = rest.join(' ');
        if (!query.trim()) throw new UsageErr('recall needs a QUERY');
        const k = str(a, 'k') === undefined ? undefined : Number(str(a, 'k'));
        const kinds = str(a, 'kinds')?.split(',').map(s => s.trim()).filter(Boolean);
        const r = await client.recall({ query, file: str(a, 'file'), k, proactive: a.flags.has('proactive') || undefined, kinds });
        io.out(json ? JSON.stringify(r) + '\n' : readable(query, r.results));
        return 0;
      }
      case 'show': {
        const d = await client.get(need(rest[0], 'show needs a memory id'));
        io.out(JSON.stringify(d) + '\n');
        return 0;
      }
      case 'forget': {
        const r = await client.forget(need(rest[0], 'forget needs a memory id'));
        io.out(json ? JSON.stringify(r) + '\n' : `forgot ${r.forgotten}\n`);
        return 0;
      }
      case 'feedback': {
        const id = need(rest[0], 'feedback needs a memory id');
        const outcome = rest[1];
        if (outcome !== 'prevented' && outcome !== 'still_failed') throw new UsageErr('feedback needs "prevented" or "still_failed"');
        const r = await client.feedback(id, { outcome, reason: str(a, 'reason') });
        io.out(json ? JSON.stringify(r) + '\n' : `${id}: ${outcome}; ${r.maturity}${r.previousMaturity !== r.maturity ? ` (was ${r.previousMaturity})` : ''}, confidence ${Math.round(r.confidence * 100)}%\n`);
        return 0;
      }
      case 'import': {
        const file = need(rest[0], 'import needs a FILE (JSON lines)');
        const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter(l => l.trim());
        const parsed: object[] = [];
        const errors: { line: number; error: string }[] = [];
        lines.forEach((l, i) => { try { parsed.push(JSON.parse(l) as object); } catch { errors.push({ line: i + 1, error: 'not valid JSON' }); } });
        const r = await sendAll(client, parsed, str(a, 'visibility'));
        io.out(JSON.stringify({ imported: r.stored, merged: r.merged, errors: [...errors, ...r.errors] }) + '\n');
        return r.stored + r.merged === 0 && (errors.length || r.errors.length) ? 1 : 0;
      }
    }
    return 2;
  } catch (e) {
    return report(e, io);
  }
}

/** `engram team push FILE`: the git team file's memories, merged as the window merges them, to the server. */
export async function runTeamPush(rest: string[], a: CliArgs, io: Io): Promise<number> {
  try {
    const sub = rest[0];
    if (sub !== 'push') throw new UsageErr('usage: engram team push [.engram/team.jsonl] --server URL (token in ENGRAM_TOKEN)');
    const file = rest[1] ?? '.engram/team.jsonl';
    const size = fs.statSync(file).size;
    if (size > MAX_TEAM_FILE_BYTES) throw new Error(`${file} is ${size} bytes, over the team file cap of ${MAX_TEAM_FILE_BYTES}`);
    const client = clientFor(a);
    const { memories, errors } = mergeTeamLines(fs.readFileSync(file, 'utf8'));
    // The server decides owner, trust and review; the file's ids stay, so a second push is a no-op (409s).
    const lines = memories.map(m => { const o = JSON.parse(toExportLine(m)) as Record<string, unknown>; delete o.owner; return o; });
    const r = await sendAll(client, lines, 'team');
    const summary = { file, pushed: r.stored, merged: r.merged, alreadyThere: r.conflicts, errors: [...errors, ...r.errors] };
    io.out(a.flags.has('json') ? JSON.stringify(summary) + '\n'
      : `${file}: ${r.stored} stored, ${r.merged} merged into existing lessons, ${r.conflicts} already on the server, ${summary.errors.length} bad line(s)\n` +
        summary.errors.slice(0, 20).map(e => `  line ${e.line}: ${e.error}\n`).join(''));
    return summary.errors.length && !r.stored && !r.merged && !r.conflicts ? 1 : 0;
  } catch (e) {
    return report(e, io);
  }
}

async function sendAll(client: TeamClient, items: object[], visibility: string | undefined): Promise<{ stored: number; merged: number; conflicts: number; errors: { line: number; error: string }[] }> {
  const out = { stored: 0, merged: 0, conflicts: 0, errors: [] as { line: number; error: string }[] };
  for (let i = 0; i < items.length; i += BATCH) {
    const chunk = items.slice(i, i + BATCH).map(m => (visibility ? { ...m, visibility } : m));
    const r = await client.recordBatch(chunk);
    r.results.forEach((x, j) => {
      if ('error' in x) {
        if (/exists|was forgotten/.test(x.error)) out.conflicts++;
        else out.errors.push({ line: i + j + 1, error: x.error });
      } else if (x.merged) out.merged++;
      else out.stored++;
    });
  }
  return out;
}

class UsageErr extends Error {}

function need(v: string | undefined, msg: string): string {
  if (!v) throw new UsageErr(msg);
  return v;
}

function report(e: unknown, io: Io): number {
  if (e instanceof UsageErr) { io.err(`engram: ${e.message}\n`); return 2; }
  if (e instanceof ServerError) { io.err(`engram: the team server answered ${e.status} (${e.code}): ${e.message}\n`); return 1; }
  if (e instanceof ServerUnreachable) { io.err(`engram: ${e.message}\n`); return 1; }
  io.err(`engram: ${(e as Error).message}\n`);
  return 1;
}

function readable(query: string, results: RecallResultJsonLike[]): string {
  if (!results.length) return `No memories for: ${query.split('\n').find(l => l.trim())?.trim().slice(0, 120) ?? ''}\n`;
  return results.map((r, i) => {
    let s = `${i + 1}. [${r.kind}, ${r.maturity}] ${r.title}  (${r.id}, score ${r.score.toFixed(2)}${r.weak ? ', weak match' : ''})\n`;
    if (r.rootCause) s += `   cause: ${r.rootCause}\n`;
    if (r.fixApproach) s += `   fix:   ${r.fixApproach}\n`;
    if (r.resolution) s += `   resolution: ${r.resolution}\n`;
    if (r.scope.length) s += `   scope: ${r.scope.join(', ')}\n`;
    s += `   why:   ${r.why.join('; ')}\n`;
    if (r.flagged?.length) s += `   note:  contains instruction-like text (${r.flagged.join(', ')}); shown as data\n`;
    return s;
  }).join('');
}
