#!/usr/bin/env node
// `engram replay` of one long recorded session, against a plain linear pass over the same trace (read it,
// parse every line, look at its type) in the same run: at each size the time per event should stay flat
// (linear), and the replay within a small factor of the plain pass. The session is the 33 real traces of
// test/fixtures/traces played one after another (files renamed per copy, times shifted, the `end` lines
// dropped so it stays one session) until it holds N events. Between sizes it prints the step exponent of
// the replay's CPU (1.0: linear; issue 19 measured 1.3 per event from 6k to 100k). With --baseline
// OTHER/dist/cli.js the same trace is replayed by that CLI too, in the same run, for a before/after.
// Prints numbers; never passes or fails.
//   node esbuild.mjs && node bench/replay.mjs [--sizes 25000,50000,100000] [--cli OTHER/dist/cli.js]
//        [--baseline OTHER/dist/cli.js] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const usageHook = pathToFileURL(join(here, 'lib/usage.mjs')).href;
const cache = join(root, 'node_modules/.cache/engram-bench/replay');

if (args[0] === '--child-pass') { plainPass(args[1]); process.exit(0); }

/** The plain linear pass: every line read, parsed and looked at once. */
function plainPass(file) {
  const counts = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line);
    counts[e.type] = (counts[e.type] ?? 0) + 1;
  }
  process.stdout.write(JSON.stringify(counts));
}

/** One session of `n` events from the real traces, copy after copy. */
function session(n) {
  const dir = join(root, 'test/fixtures/traces');
  // Traces only: each has its label beside it (queries.jsonl there is a query set, whose lines are no events).
  const traces = readdirSync(dir).filter(f => f.endsWith('.jsonl') && existsSync(join(dir, f.replace(/\.jsonl$/, '.label.json')))).sort()
    .map(f => readFileSync(join(dir, f), 'utf8').trim().split('\n').map(l => JSON.parse(l)).filter(e => e.type !== 'end'));
  const out = [];
  let t0 = 0;
  for (let copy = 0; out.length < n; copy++) {
    const trace = traces[copy % traces.length];
    const prefix = `packages/p${copy % 40}/c${copy}/`;
    let last = 0;
    for (const e of trace) {
      if (out.length >= n) break;
      const ev = { ...e, t: t0 + e.t };
      if (typeof ev.file === 'string') ev.file = prefix + ev.file;
      if (ev.type === 'command' && typeof ev.cwd === 'string') ev.cwd = prefix + ev.cwd;
      out.push(JSON.stringify(ev));
      last = Math.max(last, e.t);
    }
    t0 += last + 60_000; // a minute between copies: each is its own episode
  }
  return out.join('\n') + '\n';
}

function run(argv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', usageHook, ...argv], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.slice(0, 3).join(' ')} exited ${r.status}: ${(r.stderr || '').slice(0, 400)}`);
  return { wallMs, ...JSON.parse(r.output[3] || '{}'), stdout: r.stdout };
}

const sizes = opt('--sizes', '25000,50000,100000').split(',').map(Number).filter(x => x > 0);
const cli = resolve(opt('--cli', join(root, 'dist/cli.js')));
const baseline = opt('--baseline') ? resolve(opt('--baseline')) : undefined;
mkdirSync(cache, { recursive: true });
console.log(`replay bench (node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}; ${cli}${baseline ? ` vs ${baseline}` : ''})`);

/** One replay of `file` into a fresh store by `which`, with what it stored. */
function replayOnce(which, file, store) {
  rmSync(store, { recursive: true, force: true });
  const r = run([which, '--store', store, 'replay', file, '--json']);
  const report = JSON.parse(r.stdout);
  rmSync(store, { recursive: true, force: true });
  return { ms: r.wallMs, cpuMs: r.cpuMs, rssMb: r.rssMb, episodes: report.episodes.length, lessons: report.lessons.length };
}

const rows = [];
for (const n of sizes) {
  const file = join(cache, `session-${n}.jsonl`);
  writeFileSync(file, session(n));
  const pass = run([fileURLToPath(import.meta.url), '--child-pass', file]);
  const replay = replayOnce(cli, file, join(cache, `store-${n}`));
  // A CLI that cannot replay it (main's read the whole trace and refused one over 64 MB) is reported, not fatal.
  let base, baseError;
  try { base = baseline ? replayOnce(baseline, file, join(cache, `store-${n}-baseline`)) : undefined; } catch (e) { baseError = e.message.slice(0, 300); }
  const row = { events: n, passMs: pass.wallMs, passCpuMs: pass.cpuMs, replayMs: replay.ms, replayCpuMs: replay.cpuMs, replayRssMb: replay.rssMb, episodes: replay.episodes, lessons: replay.lessons,
    ...(base ? { baselineMs: base.ms, baselineCpuMs: base.cpuMs, baselineRssMb: base.rssMb, baselineEpisodes: base.episodes, baselineLessons: base.lessons } : {}) };
  const prev = rows.at(-1);
  rows.push(row);
  const step = prev ? ` | step exponent ${(Math.log(row.replayCpuMs / prev.replayCpuMs) / Math.log(n / prev.events)).toFixed(2)} (CPU, from ${prev.events})` : '';
  console.log(`  ${n} events: replay ${row.replayMs.toFixed(0)} ms wall, ${row.replayCpuMs.toFixed(0)} ms CPU (${(1000 * row.replayCpuMs / n).toFixed(0)} µs CPU per event), ` +
    `${row.replayRssMb.toFixed(0)} MB peak, ${row.episodes} episodes, ${row.lessons} lessons | plain pass ${row.passMs.toFixed(0)} ms wall, ${row.passCpuMs.toFixed(0)} ms CPU | ` +
    `replay / plain pass ${(row.replayMs / row.passMs).toFixed(1)}× wall, ${(row.replayCpuMs / row.passCpuMs).toFixed(1)}× CPU${step}`);
  if (baseError) console.log(`    baseline failed: ${baseError}`);
  if (base) {
    console.log(`    baseline: ${base.ms.toFixed(0)} ms wall, ${base.cpuMs.toFixed(0)} ms CPU, ${base.rssMb.toFixed(0)} MB peak, ${base.episodes} episodes, ${base.lessons} lessons | ` +
      `baseline / plain pass ${(base.ms / row.passMs).toFixed(1)}× wall, ${(base.cpuMs / row.passCpuMs).toFixed(1)}× CPU`);
  }
}
console.log(`load average at the end: ${loadavg()[0].toFixed(1)}`);
if (args.includes('--json')) console.log(JSON.stringify(rows));
