// `engram recall QUERY | --stdin | --queries FILE`: the one recall service, as the window and `engram mcp` ask it.
import * as fs from 'fs';
import * as readline from 'readline';
import { recallResultJson } from '../core/recallJson';
import { RecallService } from '../core/recallService';
import { renderMemoryAnswer, SURFACES } from '../core/render/memoryAnswer';
import type { MemoryKind, OwnerScope, RecallResult } from '../core/types';
import { toWorkspaceFile } from '../core/workspacePath';
import type { StoreLocation } from '../store/location';
import type { MemoryStore } from '../store/memoryStore';
import { list, str, UsageError, type Args, type Io } from './args';
import { firstLine } from './format';

export async function runRecall(store: MemoryStore, rest: string[], args: Args, io: Io, json: boolean, at: StoreLocation): Promise<number> {
  const kVal = str(args, 'k');
  const k = kVal === undefined ? undefined : Number(kVal);
  if (k !== undefined && (!Number.isInteger(k) || k < 1 || k > 1000)) throw new UsageError('--k must be a whole number from 1 to 1000');
  const kinds = list<MemoryKind>(args, 'kinds', ['lesson', 'episode', 'fact', 'rule']);
  const owners = list<OwnerScope>(args, 'owners', ['workspace', 'personal', 'team']);
  const outcome = str(args, 'outcome');
  if (outcome !== undefined && outcome !== 'success' && outcome !== 'failure') throw new UsageError('--outcome must be success or failure');
  // A file relative to where the command runs (or absolute), as the workspace root's path: the one normaliser.
  const rel = (f: string | undefined) => (f ? toWorkspaceFile(f, at.folder, at.cwd) ?? f : undefined);
  // --proactive applies exactly the gate the editor's unasked surfaces use (core/recallGate.ts).
  const proactive = args.flags.has('proactive') || undefined;
  // Like the editor's search, this command shows what the store holds and checks no files (scripts and
  // benches read it as a search); what an agent is handed over MCP is stale-checked.
  const service = new RecallService({ workspace: async () => store, owners: () => owners ?? ['workspace', 'team'] });
  const ask = (query: string, file?: string, kq = k) => service.recall({ text: query, file: rel(file), k: kq, kinds, owners, outcome: outcome as 'success' | 'failure' | undefined, proactive }, { checkStale: false });

  const queriesFile = str(args, 'queries');
  if (queriesFile) {
    const rl = readline.createInterface({ input: queriesFile === '-' ? process.stdin : fs.createReadStream(queriesFile, { encoding: 'utf8' }), crlfDelay: Infinity });
    let n = 0;
    for await (const line of rl) {
      n++;
      if (!line.trim()) continue;
      let q: { query?: unknown; file?: unknown; k?: unknown };
      try { q = JSON.parse(line); } catch { io.out(JSON.stringify({ line: n, error: 'not valid JSON' }) + '\n'); continue; }
      if (typeof q?.query !== 'string') { io.out(JSON.stringify({ line: n, error: '"query" must be a string' }) + '\n'); continue; }
      const file = typeof q.file === 'string' && q.file ? q.file : undefined;
      const results = await ask(q.query, file, typeof q.k === 'number' ? q.k : k);
      if (json) io.out(JSON.stringify({ query: q.query, ...(file ? { file } : {}), results: results.map(recallResultJson) }) + '\n');
      else io.out(readable(q.query, results) + '\n');
    }
    return 0;
  }

  let query: string;
  if (args.flags.has('stdin')) {
    const chunks: string[] = [];
    for await (const line of io.stdin()) chunks.push(line);
    query = chunks.join('\n');
  } else {
    query = rest.join(' ');
  }
  if (!query.trim()) throw new UsageError('recall needs a QUERY (or --stdin, or --queries FILE)');
  const file = str(args, 'file');
  const results = await ask(query, file);
  if (json) io.out(JSON.stringify({ query, ...(file ? { file: rel(file) } : {}), results: results.map(recallResultJson) }) + '\n');
  else io.out(readable(query, results));
  return 0;
}

function readable(query: string, results: RecallResult[]): string {
  if (!results.length) return `No memories for: ${firstLine(query)}\n`;
  return results.map((r, i) => renderMemoryAnswer(r, SURFACES.cli, { n: i + 1 }) + '\n').join('');
}
