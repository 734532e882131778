#!/usr/bin/env node
// `engram`: the headless entry over the same store the extension uses (same folder layout, same lock),
// for scripts, CI and other tools. Output is a contract: JSON with --json, readable text otherwise;
// errors go to stderr with a non-zero exit code.
import * as fs from 'fs';
import * as path from 'path';
import * as readline from 'readline';
import { mean } from './core/trust';
import { toWorkspaceFile } from './core/workspacePath';
import { RecallService } from './core/recallService';
import type { FeedbackOutcome, Memory, MemoryKind, OwnerScope, RecallResult } from './core/types';
import { memoryTitle } from './core/types';
import { escapeControls } from './core/text';
import { maskEcho } from './core/echo';
import { recallResultJson } from './core/recallJson';
import { renderMemoryAnswer, SURFACES } from './core/render/memoryAnswer';
import { boundedLines, type OversizedLine } from './store/lineReader';
import { MemoryStore, owedCompactions } from './store/memoryStore';
import { runPatternPass } from './store/patternPass';
import type { Embedder } from './store/embedder';
import { windowEmbedder } from './store/transformersEmbedder';
import { writeFileAtomicSync } from './store/atomicFile';
import { readableReplay, replayLines, replayTrace } from './cliReplay';
import { runHook } from './cliHook';
import { describeLocation, resolveStore, startFolder, type StoreLocation } from './store/location';
import { runConnect } from './mcp/connectCommand';

const USAGE = `engram — episodic memory for coding agents (headless)

usage: engram [--store DIR] <command> [options]

commands:
  import FILE [--trusted] [--batch N]   import JSON lines (one memory per line; "-" reads stdin)
                                        --trusted keeps maturity/confidence as written (your own backup)
                                        a repeated id: the first line wins, later ones are reported and skipped;
                                        a lesson without id repeating one (same error, fix, scope) is merged as evidence
                                        import, ingest, replay and the hook then run the pattern pass: episodes
                                        that keep ending the same way become a pattern lesson ("patterns")
  recall QUERY [--file PATH] [--k N] [--json] [--kinds a,b] [--owners a,b] [--outcome success|failure] [--proactive]
                                        --proactive: only what the editor would show unasked (hover,
                                        Relevant now): strong evidence or nothing; otherwise weak matches
                                        come too, marked "weak"
  recall --stdin ...                    read the query from stdin
  recall --queries FILE [--json]        JSON lines {"query": "...", "file": "..."}: one result line each
  export [--out FILE]                   all memories in the import format (round-trips)
  stats [--json]                        counts by kind and maturity, embedder, recovery warnings
  show ID [--json]                      one memory with its trust and event history
  forget ID [--reason TEXT]             delete a memory (and its index entries)
  feedback ID prevented|still_failed [--reason TEXT]
  ingest [--json]                       capture events (the replay trace format) as JSON lines on stdin, e.g. from
                                        an agent's tool calls: stored as episodes and lessons like live capture
  hook claude-code                      Claude Code's hook input on stdin (PreToolUse/PostToolUse for Edit,
                                        MultiEdit, Write; PostToolUse/PostToolUseFailure for Bash; Stop,
                                        SessionEnd): kept per session, masked, and turned into episodes at
                                        each Stop and when the session ends (see engram connect --hooks)
  replay TRACE.jsonl [--json] [--workspace NAME]
                                        run a capture trace (JSON lines: open, change, save, close, disk,
                                        diagnostics, command, branch, end) through live capture's code and
                                        store the episodes and lessons it produces
  mcp                                   serve the memory to MCP clients (Claude Code, Cursor, Codex, …)
                                        over stdio: tools recall, remember, feedback, forget, show
  where [--json]                        the store folder these commands use, and how it was chosen
  connect claude-code|codex|cursor|vscode [--user] [--hooks] [--server URL]
                                        add engram to that client's MCP config, keeping everything else:
                                        the project's .mcp.json, .cursor/mcp.json, .vscode/mcp.json; Codex's
                                        ~/.codex/config.toml; --user: ~/.claude.json, ~/.cursor/mcp.json;
                                        --hooks: also Claude Code's capture hooks (.claude/settings.json);
                                        --server: the team server's MCP over HTTP (URL/mcp), the token read
                                        from $ENGRAM_TOKEN (VS Code asks for it once), never written
  disconnect claude-code|codex|cursor|vscode [--user]
                                        remove it again (and our Claude Code hooks)
  serve [--database URL] [--data DIR] [--host 127.0.0.1] [--port 7077] [--rate N] [--no-vectors]
                                        the team server (HTTP + MCP at /mcp) on PostgreSQL, or on an embedded
                                        one in DIR (default: the user's data folder); see README "Team server"
  serve token create --tenant T --principal P [--role member|reviewer|admin] [--database URL | --data DIR]
                                        prints a Bearer token once, alone on the last line; serve token revoke
                                        ID|TOKEN; serve token list [--tenant T]
  team push [FILE] --server URL         move a git team file (.engram/team.jsonl) to the team server
  recall|show|forget|feedback|import ... --server URL
                                        the same commands against a team server (token in $ENGRAM_TOKEN)

options:
  --store DIR    memory folder (default: $ENGRAM_STORE_DIR, else the store the VS Code window published
                 for this folder, else a per-folder store of the CLI's own; see "engram where")
  --folder DIR   the workspace folder agents work in (default: the current directory)
  --json         machine-readable output
  --help         this text

Recall uses the embedding model the VS Code window loaded when the window published it and its files are
here (the same vectors); otherwise signatures + BM25 words + the hash embedder ("embedder": "hash").`;

