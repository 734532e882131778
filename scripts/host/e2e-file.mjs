// Runs ONE test/e2e/*.e2e.mjs file in its own process (run-e2e.mjs spawns this), so a file that hangs
// or leaks a server cannot disturb the next, and both styles work:
//  - `export default async function ()` and/or `export const tests = { name: async () => {} }`
//  - a script that does its checks at import time and sets process.exitCode / throws.
// Prints one ENGRAM_E2E_RESULT line with the counts.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanupAll } from './lib.mjs';

const file = path.resolve(process.argv[2]);
const re = process.env.ENGRAM_TEST_GREP ? new RegExp(process.env.ENGRAM_TEST_GREP, 'i') : undefined;
const base = path.basename(file).replace(/\.e2e\.mjs$/, '');
let passed = 0, failed = 0;
const report = () => console.log(`ENGRAM_E2E_RESULT ${JSON.stringify({ passed, failed })}`);

let mod;
try {
  mod = await import(pathToFileURL(file).href);
} catch (e) {
  console.log(`  ✘ ${base}: ${e?.stack ?? e}`);
  failed++; await cleanupAll(); report(); process.exit(1);
}
const tests = [];
if (typeof mod.default === 'function') tests.push([base, mod.default]);
for (const [name, fn] of Object.entries(mod.tests ?? {})) tests.push([`${base}: ${name}`, fn]);
if (!tests.length) {
  // Script style: it already ran; its exit code is the verdict.
  if (process.exitCode && process.exitCode !== 0) failed++; else passed++;
  console.log(`  ${failed ? '✘' : '✔'} ${base}`);
} else {
  for (const [name, fn] of tests) {
    if (re && !re.test(name)) continue;
    const t = Date.now();
    try {
      await fn();
      passed++; console.log(`  ✔ ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++; console.log(`  ✘ ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n      ${String(e?.stack ?? e).split('\n').join('\n      ')}`);
    } finally {
      await cleanupAll(); // servers/browsers a failed test did not stop
    }
  }
}
await cleanupAll();
report();
process.exit(failed ? 1 : 0);
