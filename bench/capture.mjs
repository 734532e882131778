#!/usr/bin/env node
// Main-thread cost of capture per diagnostics event, against listener baselines in the same run:
//   node bench/capture.mjs [--files 500] [--events 20000] [--rounds 3] [--json]
// Drives the real code: DiagnosticsIntake from src/vscode/capture/diagnostics.ts ('vscode' replaced by a
// stub: the intake uses none of it) and the capture session (its DiagnosticsBook and EpisodeTracker,
// src/core/capture/capturePipeline.ts), the way watchDiagnostics does. Prints p50/p99 (wall and CPU) per
// event and per drain turn; never pass/fail.
import * as esbuild from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const FILES = arg('files', 500);
const EVENTS = arg('events', 20000);
const WARMUP = Math.min(2000, Math.floor(EVENTS / 5));
const ROUNDS = arg('rounds', 3);
const json = process.argv.includes('--json');

async function load() {
  // Inside node_modules/.cache, so the bundle's external packages (the session's minimatch) resolve.
  mkdirSync(join(repo, 'node_modules', '.cache'), { recursive: true });
  const out = mkdtempSync(join(repo, 'node_modules', '.cache', 'engram-bench-capture-'));
  const entry = join(out, 'entry.ts');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(entry, [
    `export { DiagnosticsIntake, DIAGNOSTICS_BATCH, DIAGNOSTICS_COALESCE_MS } from ${JSON.stringify(join(repo, 'src/vscode/capture/diagnostics.ts'))};`,
    `export { CapturePipeline } from ${JSON.stringify(join(repo, 'src/core/capture/capturePipeline.ts'))};`,
  ].join('\n'));
  const stubVscode = {
    name: 'vscode-stub',
    setup(b) {
      b.onResolve({ filter: /^vscode$/ }, () => ({ path: 'vscode', namespace: 'stub' }));
      b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'module.exports = { languages: {}, workspace: {}, extensions: {} };', loader: 'js' }));
    },
  };
  await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: join(out, 'capture.cjs'), plugins: [stubVscode], logLevel: 'warning', packages: 'external', absWorkingDir: repo });
  const mod = createRequire(join(repo, 'package.json'))(join(out, 'capture.cjs'));
  return { mod, cleanup: () => rmSync(out, { recursive: true, force: true }) };
}