class UsageError extends Error {}

interface Args { positional: string[]; flags: Map<string, string | true> }

const VALUE_FLAGS = new Set(['store', 'file', 'k', 'out', 'reason', 'queries', 'kinds', 'owners', 'outcome', 'batch', 'workspace', 'folder',
  'database', 'data', 'host', 'port', 'rate', 'tenant', 'principal', 'role', 'server', 'visibility']);

/** Options every command takes. */
const COMMON_FLAGS = ['store', 'workspace', 'folder', 'json', 'help'];
/** Options per command: anything else is a usage error, never silently ignored (a typo must not change the answer). */
const COMMAND_FLAGS: Record<string, readonly string[]> = {
  import: ['trusted', 'batch', 'server', 'visibility'],
  recall: ['file', 'k', 'kinds', 'owners', 'outcome', 'stdin', 'queries', 'proactive', 'server'],
  export: ['out'],
  stats: [],
  show: ['server'],
  forget: ['reason', 'server'],
  feedback: ['reason', 'server'],
  replay: [],
  ingest: [],
  hook: [],
  mcp: [],
  where: [],
  connect: ['hooks', 'user', 'server'],
  disconnect: ['hooks', 'user'],
  serve: ['database', 'data', 'host', 'port', 'rate', 'no-vectors', 'tenant', 'principal', 'role'],
  team: ['server'],
};

