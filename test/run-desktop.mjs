// Integration tests through the standard @vscode/test-electron path: downloads VS Code (desktop) on
// machines that can, or uses ENGRAM_VSCODE_EXECUTABLE (e.g. scripts/host/code-shim.mjs, which runs
// the same tests in code-server + headless Chromium offline). `npm run test:desktop` builds first.
// Two phases like scripts/host/run-integration.mjs: phase 2 starts a new VS Code on the same user
// data and workspace and checks what phase 1 left behind. ENGRAM_TEST_GREP filters tests.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { runTests } = require('@vscode/test-electron');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const executable = process.env.ENGRAM_VSCODE_EXECUTABLE ? path.resolve(process.env.ENGRAM_VSCODE_EXECUTABLE) : undefined;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-desktop-'));
const workspace = path.join(tmp, 'workspace');
fs.cpSync(path.join(root, 'test/fixtures/workspace'), workspace, { recursive: true });
const userDataDir = path.join(tmp, 'user-data');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'terminal.integrated.shellIntegration.enabled': true,
  'typescript.tsserver.log': 'off',
  'workbench.startupEditor': 'none',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
}, null, 2));

const phases = [
  ['phase 1', path.join(root, 'out/test/integration/index.js')],
  ['phase 2', path.join(root, 'out/test/integration/phase2/index.js')],
];
let failed = 0;
for (const [label, extensionTestsPath] of phases) {
  const started = Date.now();
  try {
    await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : {}),
      extensionDevelopmentPath: root,
      extensionTestsPath,
      extensionTestsEnv: process.env.ENGRAM_TEST_GREP ? { ENGRAM_TEST_GREP: process.env.ENGRAM_TEST_GREP } : {},
      launchArgs: [workspace, `--user-data-dir=${userDataDir}`, `--extensions-dir=${path.join(tmp, 'extensions')}`],
    });
    console.log(`${label}: passed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed++;
    console.error(`${label}: FAILED (${e instanceof Error ? e.message : e})`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(failed ? `${failed} of ${phases.length} phases failed` : `all ${phases.length} phases passed`);
process.exit(failed ? 1 : 0);
