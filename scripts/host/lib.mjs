// Shared plumbing for driving the extension inside a real VS Code (code-server + headless Debian
// Chromium via playwright-core): setup, build, a throw-away run folder, the server in its own process
// group, the browser, and cleanup that also happens on Ctrl-C and timeouts.
// Used by run-integration.mjs, run-e2e.mjs, start.mjs, package.mjs, code-shim.mjs and test/e2e/lib.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const t0 = Date.now();
/** Progress lines on stderr so stdout stays the tests' own output. */
export function log(...args) {
  console.error(`[host ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...args);
}

/** Runs setup.sh (installs once, then only checks the cache) and returns the cached tool paths. */
export function ensureHost() {
  const r = spawnSync('bash', [path.join(repoRoot, 'scripts/host/setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`scripts/host/setup.sh failed (exit ${r.status})`);
  const envFile = r.stdout.trim().split('\n').pop();
  const vars = {};
  for (const line of fs.readFileSync(envFile, 'utf8').split('\n')) {
    const m = /^export (\w+)="(.*)"$/.exec(line.trim());
    if (m) vars[m[1]] = m[2];
  }
  const host = {
    node24Bin: vars.ENGRAM_NODE24_BIN,
    codeServer: vars.ENGRAM_CODE_SERVER_BIN,
    nodeModules: vars.ENGRAM_HOST_NODE_MODULES,
  };
  for (const [k, v] of Object.entries(host)) if (!v || !fs.existsSync(v)) throw new Error(`host setup incomplete: ${k} missing (${envFile})`);
  return host;
}

/** `node esbuild.mjs [--tests]`; throws with esbuild's own message on failure. */
export function build({ tests = false, production = false } = {}) {
  const args = [path.join(repoRoot, 'esbuild.mjs')];
  if (tests) args.push('--tests');
  if (production) args.push('--production');
  const started = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`build failed (node ${args.map(a => path.relative(repoRoot, a) || a).join(' ')})`);
  log(`built in ${Date.now() - started} ms`);
}

/** playwright-core from the project (devDependency) or, failing that, the host cache. */
export function loadPlaywright(host) {
  for (const base of [path.join(repoRoot, 'package.json'), host && path.join(host.nodeModules, '..', 'package.json')].filter(Boolean)) {
    try { return createRequire(base)('playwright-core'); } catch { /* try the next one */ }
  }
  throw new Error('playwright-core not found (npm ci, or run scripts/host/setup.sh)');
}

/** A free TCP port on 127.0.0.1; `preferred` first when it is free. */
export async function freePort(preferred) {
  const tryPort = p => new Promise(resolve => {
    const s = net.createServer();
    s.once('error', () => resolve(undefined));
    s.listen(p, '127.0.0.1', () => { const got = s.address().port; s.close(() => resolve(got)); });
  });
  if (preferred) {
    for (let p = preferred; p < preferred + 20; p++) { const got = await tryPort(p); if (got) return got; }
  }
  return tryPort(0);
}

// Everything started here is ended on exit, Ctrl-C or SIGTERM: one list, run once.
const cleanups = [];
let cleaning;
/** Server process groups still alive: killed outright on process exit, even mid-cleanup. */
const liveGroups = new Set();
export function onCleanup(fn) { cleanups.push(fn); return () => { const i = cleanups.indexOf(fn); if (i >= 0) cleanups.splice(i, 1); }; }
export function cleanupAll() {
  // A second caller (signal handler and main's catch) waits for the same cleanup instead of exiting early.
  cleaning ??= (async () => {
    while (cleanups.length) { try { await cleanups.pop()(); } catch { /* best effort */ } }
  })().finally(() => { cleaning = undefined; });
  return cleaning;
}
process.once('exit', () => {
  for (const fn of cleanups.splice(0)) { try { void fn(true); } catch { /* exiting */ } }
  for (const pgid of liveGroups) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } }
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => { log(`${sig}: cleaning up`); void cleanupAll().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143)); });
}

/** A throw-away folder for one run: user data, XDG dirs, browser profile, logs, store. */
export function makeRunDir(prefix = 'engram-host-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return dir;
}

/** Copies a workspace template to `dest` (fresh) and returns `dest`. */
export function copyWorkspace(src, dest) {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.cpSync(src, dest, { recursive: true, filter: p => !/[/\\](node_modules|\.git)([/\\]|$)/.test(p) });
  return dest;
}

/**
 * Installs a copied workspace's own npm dependencies (the demo's TypeScript) so its scripts work in the
 * integrated terminal as its README says. Offline when the npm cache has them (--prefer-offline); `npm ci`
 * when it has a lockfile. The calling npm's npm_* variables are dropped: under `npm start` they are the
 * repo's own settings and package fields, not the workspace's. No-op without dependencies or when
 * node_modules is already there.
 */
export function installWorkspaceDeps(dir) {
  let pkg;
  try { pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')); } catch { return false; }
  const wanted = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).length > 0;
  if (!wanted || fs.existsSync(path.join(dir, 'node_modules'))) return false;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
  const lock = fs.existsSync(path.join(dir, 'package-lock.json'));
  const args = [lock ? 'ci' : 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  const started = Date.now();
  const r = spawnSync('npm', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} in ${dir} failed (exit ${r.status}):\n${(r.stderr || r.stdout || '').trim()}`);
  log(`installed ${path.basename(dir)}'s dependencies (npm ${args[0]}) in ${Date.now() - started} ms`);
  return true;
}