/** Throws a UsageError naming the first option the command does not take. */
export function checkFlags(cmd: string, args: Args): void {
  const allowed = COMMAND_FLAGS[cmd];
  if (!allowed) return;
  for (const name of args.flags.keys()) {
    if (COMMON_FLAGS.includes(name) || allowed.includes(name)) continue;
    const takes = [...allowed, ...COMMON_FLAGS].map(f => `--${f}`).join(', ');
    throw new UsageError(`unknown option --${name} for "${cmd}" (it takes ${takes})`);
  }
}

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { positional.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (VALUE_FLAGS.has(name)) {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        flags.set(name, argv[++i]);
      } else flags.set(name, true);
    } else if (a === '-h') {
      flags.set('help', true);
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

function str(args: Args, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function list<T extends string>(args: Args, name: string, allowed: readonly T[]): T[] | undefined {
  const v = str(args, name);
  if (v === undefined) return undefined;
  const items = v.split(',').map(s => s.trim()).filter(Boolean);
  for (const x of items) if (!allowed.includes(x as T)) throw new UsageError(`--${name}: "${x}" is not one of ${allowed.join(', ')}`);
  return items as T[];
}

interface Io { out(s: string): void; err(s: string): void; stdin(): AsyncIterable<string> }

export async function main(argv: string[], rawIo: Io): Promise<number> {
  // Everything printed passes one filter: memory text is untrusted and must not drive the terminal, and
  // nothing is echoed unmasked (a query, a trace's command line in replay's "stored", a file name in an
  // error): agents and CI logs keep what the CLI prints. `engram serve` alone prints a secret on purpose
  // (a new token, once), so its output is not masked.
  let echo = (s: string) => escapeControls(maskEcho(s));
  const io: Io = { ...rawIo, out: s => rawIo.out(echo(s)), err: s => rawIo.err(echo(s)) };
  let args: Args;
  try { args = parseArgs(argv); } catch (e) { io.err(`engram: ${(e as Error).message}\n${USAGE}\n`); return 2; }
  const [cmd, ...rest] = args.positional;
  if (cmd === 'serve') echo = escapeControls;
  if (args.flags.has('help') || !cmd || cmd === 'help') { io.out(USAGE + '\n'); return cmd || args.flags.has('help') ? 0 : 2; }
  const json = args.flags.has('json');
  const commands: Record<string, true> = { import: true, recall: true, export: true, stats: true, show: true, forget: true, feedback: true, replay: true, ingest: true, hook: true, mcp: true, where: true, connect: true, disconnect: true, serve: true, team: true };
  if (!commands[cmd]) { io.err(`engram: unknown command "${cmd}"\n${USAGE}\n`); return 2; }
  try { checkFlags(cmd, args); } catch (e) { io.err(`engram: ${(e as Error).message}\n`); return 2; }
  // The team server and its clients (src/server), loaded only for these commands.
  if (cmd === 'serve' || cmd === 'team' || (args.flags.has('server') && cmd !== 'connect')) {
    const remote = await import('./server/cliEntry');
    try { return await remote.runServerCli(cmd, rest, args, io); } catch (e) { io.err(`engram: ${(e as Error).message}\n`); return 1; }
  }
  const start = startFolder(str(args, 'folder'), process.cwd());
  if (start.note) io.err(`engram: ${start.note}\n`);
  const location = resolveStore({ flag: str(args, 'store'), env: process.env, folder: start.folder, folderGiven: start.given });
  if (cmd === 'where') { io.out(describeLocation(location, json)); return 0; }
  if (cmd === 'connect' || cmd === 'disconnect') {
    const server = args.flags.get('server');
    if (server === true) { io.err('engram: --server needs the team server URL\n'); return 2; }
    return runConnect(cmd, rest[0], location.folder, io, { hooks: args.flags.has('hooks'), user: args.flags.has('user'), server });
  }
  // An agent's hook runs on every tool call: it only appends to its session file (no store opened) until
  // the session ends, and it never fails the agent's tool call (exit 0; problems on stderr).
  if (cmd === 'hook') {
    const result = await runHook(rest[0], location.dir, location.folder, io, async () => ({ MemoryStore, replayLines })).catch(e => { io.err(`engram hook: ${(e as Error).message}\n`); return 0; });
    return result;
  }
  for (const s of location.skipped) io.err(`engram: ignored: ${s}\n`);
  if (location.source === 'fallback') io.err(`engram: ${location.reason}: ${location.dir}\n`);
  const dir = location.dir;

  // Reading commands never create a store where there is none; writing ones may.
  const reading = cmd === 'recall' || cmd === 'export' || cmd === 'stats' || cmd === 'show';
  if (reading && !fs.existsSync(dir)) { io.err(`engram: no memory store at ${dir}${location.source === 'fallback' ? ' (pass --store DIR, set ENGRAM_STORE_DIR, or open the folder in VS Code with Engram)' : ''}\n`); return 1; }

  // The workspace root (store/location.ts): the published folder, --folder, or the project folder above
  // the working directory; an agent may start in a subfolder.
  const folder = location.folder;
  if (cmd === 'mcp') {
    // The MCP server writes under the folder's name, as the VS Code window for that folder does.
    const workspace = str(args, 'workspace') ?? path.basename(folder);
    // The MCP server (its SDK, zod, ajv: most of this bundle's start-up) is loaded only by `engram mcp`.
    const { runMcpCommand } = await import('./mcp/command');
    return runMcpCommand({ dir: path.resolve(dir), folder, cwd: location.cwd, rootKnown: location.rootKnown, workspace, personal: location.personal, model: location.model, io });
  }
  let store: MemoryStore | undefined;
  let embedder: Embedder | undefined;
  try {
    const workspaceId = str(args, 'workspace');
    // A reading command that finds forgotten text still owed a compaction opens for writing and pays it.
    // Commands that embed use the model the window loaded, when it published one (the same vectors).
    const embeds = cmd === 'recall' || cmd === 'import' || cmd === 'ingest' || cmd === 'replay';
    const model = embeds && location.model ? await windowEmbedder(location.model, path.join(__dirname, 'embedWorker.js')) : undefined;
    if (model && !model.embedder) io.err(`engram: ${model.note}\n`);
    embedder = model?.embedder;
    store = await MemoryStore.open(path.resolve(dir), { workspaceId, readOnly: reading && owedCompactions(dir) === 0, ...(embedder ? { embedder } : {}) });
    switch (cmd) {
      case 'import': return await runImport(store, rest, args, io);
      case 'recall': return await runRecall(store, rest, args, io, json, location);
      case 'export': return runExport(store, args, io);
      case 'stats': return runStats(store, io, json);
      case 'show': return runShow(store, rest, io, json);
      case 'replay': {
        const file = need(rest[0], 'replay needs a trace file (JSON lines)');
        const report = await replayTrace(store, file, { scope: 'workspace', workspace: str(args, 'workspace') ?? 'replay', agent: 'user' });
        io.out(json ? JSON.stringify(report) + '\n' : readableReplay(report));
        return 0;
      }
      case 'ingest': {
        const lines: string[] = [];
        for await (const l of io.stdin()) lines.push(l);
        const report = await replayLines(store, lines, { scope: 'workspace', workspace: workspaceId ?? path.basename(folder), agent: 'agent' });
        io.out(json ? JSON.stringify(report) + '\n' : readableReplay(report));
        return 0;
      }
      case 'forget': {
        const id = need(rest[0], 'forget needs a memory id');
        await store.forget(id, str(args, 'reason') ?? 'forgotten from the command line');
        io.out(json ? JSON.stringify({ forgotten: id }) + '\n' : `forgot ${id}\n`);
        return 0;
      }
      case 'feedback': {
        const id = need(rest[0], 'feedback needs a memory id');
        const outcome = rest[1];
        if (outcome !== 'prevented' && outcome !== 'still_failed') throw new UsageError('feedback needs "prevented" or "still_failed"');
        const before = store.get(id)?.maturity;
        await store.feedback(id, outcome as FeedbackOutcome, { reason: str(args, 'reason') });
        const m = store.get(id);
        const out = { id, outcome, maturity: m?.maturity, previousMaturity: before, confidence: m ? round(mean(m.confidence)) : undefined };
        io.out(json ? JSON.stringify(out) + '\n' : `${id}: ${outcome}; ${m?.maturity}${before !== m?.maturity ? ` (was ${before})` : ''}, confidence ${pct(out.confidence ?? 0)}\n`);
        return 0;
      }
    }
    return 2;
  } catch (e) {
    if (e instanceof UsageError) { io.err(`engram: ${e.message}\n`); return 2; }
    io.err(`engram: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await store?.close().catch(() => undefined);
    await embedder?.dispose();
  }
}

function need(v: string | undefined, msg: string): string {
  if (!v) throw new UsageError(msg);
  return v;
}

async function runImport(store: MemoryStore, rest: string[], args: Args, io: Io): Promise<number> {
  const file = need(rest[0], 'import needs a FILE (JSON lines, or - for stdin)');
  // Lines are bounded before they are buffered (store/lineReader.ts): an over-long line is skipped, the
  // next one is read.
  let lines: AsyncIterable<string | OversizedLine>;
  if (file === '-') {
    lines = boundedLines(process.stdin);
  } else {
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) throw new Error('not a file');
    } catch (e) {
      io.err(`engram: cannot read ${file}: ${(e as Error).message}\n`);
      return 1;
    }
    lines = boundedLines(fs.createReadStream(file));
  }
  const batch = str(args, 'batch');
  const report = await store.importLines(lines, {
    trusted: args.flags.has('trusted'),
    batchSize: batch ? Math.max(1, Number(batch) || 500) : undefined,
  });
  // Imported episodes may complete a pattern, as the window's background pass would find.
  const patterns = report.imported || report.merged ? (await runPatternPass(store)).created : [];
  io.out(JSON.stringify({
    imported: report.imported, skipped: report.skipped, errors: report.errors, ...(report.errorsOmitted ? { errorsOmitted: report.errorsOmitted } : {}),
    merged: report.merged ?? 0, ...(report.notes?.length ? { notes: report.notes } : {}), ...(report.notesOmitted ? { notesOmitted: report.notesOmitted } : {}),
    ...(patterns.length ? { patterns } : {}),
  }) + '\n');
  // Exit 0 when anything was usable; 1 when every line failed (the file was not an import at all).
  return report.imported === 0 && (report.merged ?? 0) === 0 && report.errors.length > 0 ? 1 : 0;
}

const resultJson = recallResultJson;

async function runRecall(store: MemoryStore, rest: string[], args: Args, io: Io, json: boolean, at: StoreLocation): Promise<number> {
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
  // The one recall service, as the window and `engram mcp` ask it. Like the editor's search, this command
  // shows what the store holds and checks no files (scripts and benches read it as a search); what an
  // agent is handed over MCP is stale-checked.
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
      if (json) io.out(JSON.stringify({ query: q.query, ...(file ? { file } : {}), results: results.map(resultJson) }) + '\n');
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
  if (json) io.out(JSON.stringify({ query, ...(file ? { file: rel(file) } : {}), results: results.map(resultJson) }) + '\n');
  else io.out(readable(query, results));
  return 0;
}

function readable(query: string, results: RecallResult[]): string {
  if (!results.length) return `No memories for: ${firstLine(query)}\n`;
  return results.map((r, i) => renderMemoryAnswer(r, SURFACES.cli, { n: i + 1 }) + '\n').join('');
}

function runExport(store: MemoryStore, args: Args, io: Io): number {
  const lines = store.exportLines();
  const text = lines.length ? lines.join('\n') + '\n' : '';
  const out = str(args, 'out');
  if (out) {
    // Owner-only, and replaced rather than written through: a link at `out` is swapped, not followed.
    writeFileAtomicSync(out, text);
    io.err(`exported ${lines.length} memories to ${out}\n`);
  } else {
    io.out(text);
  }
  return 0;
}

function runStats(store: MemoryStore, io: Io, json: boolean): number {
  const s = store.stats();
  if (json) { io.out(JSON.stringify(s) + '\n'); return 0; }
  io.out(`${s.memories} memories (${Object.entries(s.byKind).map(([k, v]) => `${v} ${k}s`).join(', ')})\n` +
    `maturity: ${Object.entries(s.byMaturity).map(([k, v]) => `${k} ${v}`).join(', ')}\n` +
    `quarantined ${s.quarantined}, flagged ${s.flagged}; embedder ${s.embedder}${s.embedder === 'hash' ? ' (no model: words, signatures and hashed vectors)' : ''}, ${s.vectors} vectors\n` +
    (s.warnings.length ? `warnings:\n${s.warnings.map(w => `  - ${w}`).join('\n')}\n` : ''));
  return 0;
}

function runShow(store: MemoryStore, rest: string[], io: Io, json: boolean): number {
  const id = need(rest[0], 'show needs a memory id');
  const m = store.get(id);
  if (!m) { io.err(`engram: no memory with id ${id}\n`); return 1; }
  const history = store.history(id);
  const detail = {
    ...m,
    confidence: round(mean(m.confidence)),
    alpha: m.confidence.alpha,
    beta: m.confidence.beta,
    evidence: m.kind === 'lesson' ? m.evidence : [],
    history,
  };
  if (json) { io.out(JSON.stringify(detail) + '\n'); return 0; }
  io.out(`${memoryTitle(m)}\n  id ${m.id} · ${m.kind} · ${m.maturity} · confidence ${pct(detail.confidence)} (α ${round(m.confidence.alpha)}, β ${round(m.confidence.beta)})\n` +
    describe(m) + (m.scope.length ? `  scope: ${m.scope.join(', ')}\n` : '') +
    `  history:\n${history.map(h => `    ${new Date(h.at).toISOString()}  ${h.detail}`).join('\n')}\n`);
  return 0;
}

function describe(m: Memory): string {
  switch (m.kind) {
    case 'lesson': return `  cause: ${m.rootCause}\n  fix:   ${m.fixApproach}\n  evidence: ${m.evidence.join(', ') || 'none yet'}\n`;
    case 'episode': return `  outcome: ${m.outcome}\n  ${m.summary}\n`;
    case 'fact': return `  ${m.content}\n`;
    case 'rule': return `  ${m.instruction}\n`;
  }
}

function firstLine(s: string): string { return s.split('\n').find(l => l.trim())?.trim().slice(0, 120) ?? ''; }
function round(x: number): number { return Math.round(x * 1000) / 1000; }
function pct(x: number): string { return `${Math.round(x * 100)}%`; }

async function* stdinLines(): AsyncIterable<string> {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

// What dist/hook.js loads from this bundle at Stop and SessionEnd (src/hookMain.ts).
export { MemoryStore, replayLines };

if (require.main === module) {
  main(process.argv.slice(2), {
    out: s => { process.stdout.write(s); },
    err: s => { process.stderr.write(s); },
    stdin: stdinLines,
  }).then(code => { process.exitCode = code; }, e => { process.stderr.write(`engram: ${(e as Error).stack ?? e}\n`); process.exitCode = 1; });
}
