// Runs every test/e2e/*.e2e.mjs against the real workbench, each file in its own process
// (scripts/host/e2e-file.mjs), and prints `N passed, N failed`. See test/e2e/README.md.
//   npm run test:e2e [-- --grep PATTERN] [--no-build] [--installed]
// --grep / ENGRAM_TEST_GREP selects files by name, and tests by name inside files that export them.
// --installed (npm run test:installed): packages the .vsix (scripts/host/package.mjs) and runs, with
// ENGRAM_E2E_VSIX set, the files that say `export const installedOnly = true` or `alsoInstalled = true`
// against the installed extension (test/e2e/lib/host.mjs installs it); a plain run skips installedOnly.
// ENGRAM_E2E_TIMEOUT_MS: per file (default 600000); a file may ask for more with `export const timeoutMs = N`.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build, ensureHost, log, repoRoot } from './lib.mjs';

const argv = process.argv.slice(2);
let grep = process.env.ENGRAM_TEST_GREP;
let doBuild = true;
let installed = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--grep' || argv[i] === '-g') grep = argv[++i];
  else if (argv[i].startsWith('--grep=')) grep = argv[i].slice(7);
  else if (argv[i] === '--no-build') doBuild = false;
  else if (argv[i] === '--installed') installed = true;
  else { console.error(`unknown argument: ${argv[i]}`); process.exit(2); }
}
const re = grep ? new RegExp(grep, 'i') : undefined;
const MARKER = 'ENGRAM_E2E_RESULT';
const timeoutMs = Number(process.env.ENGRAM_E2E_TIMEOUT_MS || 600_000);

const started = Date.now();
ensureHost();
let vsixDir;
if (installed) {
  // The package's own checks run too (size budget, contents, the unpacked run); the tests then install it.
  vsixDir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-vsix-'));
  const vsix = path.join(vsixDir, 'engram.vsix');
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/host/package.mjs'), '--out', vsix], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) { fs.rmSync(vsixDir, { recursive: true, force: true }); console.log('0 passed, 1 failed (npm run package)'); process.exit(1); }
  process.env.ENGRAM_E2E_VSIX = vsix;
} else if (doBuild) build();
process.on('exit', () => { if (vsixDir) fs.rmSync(vsixDir, { recursive: true, force: true }); });
const dir = path.join(repoRoot, 'test/e2e');
const files = fs.readdirSync(dir).filter(f => f.endsWith('.e2e.mjs')).sort();
let passed = 0, failed = 0;
let current;
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { current?.kill('SIGTERM'); process.exit(130); });

/** A file that types at human speed may ask for more time: `export const timeoutMs = N` (never less). */
function fileTimeout(file) {
  const m = /export\s+const\s+timeoutMs\s*=\s*([\d_]+)/.exec(fs.readFileSync(path.join(dir, file), 'utf8'));
  return Math.max(timeoutMs, m ? Number(m[1].replace(/_/g, '')) : 0);
}

function runFile(file) {
  return new Promise(resolve => {
    const t = Date.now();
    const limit = fileTimeout(file);
    // A file whose name matches runs whole; otherwise the pattern filters its named tests.
    const env = { ...process.env };
    if (re && re.test(file)) delete env.ENGRAM_TEST_GREP; else if (grep) env.ENGRAM_TEST_GREP = grep;
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/host/e2e-file.mjs'), path.join(dir, file)], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    current = child;
    let counts;
    let buf = '';
    child.stdout.on('data', d => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i); buf = buf.slice(i + 1);
        if (line.startsWith(MARKER)) { try { counts = JSON.parse(line.slice(MARKER.length)); } catch { /* ignore */ } } else console.log(line);
      }
    });
    // SIGTERM lets the child's cleanup end its code-server group; SIGKILL only if it does not go.
    const timer = setTimeout(() => { console.log(`  ✘ ${file}: timed out after ${limit} ms`); child.kill('SIGTERM'); setTimeout(() => child.kill('SIGKILL'), 10_000); }, limit);
    child.on('exit', code => {
      clearTimeout(timer);
      if (buf) console.log(buf);
      if (!counts) counts = code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
      else if (code !== 0 && counts.failed === 0) counts.failed = 1; // crashed after reporting
      log(`${file}: ${counts.passed} passed, ${counts.failed} failed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      resolve(counts);
    });
  });
}

for (const file of files) {
  const src = fs.readFileSync(path.join(dir, file), 'utf8');
  const installedOnly = /export\s+const\s+installedOnly\s*=\s*true/.test(src);
  if (installed ? !installedOnly && !/export\s+const\s+alsoInstalled\s*=\s*true/.test(src) : installedOnly) continue;
  // With a pattern, files whose name does not match still run if they export named tests that match;
  // script-style files (no named tests) are skipped unless their name matches.
  if (re && !re.test(file)) {
    if (!/export\s+const\s+tests\b/.test(src)) continue;
  }
  const c = await runFile(file);
  passed += c.passed; failed += c.failed;
}
log(`e2e total ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in test-results/screenshots/`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
