// Integration tests inside a real VS Code extension host (code-server 4.139.1 + headless Chromium).
//   npm run test:integration [-- --grep PATTERN] [--phase 1|2] [--keep] [--no-build]
// Phase 1 runs out/test/integration/*.test.js; then the server and browser are restarted against the
// SAME user data and workspace and phase 2 runs out/test/integration/phase2/*.test.js, which proves
// memories survive a reload. Prints `N passed, N failed` over both phases; exits non-zero on failure.
// Env: ENGRAM_TEST_GREP (same as --grep), ENGRAM_TEST_TIMEOUT_MS (per phase, default 600000),
// VERBOSE=1 (show workbench console noise too), ENGRAM_KEEP_RUN=1 (same as --keep).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import {
  NOISE, build, cleanupAll, copyWorkspace, ensureHost, freePort, launchBrowser, log, makeRunDir, onCleanup, repoRoot,
  seedUserSettings, startServer, tail, workbenchUrl,
} from './lib.mjs';

const RESULT_MARKER = 'ENGRAM_MOCHA_RESULT'; // printed by test/integration/index.ts

export function parseArgs(argv) {
  const opts = { grep: process.env.ENGRAM_TEST_GREP || undefined, phases: [1, 2], keep: !!process.env.ENGRAM_KEEP_RUN, build: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--grep' || a === '-g') opts.grep = argv[++i];
    else if (a.startsWith('--grep=')) opts.grep = a.slice(7);
    else if (a === '--phase') opts.phases = [Number(argv[++i])];
    else if (a === '--keep') opts.keep = true;
    else if (a === '--no-build') opts.build = false;
    else throw new Error(`unknown argument: ${a}`);
  }
  return opts;
}

/**
 * One phase: fresh server + browser, extension tests run, then both closed.
 * Resolves { code, passed, failed, pending, seen } (seen = a result line arrived).
 */
