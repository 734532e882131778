#!/usr/bin/env node
// Activation cost outside VS Code: require dist/extension.js and call activate() with a minimal fake
// `vscode` module (installed through a Module._load hook), in fresh processes, against a baseline of
// requiring an empty module. Also lists what activation loaded, and checks that the heavy parts (the store
// bundle dist/store.js, vectra, @huggingface/transformers, onnxruntime) are NOT loaded at activation, nor
// after a few idle seconds. Prints numbers; never passes or fails on timing (exit 1 only if a heavy module
// was loaded at activation, which is a design rule, not a timing).
//   node bench/activation.mjs [--runs 9] [--idle-ms 3000] [--json]     (build first: node esbuild.mjs)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };
const HEAVY = [/[/\\]dist[/\\]store\.js$/, /[/\\]node_modules[/\\]vectra[/\\]/, /[/\\]@huggingface[/\\]transformers[/\\]/, /[/\\]onnxruntime/, /[/\\]dist[/\\]embedWorker\.js$/];

if (process.argv[2] === '--child') await child(process.argv[3], Number(process.argv[4]) || 0);
else await parent();

async function parent() {
  const ext = join(root, 'dist/extension.js');
  if (!existsSync(ext)) { console.error('dist/extension.js is missing: run `node esbuild.mjs` first'); process.exit(1); }
  const runs = Number(arg('--runs', '9'));
  const idleMs = Number(arg('--idle-ms', '3000'));
  const tmp = mkdtempSync(join(tmpdir(), 'engram-bench-activation-'));
  const empty = join(tmp, 'empty.js');
  writeFileSync(empty, 'module.exports = {};\n');
  const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const run = (mode, idle = 0) => {
    const target = mode === 'empty' ? empty : mode === 'ext' ? ext : mode;
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', target, String(idle)], { encoding: 'utf8', env: { ...process.env, ENGRAM_STORE_DIR: join(tmp, 'store') } });
    const line = (r.stdout ?? '').trim().split('\n').find(l => l.startsWith('{'));
    if (r.status !== 0 || !line) throw new Error(`child failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
    return JSON.parse(line);
  };
  try {
    console.log(`activation bench (node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}, ${runs} fresh processes each)`);
    // The packaged extension is the --production build (minified): measure that too, built from current sources.
    const minified = join(root, 'node_modules', '.cache', 'engram-bench', 'extension.min.js');
    await createRequire(join(root, 'package.json'))('esbuild').build({
      entryPoints: [join(root, 'src/extension.ts')], outfile: minified, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
      minify: true, external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp'], logLevel: 'warning',
    });
    const base = [], ext1 = [], min1 = [];
    // Interleaved, so load drifts on a shared machine hit every variant alike.
    for (let i = 0; i < runs; i++) { base.push(run('empty')); ext1.push(run('ext')); min1.push(run(minified)); }
    const idle = run('ext', idleMs);
    const pick = (rows, k) => median(rows.map(x => x[k]));
    const row = {
      runs,
      baselineRequireMs: pick(base, 'requireMs'), baselineRequireCpuMs: pick(base, 'requireCpuMs'),
      requireMs: pick(ext1, 'requireMs'), requireCpuMs: pick(ext1, 'requireCpuMs'),
      activateMs: pick(ext1, 'activateMs'), activateCpuMs: pick(ext1, 'activateCpuMs'),
      totalMs: pick(ext1, 'totalMs'), totalCpuMs: pick(ext1, 'totalCpuMs'),
      selfReportedMs: median(ext1.map(x => x.selfReportedMs).filter(x => x !== undefined)),
      bundleKb: ext1[0].bundleKb,
      minified: { bundleKb: min1[0].bundleKb, requireMs: pick(min1, 'requireMs'), requireCpuMs: pick(min1, 'requireCpuMs'), activateMs: pick(min1, 'activateMs'), totalMs: pick(min1, 'totalMs'), totalCpuMs: pick(min1, 'totalCpuMs') },
      loadedAtActivation: ext1[0].loaded, heavyAtActivation: ext1[0].heavy,
      loadedAfterIdle: idle.loadedAfterIdle, heavyAfterIdle: idle.heavyAfterIdle, idleMs,
      registered: ext1[0].registered,
    };
    const f = x => (x ?? NaN).toFixed(1);
    console.log(`  require an empty module (baseline)   ${f(row.baselineRequireMs)} ms wall, ${f(row.baselineRequireCpuMs)} ms CPU`);
    console.log(`  require dist/extension.js (${row.bundleKb} KB)  ${f(row.requireMs)} ms wall, ${f(row.requireCpuMs)} ms CPU`);
    console.log(`  activate()                           ${f(row.activateMs)} ms wall, ${f(row.activateCpuMs)} ms CPU   (its own log says "activated in ${f(row.selfReportedMs)} ms")`);
    console.log(`  main-thread total (require+activate) ${f(row.totalMs)} ms wall, ${f(row.totalCpuMs)} ms CPU   = ${f(row.totalMs - row.baselineRequireMs)} ms over the baseline`);
    const m = row.minified;
    console.log(`  production build (minified, ${m.bundleKb} KB): require ${f(m.requireMs)} ms + activate ${f(m.activateMs)} ms = ${f(m.totalMs)} ms wall, ${f(m.totalCpuMs)} ms CPU`);
    console.log(`  registered: ${Object.entries(row.registered).map(([k, v]) => `${v} ${k}`).join(', ')}`);
    console.log(`  modules loaded by activation (${row.loadedAtActivation.length}): ${row.loadedAtActivation.join(', ')}`);
    console.log(`  heavy modules at activation: ${row.heavyAtActivation.length ? row.heavyAtActivation.join(', ') : 'none (store bundle, vectra, transformers, onnxruntime all absent)'}`);
    console.log(`  heavy modules after ${idleMs} ms idle: ${row.heavyAfterIdle.length ? row.heavyAfterIdle.join(', ') : 'none'}; newly loaded while idle: ${row.loadedAfterIdle.join(', ') || 'nothing'}`);
    console.log(`load average at the end: ${loadavg()[0].toFixed(1)}`);
    if (process.argv.includes('--json')) console.log(JSON.stringify(row));
    if (row.heavyAtActivation.length) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function child(target, idleMs) {
  const tmp = mkdtempSync(join(tmpdir(), 'engram-act-child-'));
  const logs = [];
  const registered = {};
  const vscode = fakeVscode(tmp, logs, registered);
  const origLoad = Module._load;
  const builtins = new Set();
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (Module.isBuiltin(request)) builtins.add(request.replace(/^node:/, ''));
    return origLoad.call(this, request, parent, isMain);
  };
  const require = createRequire(import.meta.url);
  const before = new Set(Object.keys(require.cache));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const mod = require(target);
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  let selfReportedMs;
  if (typeof mod.activate === 'function') {
    const context = fakeContext(vscode, tmp);
    mod.activate(context);
  }
  const t2 = performance.now();
  const c2 = process.cpuUsage();
  const cpu = (a, b) => (b.user - a.user + b.system - a.system) / 1000;
  for (const l of logs) { const m = /activated in ([\d.]+) ms/.exec(l); if (m) selfReportedMs = Number(m[1]); }
  const name = f => relative(root, f).replace(/\\/g, '/');
  const loadedNow = () => Object.keys(require.cache).filter(f => !before.has(f));
  const loaded = loadedNow();
  const heavy = loaded.filter(f => HEAVY.some(h => h.test(f))).map(name);
  const out = {
    requireMs: t1 - t0, requireCpuMs: cpu(c0, c1), activateMs: t2 - t1, activateCpuMs: cpu(c1, c2), totalMs: t2 - t0, totalCpuMs: cpu(c0, c2),
    selfReportedMs, loaded: [...loaded.map(name), ...[...builtins].sort().map(b => `node:${b}`)], heavy, registered,
    bundleKb: Math.round((await import('node:fs')).statSync(target).size / 1024),
  };
  if (idleMs) {
    await new Promise(r => setTimeout(r, idleMs));
    const later = loadedNow();
    out.loadedAfterIdle = later.filter(f => !loaded.includes(f)).map(name);
    out.heavyAfterIdle = later.filter(f => HEAVY.some(h => h.test(f))).map(name);
  }
  console.log(JSON.stringify(out));
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0); // timers the extension started (debounces, lifecycle) must not keep the child alive
}

/** Enough of the VS Code API for activation: concrete where the code reads values, inert stubs elsewhere. */
function fakeVscode(tmp, logs, registered) {
  class Disposable {
    constructor(fn) { this.fn = fn; }
    static from(...ds) { return new Disposable(() => ds.forEach(d => d?.dispose?.())); }
    dispose() { this.fn?.(); this.fn = undefined; }
  }
  class EventEmitter {
    listeners = new Set();
    event = (l) => { this.listeners.add(l); return new Disposable(() => this.listeners.delete(l)); };
    fire(e) { for (const l of this.listeners) l(e); }
    dispose() { this.listeners.clear(); }
  }
  class Uri {
    constructor(scheme, path, query = '', fragment = '') { this.scheme = scheme; this.path = path; this.query = query; this.fragment = fragment; this.authority = ''; }
    get fsPath() { return this.path; }
    static file(p) { return new Uri('file', p); }
    static parse(s) { const m = /^([a-z-]+):\/\/[^/]*(\/[^?#]*)?/.exec(s); return m ? new Uri(m[1], m[2] ?? '/') : new Uri('file', s); }
    static joinPath(u, ...parts) { return new Uri(u.scheme, join(u.path, ...parts)); }
    with(ch) { return new Uri(ch.scheme ?? this.scheme, ch.path ?? this.path, ch.query ?? this.query, ch.fragment ?? this.fragment); }
    toString() { return `${this.scheme}://${this.path}`; }
    toJSON() { return { scheme: this.scheme, path: this.path }; }
  }
  const count = (k) => { registered[k] = (registered[k] ?? 0) + 1; };
  /** An inert value: any property is another stub, calls return stubs, never thenable, coerces to ''. */
  const stub = (label) => {
    const cache = new Map();
    const target = function () {};
    return new Proxy(target, {
      get(_t, p) {
        if (p === 'then') return undefined;
        if (p === Symbol.toPrimitive) return () => '';
        if (p === Symbol.iterator) return function* () {};
        if (p === 'dispose') return () => {};
        if (typeof p === 'symbol') return undefined;
        if (!cache.has(p)) cache.set(p, stub(`${label}.${String(p)}`));
        return cache.get(p);
      },
      set(_t, p, v) { cache.set(p, v); return true; },
      apply() { return stub(`${label}()`); },
      construct() { return stub(`new ${label}`); },
    });
  };
  const event = () => () => new Disposable();
  const folder = { uri: Uri.file(join(tmp, 'ws')), name: 'ws', index: 0 };
  const config = { get: (_k, d) => d, has: () => false, inspect: () => undefined, update: async () => {} };
  const channel = new Proxy({}, {
    get(_t, p) {
      if (['info', 'warn', 'error', 'debug', 'trace', 'appendLine', 'append'].includes(p)) return (m) => { logs.push(String(m)); };
      if (p === 'logLevel') return 2;
      if (p === 'onDidChangeLogLevel') return event();
      if (p === 'then') return undefined;
      return () => {};
    },
  });
  const real = {
    Disposable, EventEmitter, Uri,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    l10n: { t: (s, ...a) => String(typeof s === 'object' ? s.message : s).replace(/\{(\d+)\}/g, (_, i) => String(a[i])), bundle: undefined, uri: undefined },
    env: { language: 'en', appName: 'bench', uiKind: 1, clipboard: stub('clipboard'), machineId: 'bench', sessionId: 'bench' },
    workspace: new Proxy({
      workspaceFolders: [folder], isTrusted: true, textDocuments: [], name: 'ws',
      getConfiguration: () => config, getWorkspaceFolder: () => folder, asRelativePath: p => String(p),
      fs: stub('workspace.fs'), createFileSystemWatcher: () => stub('watcher'), findFiles: async () => [],
    }, { get: (t, p) => p in t ? t[p] : (String(p).startsWith('onDid') || String(p).startsWith('onWill')) ? event() : stub(`workspace.${String(p)}`) }),
    window: new Proxy({
      visibleTextEditors: [], activeTextEditor: undefined, terminals: [], activeTerminal: undefined,
      createOutputChannel: () => channel, state: { focused: true },
      createStatusBarItem: () => { count('status bar items'); return stub('statusBarItem'); },
      registerWebviewViewProvider: () => { count('webview views'); return new Disposable(); },
    }, { get: (t, p) => p in t ? t[p] : String(p).startsWith('onDid') ? event() : stub(`window.${String(p)}`) }),
    languages: new Proxy({
      getDiagnostics: () => [],
      registerHoverProvider: () => { count('hover providers'); return new Disposable(); },
      registerCodeActionsProvider: () => { count('code action providers'); return new Disposable(); },
    }, { get: (t, p) => p in t ? t[p] : String(p).startsWith('onDid') ? event() : stub(`languages.${String(p)}`) }),
    commands: { registerCommand: () => { count('commands'); return new Disposable(); }, executeCommand: async () => undefined, getCommands: async () => [] },
    chat: { createChatParticipant: () => { count('chat participants'); return stub('participant'); } },
    lm: { registerTool: () => { count('language model tools'); return new Disposable(); }, selectChatModels: async () => [], tools: [] },
    extensions: { getExtension: () => undefined, all: [], onDidChange: event() },
  };
  return new Proxy(real, { get: (t, p) => p in t ? t[p] : p === 'then' || typeof p === 'symbol' ? undefined : stub(String(p)) });
}

function fakeContext(vscode, tmp) {
  const memento = () => { const m = new Map(); return { get: (k, d) => m.has(k) ? m.get(k) : d, update: async (k, v) => { m.set(k, v); }, keys: () => [...m.keys()], setKeysForSync() {} }; };
  return {
    subscriptions: [],
    extensionPath: root, extensionUri: vscode.Uri.file(root), asAbsolutePath: p => join(root, p),
    storageUri: vscode.Uri.file(join(tmp, 'storage')), globalStorageUri: vscode.Uri.file(join(tmp, 'global')), logUri: vscode.Uri.file(join(tmp, 'log')),
    storagePath: join(tmp, 'storage'), globalStoragePath: join(tmp, 'global'), logPath: join(tmp, 'log'),
    workspaceState: memento(), globalState: memento(),
    secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => ({ dispose() {} }) },
    extensionMode: 1, extension: { id: 'engram-dev.engram', packageJSON: { version: '0.1.0' } },
    environmentVariableCollection: { replace() {}, append() {}, prepend() {}, get() {}, forEach() {}, delete() {}, clear() {} },
    languageModelAccessInformation: { canSendRequest: () => undefined, onDidChange: () => ({ dispose() {} }) },
  };
}