/**
 * How `npm start` opens its demo copy (start.mjs; the demo e2e test opens it the same way): the welcome
 * flow kept so `workbench.startupEditor: readme` opens the demo's README, and ENGRAM_DEMO=1 so the
 * extension reveals its view once it starts. The copy's own dependencies come from installWorkspaceDeps.
 */
export const demoWindow = { settings: { 'workbench.startupEditor': 'readme' }, env: { ENGRAM_DEMO: '1' }, skipWelcome: false };

/** Settings every harness run needs; callers add their own on top. */
export const baseSettings = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'terminal.integrated.shellIntegration.enabled': true,
  'typescript.tsserver.log': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  // The chat view opens on the right by default; it covers half the editor in screenshots.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
};

/** Writes <userDataDir>/User/settings.json, merged over what is already there. */
export function seedUserSettings(userDataDir, settings = {}) {
  const file = path.join(userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let current = {};
  try { current = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { /* first run */ }
  fs.writeFileSync(file, JSON.stringify({ ...baseSettings, ...current, ...settings }, null, 2));
  return file;
}

const waitForPort = async (port, ms, isDead) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (isDead()) return false;
    const ok = await new Promise(r => { const c = net.connect(port, '127.0.0.1', () => { c.end(); r(true); }); c.on('error', () => r(false)); });
    if (ok) return true;
    await new Promise(r => setTimeout(r, 100));
  }
  return false;
};

/**
 * Starts code-server on 127.0.0.1 in its own process group with config/data under `runDir`.
 * Returns { port, authority, base, userDataDir, logFile, stop() }; stop() ends the whole group.
 */