export async function runPhase(host, { runDir, port, workspace, userDataDir, extensionsDir, testsPath, devPaths = [repoRoot], env = {}, timeoutMs, label, resultsDir, startMarker = `[${label}]` }) {
  const started = Date.now();
  const server = await startServer(host, { runDir, port, userDataDir, extensionsDir, env });
  log(`${label}: code-server on ${server.base} (pid group ${server.pid})`);
  const { page, close } = await launchBrowser(host, { runDir });
  const result = { code: 1, passed: 0, failed: 0, pending: 0, seen: false };
  let finish;
  const finished = new Promise(r => (finish = r));
  // Everything goes to console.log in the results folder; the terminal gets the tests' own output
  // (from mocha's start line to its result line) plus errors that mention Engram before that.
  fs.mkdirSync(resultsDir, { recursive: true });
  const consoleFile = fs.createWriteStream(path.join(resultsDir, 'console.log'));
  let streaming = !startMarker; // an empty marker streams from the first line
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const msg = util.format(...(Array.isArray(args) ? args : [args]));
    consoleFile.write(`[${type}] ${msg}\n`);
    const i = msg.indexOf(RESULT_MARKER);
    if (i >= 0) {
      try {
        const r = JSON.parse(msg.slice(i + RESULT_MARKER.length).split('\n')[0].trim());
        Object.assign(result, { passed: r.passed, failed: r.failed, pending: r.pending, seen: true });
      } catch { /* not ours */ }
      streaming = false;
      return;
    }
    if (startMarker && msg.startsWith(startMarker)) streaming = true;
    const show = process.env.VERBOSE || (streaming ? !NOISE.test(msg) : type === 'error' && /engram/i.test(msg));
    if (show) process.stdout.write(type === 'error' || type === 'warn' ? `[${type}] ${msg}\n` : `${msg}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    // The workbench hands over its and the extension host's log files: keep them for CI artifacts.
    if (Array.isArray(logs)) {
      for (const l of logs) {
        try {
          const f = path.join(resultsDir, 'logs', l.relativePath);
          fs.mkdirSync(path.dirname(f), { recursive: true });
          fs.writeFileSync(f, l.contents);
        } catch { /* best effort */ }
      }
    }
    finish(typeof code === 'number' ? code : 1);
  });
  page.on('pageerror', e => { if (process.env.VERBOSE) console.error('[pageerror]', String(e).slice(0, 300)); });
  const url = workbenchUrl(server, { folder: workspace, extensionDevelopmentPath: devPaths, extensionTestsPath: testsPath });
  log(`${label}: opening workbench for ${path.relative(repoRoot, testsPath) || testsPath}`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 180_000 }).catch(e => { log(`${label}: workbench did not load: ${e.message.split('\n')[0]}`); finish(1); });
  const timer = setTimeout(() => { log(`${label}: TIMEOUT after ${timeoutMs} ms`); finish(124); }, timeoutMs);
  result.code = await finished;
  clearTimeout(timer);
  await page.screenshot({ path: path.join(resultsDir, 'final.png') }).catch(() => {});
  consoleFile.end();
  await close();
  await server.stop();
  fs.copyFileSync(server.logFile, path.join(resultsDir, 'server.log'));
  // A crash before mocha reported still counts as a failure in the summary.
  if (!result.seen && result.code !== 0) result.failed = Math.max(result.failed, 1);
  log(`${label}: exit code ${result.code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.code !== 0 && !result.seen) console.error(`${label}: no test results; server log tail:\n${tail(server.logFile)}`);
  return result;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const host = ensureHost();
  log(`host ready in ${Date.now() - started} ms`);
  if (opts.build) build({ tests: true });
  const runDir = makeRunDir('engram-it-');
  // Registered first, so it runs last: after servers and browsers are gone (also on Ctrl-C).
  onCleanup(() => { if (!opts.keep) fs.rmSync(runDir, { recursive: true, force: true }); });
  const workspace = copyWorkspace(path.join(repoRoot, 'test/fixtures/workspace'), path.join(runDir, 'workspace'));
  const userDataDir = path.join(runDir, 'user-data');
  seedUserSettings(userDataDir);
  // The workspace storage folder is keyed by the folder URI, which includes host:port: both phases
  // must use the same port to find the same storage (that is the point of phase 2).
  const port = await freePort();
  const env = opts.grep ? { ENGRAM_TEST_GREP: opts.grep } : {};
  const timeoutMs = Number(process.env.ENGRAM_TEST_TIMEOUT_MS || 600_000);
  const resultsRoot = path.join(repoRoot, 'test-results', 'integration');
  fs.rmSync(resultsRoot, { recursive: true, force: true });
  const phases = [
    { n: 1, testsPath: path.join(repoRoot, 'out/test/integration/index.js') },
    { n: 2, testsPath: path.join(repoRoot, 'out/test/integration/phase2/index.js') },
  ].filter(p => opts.phases.includes(p.n));
  const results = [];
  for (const p of phases) {
    if (!fs.existsSync(p.testsPath)) { console.error(`missing ${p.testsPath} (build with: node esbuild.mjs --tests)`); results.push({ code: 1, passed: 0, failed: 1 }); continue; }
    results.push(await runPhase(host, {
      runDir, port, workspace, userDataDir, env, timeoutMs, testsPath: p.testsPath, label: `phase ${p.n}`,
      resultsDir: path.join(resultsRoot, `phase${p.n}`),
    }));
  }
  await cleanupAll();
  if (opts.keep) log(`run folder kept: ${runDir}`);
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const pending = results.reduce((n, r) => n + (r.pending ?? 0), 0);
  const code = results.some(r => r.code !== 0) || failed > 0 ? 1 : 0;
  log(`integration total ${((Date.now() - started) / 1000).toFixed(1)} s; logs in ${path.relative(repoRoot, resultsRoot)}/`);
  console.log(`${passed} passed, ${failed} failed${pending ? `, ${pending} pending` : ''}`);
  process.exit(code);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch(async e => { console.error('run-integration failed:', e instanceof Error ? e.message : e); await cleanupAll(); process.exit(1); });
}
