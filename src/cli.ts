#!/usr/bin/env node
// `engram`: the headless entry over the same store the extension uses (same folder layout, same lock),
// for scripts, CI and other tools. Output is a contract: JSON with --json, readable text otherwise;
// errors go to stderr with a non-zero exit code.
// This entry (dist/cli.js) parses the arguments, finds the store and masks what is printed; each command's
// code is a bundle of its own that it loads for that command alone (src/cli/bundles.ts): a recall starts
// without parsing the MCP server, zod, ajv or the team server (README "CLI start-up").
import * as fs from 'fs';
import * as path from 'path';
import { escapeControls } from './core/text';
import { maskEcho } from './core/echo';
import { describeLocation, resolveStore, startFolder } from './store/location';
import { checkFlags, COMMAND_FLAGS, parseArgs, str, type Args, type Io } from './cli/args';
import { loadBundle } from './cli/bundles';

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
  if (!Object.hasOwn(COMMAND_FLAGS, cmd)) { io.err(`engram: unknown command "${cmd}"\n${USAGE}\n`); return 2; }
  try { checkFlags(cmd, args); } catch (e) { io.err(`engram: ${(e as Error).message}\n`); return 2; }
  // The team server and its clients (src/server), loaded only for these commands.
  if (cmd === 'serve' || cmd === 'team' || (args.flags.has('server') && cmd !== 'connect')) {
    try { return await loadBundle('cliServer.js').runServerCli(cmd, rest, args, io); } catch (e) { io.err(`engram: ${(e as Error).message}\n`); return 1; }
  }
  const start = startFolder(str(args, 'folder'), process.cwd());
  if (start.note) io.err(`engram: ${start.note}\n`);
  const location = resolveStore({ flag: str(args, 'store'), env: process.env, folder: start.folder, folderGiven: start.given });
  if (cmd === 'where') { io.out(describeLocation(location, json)); return 0; }
  if (cmd === 'connect' || cmd === 'disconnect') {
    const server = args.flags.get('server');
    if (server === true) { io.err('engram: --server needs the team server URL\n'); return 2; }
    // What the client will run is this entry, not the bundle that writes its config.
    return loadBundle('cliConnect.js').runConnect(cmd, rest[0], location.folder, io, __filename, { hooks: args.flags.has('hooks'), user: args.flags.has('user'), server });
  }
  // An agent's hook runs on every tool call: it only appends to its session file (no store opened) until
  // the session ends, and it never fails the agent's tool call (exit 0; problems on stderr). The same code
  // as dist/hook.js, the hook's own entry.
  if (cmd === 'hook') {
    return loadBundle('hook.js').runHook(rest[0], location.dir, location.folder, io, async () => loadBundle('cliStore.js'))
      .catch(e => { io.err(`engram hook: ${(e as Error).message}\n`); return 0; });
  }
  for (const s of location.skipped) io.err(`engram: ignored: ${s}\n`);
  if (location.source === 'fallback') io.err(`engram: ${location.reason}: ${location.dir}\n`);
  const dir = location.dir;

  // Reading commands never create a store where there is none; writing ones may.
  const reading = cmd === 'recall' || cmd === 'export' || cmd === 'stats' || cmd === 'show';
  if (reading && !fs.existsSync(dir)) { io.err(`engram: no memory store at ${dir}${location.source === 'fallback' ? ' (pass --store DIR, set ENGRAM_STORE_DIR, or open the folder in VS Code with Engram)' : ''}\n`); return 1; }

  if (cmd === 'mcp') {
    // The MCP server writes under the folder's name, as the VS Code window for that folder does.
    const workspace = str(args, 'workspace') ?? path.basename(location.folder);
    // The MCP server (its SDK, zod, ajv) is loaded only by `engram mcp`; it answers `initialize` while
    // the store opens in the background.
    const { runMcpCommand } = loadBundle('cliMcp.js');
    return runMcpCommand({ dir: path.resolve(dir), folder: location.folder, cwd: location.cwd, rootKnown: location.rootKnown, workspace, personal: location.personal, model: location.model, io });
  }
  return loadBundle('cliStore.js').runStoreCommand(cmd, rest, args, io, location);
}

async function* stdinLines(): AsyncIterable<string> {
  // readline is loaded here, when a command reads stdin, not on every start.
  const readline = await import('readline');
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

if (require.main === module) {
  main(process.argv.slice(2), {
    out: s => { process.stdout.write(s); },
    err: s => { process.stderr.write(s); },
    stdin: stdinLines,
  }).then(code => { process.exitCode = code; }, e => { process.stderr.write(`engram: ${(e as Error).stack ?? e}\n`); process.exitCode = 1; });
}