export async function startServer(host, { runDir, port, env = {}, userDataDir, extensionsDir, smokeDriver = true, logToConsole = false }) {
  port = port ?? await freePort();
  userDataDir ??= path.join(runDir, 'user-data');
  extensionsDir ??= path.join(runDir, 'extensions');
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const serverEnv = {
    ...process.env,
    ...env,
    PATH: `${host.node24Bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: path.join(runDir, 'xdg', 'config'),
    XDG_DATA_HOME: path.join(runDir, 'xdg', 'data'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg', 'cache'),
  };
  // npm_* variables from `npm test` would leak npm's own settings into terminals the tests open.
  for (const k of Object.keys(serverEnv)) if (k.startsWith('npm_')) delete serverEnv[k];
  const args = ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  // Without the smoke-test driver the built web workbench ignores the `payload` query parameter.
  if (smokeDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const logFile = path.join(runDir, `server-${port}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(host.codeServer, args, { env: serverEnv, stdio: ['ignore', logToConsole ? 'inherit' : out, logToConsole ? 'inherit' : out], detached: true });
  fs.closeSync(out);
  let exited = false;
  liveGroups.add(child.pid);
  child.on('exit', () => { exited = true; });
  const stop = async sync => {
    unregister();
    if (exited) { // the leader is gone, but its group (extension host, pty host) may not be
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      liveGroups.delete(child.pid);
      return;
    }
    try { process.kill(-child.pid, 'SIGTERM'); } catch { liveGroups.delete(child.pid); return; }
    if (sync === true) return; // process exit: no time to wait
    for (let i = 0; i < 50 && !exited; i++) await new Promise(r => setTimeout(r, 100));
    if (!exited) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }
    // The group may outlive its leader (extension host, pty host): make sure it is gone.
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    liveGroups.delete(child.pid);
  };
  const unregister = onCleanup(stop);
  const up = await waitForPort(port, 60_000, () => exited);
  if (!up) {
    await stop();
    throw new Error(`code-server did not start on port ${port}; see ${logFile}:\n${tail(logFile)}`);
  }
  const authority = `127.0.0.1:${port}`;
  return { port, authority, base: `http://${authority}`, userDataDir, extensionsDir, logFile, pid: child.pid, stop };
}

/**
 * Installs a .vsix into `extensionsDir` as a user would (`code-server --install-extension`), offline, and
 * returns the folder it was installed to.
 */
export function installVsix(host, vsix, { runDir, extensionsDir, userDataDir }) {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const env = { ...process.env, PATH: `${host.node24Bin}:${process.env.PATH}`, XDG_CONFIG_HOME: path.join(runDir, 'xdg', 'config'), XDG_DATA_HOME: path.join(runDir, 'xdg', 'data') };
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const started = Date.now();
  const r = spawnSync(host.codeServer, ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix], { env, encoding: 'utf8' });
  const installed = fs.existsSync(extensionsDir) ? fs.readdirSync(extensionsDir).filter(d => d.startsWith(`${pkg.publisher}.${pkg.name}-`)) : [];
  if (r.status !== 0 || installed.length !== 1) throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  log(`installed ${installed[0]} in ${Date.now() - started} ms`);
  return path.join(extensionsDir, installed[0]);
}

export function tail(file, lines = 30) {
  try { return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return ''; }
}

/**
 * The workbench URL for `folder` with a smoke-test-driver payload. Tests skip the welcome flow; `npm start`
 * keeps it (skipWelcome: false) so `workbench.startupEditor: readme` opens the demo's README.
 */
export function workbenchUrl(server, { folder, extensionDevelopmentPath = repoRoot, extensionTestsPath, extra = [], skipWelcome = true }) {
  const remote = p => `vscode-remote://${server.authority}${path.resolve(p)}`;
  const devPaths = Array.isArray(extensionDevelopmentPath) ? extensionDevelopmentPath : [extensionDevelopmentPath];
  const payload = [
    ...devPaths.map(p => ['extensionDevelopmentPath', remote(p)]),
    ...(extensionTestsPath ? [['extensionTestsPath', remote(extensionTestsPath)]] : []),
    ...(skipWelcome ? [['skipWelcome', 'true']] : []),
    ...extra,
  ];
  const q = `folder=${encodeURIComponent(path.resolve(folder)).replace(/%2F/g, '/')}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return `${server.base}/?${q}`;
}

/** Headless Debian Chromium with a profile under `runDir`; closed by cleanup too. */
export async function launchBrowser(host, { runDir, headless = true, viewport = { width: 1400, height: 900 } }) {
  const { chromium } = loadPlaywright(host);
  const profile = fs.mkdtempSync(path.join(runDir, 'chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const close = async () => { unregister(); await context.close().catch(() => {}); };
  const unregister = onCleanup(close);
  const page = context.pages()[0] ?? await context.newPage();
  return { context, page, close };
}

/** Offline noise from the workbench that says nothing about our extension. */
export const NOISE = /\[AgentHost\]|\[ChatModelSelection\]|ERR_NAME_NOT_RESOLVED|Failed to load resource|authentication provider|github|marketplace|gallery|ERR_INTERNET_DISCONNECTED|update\.code\.visualstudio|copilot/i;
