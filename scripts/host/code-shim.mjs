#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron (`vscodeExecutablePath`) and
// @vscode/test-cli (`useInstallation.fromPath`) on machines that cannot download VS Code: it takes the
// usual Electron-style arguments and runs the tests in code-server + headless Chromium instead.
//   code-shim.mjs [folder] --extensionDevelopmentPath=P [...] --extensionTestsPath=T
//                 [--user-data-dir=D] [--extensions-dir=E] [other VS Code flags, ignored]
// Set ENGRAM_VSCODE_EXECUTABLE=scripts/host/code-shim.mjs for test/run-desktop.mjs.
// The same --user-data-dir gets the same port (kept in D/.engram-shim-port), because the workspace
// storage is keyed by the folder URI including host:port: two runs then share workspace storage, as
// two launches of desktop VS Code with the same user data would.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupAll, ensureHost, freePort, log, makeRunDir, onCleanup, seedUserSettings } from './lib.mjs';
import { runPhase } from './run-integration.mjs';

const argv = process.argv.slice(2);
const devPaths = [];
const positional = [];
let testsPath, userDataDir, extensionsDir;
const withValue = new Set(['user-data-dir', 'extensions-dir', 'extensionDevelopmentPath', 'extensionTestsPath', 'locale', 'log']);
for (let i = 0; i < argv.length; i++) {
  const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
  if (!m) { positional.push(argv[i]); continue; }
  let [, key, value] = m;
  if (value === undefined && withValue.has(key)) value = argv[++i];
  if (key === 'extensionDevelopmentPath') devPaths.push(path.resolve(value));
  else if (key === 'extensionTestsPath') testsPath = path.resolve(value);
  else if (key === 'user-data-dir') userDataDir = path.resolve(value);
  else if (key === 'extensions-dir') extensionsDir = path.resolve(value);
  // --no-sandbox, --disable-gpu-sandbox, --disable-updates, --skip-welcome, ...: meaningless here.
}
if (!testsPath || !devPaths.length) {
  console.error('[code-shim] only extension test runs are supported: need --extensionDevelopmentPath and --extensionTestsPath');
  process.exit(2);
}
// test-electron expects a .js path or a folder with index.js.
if (fs.existsSync(testsPath) && fs.statSync(testsPath).isDirectory()) testsPath = path.join(testsPath, 'index.js');

const host = ensureHost();
const runDir = makeRunDir('engram-shim-');
onCleanup(() => { if (!process.env.ENGRAM_KEEP_RUN) fs.rmSync(runDir, { recursive: true, force: true }); });
userDataDir ??= path.join(runDir, 'user-data');
seedUserSettings(userDataDir);
const portFile = path.join(userDataDir, '.engram-shim-port');
let port;
try { port = await freePort(Number(fs.readFileSync(portFile, 'utf8'))); } catch { port = await freePort(); }
fs.writeFileSync(portFile, String(port));
const folder = positional[0] ? path.resolve(positional[0]) : fs.mkdtempSync(path.join(os.tmpdir(), 'engram-shim-folder-'));
log(`[code-shim] tests ${testsPath} on ${folder} (user data ${userDataDir}, port ${port})`);
const result = await runPhase(host, {
  runDir, port, workspace: folder, userDataDir, extensionsDir, testsPath, devPaths,
  timeoutMs: Number(process.env.ENGRAM_TEST_TIMEOUT_MS || 600_000), label: 'code-shim',
  resultsDir: path.join(runDir, 'results'), startMarker: '',
});
await cleanupAll();
process.exit(result.code);
