#!/usr/bin/env node
// dist/hook.js: `engram hook claude-code` as its own small entry. Claude Code waits for PreToolUse and
// PostToolUse hooks on every Edit and Bash call, and those only append the payload's events to the
// session file: this bundle carries just that (the payload mapping, masking, the store's location). At
// Stop and SessionEnd, when episodes are stored, it loads the store and the replay from dist/cliStore.js
// beside it. `engram hook claude-code` through dist/cli.js runs this same bundle's runHook. Same options
// as the CLI's (`--store DIR`, `--folder DIR`); never fails the agent's call.
import * as fs from 'fs';
import * as path from 'path';
import { runHook, type HookStoring } from './cliHook';
import { resolveStore, startFolder } from './store/location';

export { runHook };

interface Io { out(s: string): void; err(s: string): void; stdin(): AsyncIterable<string> }

export async function hookMain(argv: string[], io: Io, storing: () => Promise<HookStoring>): Promise<number> {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    if (a === '--store' || a === '--folder') flags.set(a.slice(2), argv[++i] ?? '');
    else if (a.startsWith('--') && eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else if (a !== 'hook') rest.push(a);
  }
  const start = startFolder(flags.get('folder'), process.cwd());
  const location = resolveStore({ flag: flags.get('store'), env: process.env, folder: start.folder, folderGiven: start.given });
  return runHook(rest[0], location.dir, location.folder, io, storing).catch(e => { io.err(`engram hook: ${(e as Error).message}\n`); return 0; });
}

/** The payload is one JSON document: read whole (readline alone costs a few ms to load on every call). */
async function* stdinLines(): AsyncIterable<string> {
  let text = '';
  try { text = fs.readFileSync(0, 'utf8'); } catch { /* no stdin: runHook reports the empty input */ }
  yield* text.split(/\r?\n/);
}

if (require.main === module) {
  // Resolved at run time, not bundled: only the events that store episodes pay for loading it.
  const bundle = path.join(__dirname, 'cliStore.js');
  const storing = async () => require(bundle) as HookStoring;
  hookMain(process.argv.slice(2), { out: s => { process.stdout.write(s); }, err: s => { process.stderr.write(s); }, stdin: stdinLines }, storing)
    .then(code => { process.exitCode = code; }, e => { process.stderr.write(`engram hook: ${(e as Error).message}\n`); process.exitCode = 0; });
}
