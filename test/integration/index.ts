// Mocha entry inside the extension host (extensionTestsPath), phase 1: every
// out/test/integration/*.test.js. phase2/index.ts reuses `runMochaIn` after a restart.
import * as fs from 'fs';
import * as path from 'path';

// mocha 12 is an ES module at its root; its CommonJS build loads the same way in every extension host
// (code-server's Node 24 here, Electron's Node on desktop). Resolved from the repo's node_modules,
// because the compiled tests live under <repo>/out/test/.
type MochaCtor = typeof import('mocha');
const Mocha: MochaCtor = require('mocha/lib/mocha.cjs');

/** The line run-integration.mjs reads to add up both phases. Keep in sync with it. */
export const RESULT_MARKER = 'ENGRAM_MOCHA_RESULT';

export function runMochaIn(dir: string, label: string): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 60_000, color: false, reporter: 'spec' });
  // ENGRAM_TEST_GREP reaches the extension host through code-server's environment.
  const grep = process.env.ENGRAM_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.test.js')).sort();
  for (const f of files) mocha.addFile(path.join(dir, f));
  console.log(`[${label}] ${files.length} test file(s) in ${dir}${grep ? ` (grep: ${grep})` : ''}`);
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(failures => {
        const stats = runner.stats ?? { passes: 0, failures, pending: 0 };
        console.log(`${RESULT_MARKER} ${JSON.stringify({ phase: label, passed: stats.passes, failed: stats.failures, pending: stats.pending })}`);
        if (failures > 0) reject(new Error(`${failures} test(s) failed in ${label}`));
        else resolve();
      });
    } catch (e) {
      // A test file that throws while loading fails the phase rather than hanging it.
      console.error(e);
      console.log(`${RESULT_MARKER} ${JSON.stringify({ phase: label, passed: 0, failed: 1, pending: 0, loadError: String(e) })}`);
      reject(e);
    }
  });
}

export function run(): Promise<void> {
  return runMochaIn(__dirname, 'phase 1');
}