function rng(seed = 7) {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

const TYPES = ['string', 'number', 'boolean', 'User', 'Order', 'Config', 'Props', 'undefined'];
const NAMES = ['config', 'loader', 'parser', 'client', 'server', 'cache', 'session', 'token', 'request', 'handler'];

/** A vscode.Diagnostic-shaped object (range + severity + code + source). */
function diag(severity, code, message, line) {
  return { severity, code, source: 'ts', message, range: { start: { line, character: 2 }, end: { line, character: 9 } } };
}

function initialDiagnostics(r) {
  const files = [];
  for (let i = 0; i < FILES; i++) {
    const uri = `file:///w/src/mod${i}/file${i}.ts`;
    const list = [];
    const n = 2 + Math.floor(r() * 6);
    for (let k = 0; k < n; k++) {
      const kind = Math.floor(r() * 4);
      if (kind === 0) list.push(diag(0, 2322, `Type '${TYPES[k % TYPES.length]}' is not assignable to type '${TYPES[(k + 3) % TYPES.length]}'.`, k * 3));
      else if (kind === 1) list.push(diag(0, 2339, `Property '${NAMES[k % NAMES.length]}' does not exist on type '${TYPES[k % TYPES.length]}'.`, k * 3));
      else list.push(diag(1, 6133, `'${NAMES[k % NAMES.length]}${i}' is declared but its value is never read.`, k * 3));
    }
    files.push({ uri, rel: `src/mod${i}/file${i}.ts`, list });
  }
  return files;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function stats(samplesNs) {
  const s = Float64Array.from(samplesNs).sort();
  return { p50: percentile(s, 0.5) / 1e3, p99: percentile(s, 0.99) / 1e3, max: s[s.length - 1] / 1e3 }; // µs
}

/** Wall and CPU time of one call. */
function timed(fn, into) {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  const out = fn();
  const ns = Number(process.hrtime.bigint() - t);
  const cpu = process.cpuUsage(c);
  if (into) {
    into.wall.push(ns);
    into.cpu.push((cpu.user + cpu.system) * 1000);
    if (ns > 1e6) into.slowCpu.push((cpu.user + cpu.system) * 1000);
  }
  return { ns, out };
}

const samplesOf = () => ({ wall: [], cpu: [], slowCpu: [] });
function summary(sm) {
  if (!sm.wall.length) return undefined;
  const w = stats(sm.wall), c = stats(sm.cpu);
  return { ...w, cpuP50: c.p50, cpuP99: c.p99, slowEvents: sm.slowCpu.length, slowCpuP50: sm.slowCpu.length ? stats(sm.slowCpu).p50 : 0, n: sm.wall.length };
}

/**
 * One run over the same event sequence. A listener is { onEvent(uris, now), turn?(now) }: onEvent is
 * what runs inside vscode.languages.onDidChangeDiagnostics; turn is one later, bounded drain (the
 * shipped adapter coalesces 150 ms, i.e. every 4th event here).
 * Scenario: the user types in one of 20 files (its diagnostics change every event; with `fresh`,
 * half the time with a never-seen message, i.e. a new signature), and the language server re-sends
 * unchanged diagnostics for 5 other files; time moves 40 ms per event so thresholds and settles fire.
 */
function run(label, makeListener, fresh) {
  const r = rng(11);
  const files = initialDiagnostics(r);
  const byUri = new Map(files.map(f => [f.uri, f]));
  const listener = makeListener(byUri);
  let now = 1_000_000;
  // Project load: every file's diagnostics arrive in one event.
  let burstNs = timed(() => listener.onEvent(files.map(f => f.uri), now)).ns;
  if (listener.turn) {
    burstNs = 0;
    for (let more = true; more;) { const t = timed(() => listener.turn(now)); more = t.out; burstNs = Math.max(burstNs, t.ns); }
  }
  const events = samplesOf();
  const turns = samplesOf();
  const every = Math.round(COALESCE_MS / 40);
  for (let e = 0; e < EVENTS + WARMUP; e++) {
    now += 40;
    const typing = files[Math.floor(r() * 20)];
    typing.list = [...typing.list, diag(0, 2304, fresh && r() < 0.5 ? `Cannot find name '${NAMES[e % NAMES.length]}${e}'.` : `Cannot find name 'pending'.`, 40)].slice(-12);
    if (e % 3 === 0) typing.list = typing.list.filter(d => d.code !== 2304); // the name got typed out
    const uris = [typing.uri];
    for (let j = 0; j < 5; j++) uris.push(files[Math.floor(r() * files.length)].uri);
    timed(() => listener.onEvent(uris, now), e >= WARMUP ? events : undefined);
    if (listener.turn && e % every === 0) {
      for (let more = true; more;) more = timed(() => listener.turn(now), e >= WARMUP ? turns : undefined).out;
    }
  }
  return { label, burstMs: burstNs / 1e6, event: summary(events), turn: summary(turns) };
}

const { mod, cleanup } = await load();
const { DiagnosticsIntake, CapturePipeline, DIAGNOSTICS_BATCH: BATCH, DIAGNOSTICS_COALESCE_MS: COALESCE_MS } = mod;
let sink = 0;

const emptyListener = () => ({ onEvent: () => {} });
const readOnlyListener = byUri => ({ onEvent: uris => { for (const u of uris) sink += byUri.get(u).list.length; } });

/** The real intake + session, with the plain-data stand-ins for getDiagnostics and the document lookup. */
function captureParts(byUri) {
  const session = new CapturePipeline({ noiseThresholdMs: 4000, idleGapMs: 30 * 60_000, settleMs: 2000 });
  const ctx = { fileOpen: true, serverAlive: true };
  let now = 0;
  const intake = new DiagnosticsIntake({
    read: uri => {
      const f = byUri.get(uri);
      // toRaw: what watchDiagnostics maps each vscode.Diagnostic to.
      return { file: f.rel, diagnostics: f.list.map(d => ({ severity: d.severity, message: d.message, source: d.source, code: d.code, line: d.range.start.line })) };
    },
    context: () => ctx,
    deliver: (file, raw, c) => { const r = session.diagnostics(file, raw, now, c); sink += r.effects.length; return r.errors; },
  });
  const turn = t => { now = t; const more = intake.drain(); sink += session.tick(t).length; return more; };
  return { intake, turn, setNow: t => { now = t; } };
}

const inEventListener = byUri => {
  const c = captureParts(byUri);
  return { onEvent: (uris, now) => { c.intake.enqueue(uris.map(u => [u, u])); while (c.turn(now)); } };
};
const shippedListener = byUri => {
  const c = captureParts(byUri);
  return { onEvent: uris => c.intake.enqueue(uris.map(u => [u, u])), turn: now => c.turn(now) };
};

const scenarios = [
  ['empty listener (baseline)', emptyListener, true],
  ['listener reading diagnostics (baseline)', readOnlyListener, true],
  ['all work inside the event, repeated messages', inEventListener, false],
  ['all work inside the event, new messages', inEventListener, true],
  ['as shipped (coalesced), new messages', shippedListener, true],
];
// Rounds are interleaved and the best round (lowest event p99) is reported: on a shared machine other
// processes' bursts land in whichever scenario runs at that moment. All rounds are in --json.
const rounds = scenarios.map(() => []);
for (let k = 0; k < ROUNDS; k++) scenarios.forEach(([label, make, fresh], i) => rounds[i].push(run(label, make, fresh)));
const results = rounds.map(rs => rs.reduce((best, r) => (r.event.p99 < best.event.p99 ? r : best)));
cleanup();
const loadAvg = (await import('node:os')).loadavg().map(x => x.toFixed(1)).join(' ');

const fmt = (x, d = 2) => x.toFixed(d).padStart(8);
if (json) {
  console.log(JSON.stringify({ files: FILES, events: EVENTS, rounds: ROUNDS, batch: BATCH, coalesceMs: COALESCE_MS, loadavg: loadAvg, results, allRounds: rounds }, null, 2));
} else {
  console.log(`capture: ${FILES} files of diagnostics, ${EVENTS} events (6 uris each, 1 really changed), best of ${ROUNDS} rounds, Node ${process.version}, load average ${loadAvg}`);
  console.log('per diagnostics event (µs)                         wall p50  wall p99   cpu p99   ratio p99 vs empty / vs reading');
  const base = results[0].event, read = results[1].event;
  for (const r of results) {
    const e = r.event;
    console.log(`${r.label.padEnd(50)} ${fmt(e.p50)} ${fmt(e.p99)} ${fmt(e.cpuP99, 0)}   ×${(e.p99 / base.p99).toFixed(1)} / ×${(e.p99 / read.p99).toFixed(1)}`);
  }
  const shipped = results[4];
  console.log(`as shipped, one drain turn (<= ${BATCH} files, every ${COALESCE_MS} ms while diagnostics change): wall p50 ${shipped.turn.p50.toFixed(1)} µs, p99 ${shipped.turn.p99.toFixed(1)} µs, cpu p99 ${shipped.turn.cpuP99.toFixed(0)} µs`);
  console.log(`project load (${FILES} files in one event), worst single turn: in-event ${results[3].burstMs.toFixed(1)} ms, as shipped ${shipped.burstMs.toFixed(2)} ms`);
  const worst = [shipped.event, shipped.turn];
  const met = worst.every(x => x.p99 < 1000);
  console.log(`target p99 < 1 ms per event (and per turn) as shipped: ${met ? 'met' : 'NOT met'} (event ${(shipped.event.p99 / 1000).toFixed(3)} ms, turn ${(shipped.turn.p99 / 1000).toFixed(3)} ms wall; turn cpu ${(shipped.turn.cpuP99 / 1000).toFixed(3)} ms)`);
  const inEv = results[3].event;
  console.log(`in-event variant: ${inEv.slowEvents} of ${inEv.n} events over 1 ms wall, using ${inEv.slowCpuP50.toFixed(0)} µs CPU (median): the rest was waiting for a core`);
  console.log('(cpu = process CPU time, getrusage granularity; wall includes waiting for a core on a busy machine)');
}
if (sink === -1) console.log(''); // keep the work observable
