// Runs a few unit test files without building the whole suite:
//   node scripts/dev/test-one.mjs test/unit/mask.test.ts [more.test.ts ...]
// Useful while other parts of the tree are mid-change.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, basename } from 'node:path';

const files = process.argv.slice(2);
if (!files.length) { console.error('usage: node scripts/dev/test-one.mjs FILE.test.ts ...'); process.exit(2); }
// Inside node_modules/.cache so the bundles' external packages resolve from the repo's node_modules.
mkdirSync('node_modules/.cache', { recursive: true });
const out = mkdtempSync(join('node_modules/.cache', 'engram-test-'));
await esbuild.build({ entryPoints: files, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', sourcemap: true, outdir: out, logLevel: 'warning' });
const outs = files.map(f => join(out, basename(f).replace(/\.ts$/, '.js')));
const r = spawnSync(process.execPath, ['node_modules/.bin/mocha', '--no-config', '--enable-source-maps', '--timeout', '60000', ...outs], { stdio: 'inherit' });
process.exit(r.status ?? 1);
