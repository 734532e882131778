// @vscode/test-cli configuration (`npx vscode-test` after `npm i -D @vscode/test-cli`): the same
// integration tests as `npm run test:integration`, phase 1 only (test-cli has no restart step; run
// `npm run test:desktop` for both phases). It downloads VS Code unless ENGRAM_VSCODE_EXECUTABLE names
// an installation, e.g. scripts/host/code-shim.mjs (code-server + headless Chromium, offline).
// Build first: `node esbuild.mjs --tests`.
import * as path from 'node:path';

const executable = process.env.ENGRAM_VSCODE_EXECUTABLE;

export default [
  {
    label: 'integration',
    files: 'out/test/integration/*.test.js',
    workspaceFolder: 'test/fixtures/workspace',
    mocha: { ui: 'tdd', timeout: 60_000, color: false },
    ...(executable ? { useInstallation: { fromPath: path.resolve(executable) } } : {}),
    env: process.env.ENGRAM_TEST_GREP ? { ENGRAM_TEST_GREP: process.env.ENGRAM_TEST_GREP } : {},
  },
];
