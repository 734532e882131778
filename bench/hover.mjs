#!/usr/bin/env node
// The recall the hover and "Relevant now" make, at 10k memories (and 50k: does the store stay usable?).
//   node bench/hover.mjs [--sizes 10000,50000] [--queries 300] [--json]
// Prints numbers; never passes or fails on timing. Each size runs in its own process, so RSS is its own.
//
// What is measured, per size:
//   hover:    store.recall({ text: 'error TS2322: <message>', file, k: 3, owners: ['workspace'] }) and the
//             proactive gate the hover applies (src/core/recallGate.ts via src/vscode/diagnosticRecall.ts) — a cache MISS: the hover
//             usually reads a cache filled in the background, so this is the worst case a user can wait for.
//   relevant: the sidebar's "Relevant now" query (up to 5 diagnostics of the file, one per line, k: 5).
//   baseline: a brute-force scan in the same run: the diagnostic's signature key compared with every
//             memory's key, plus idf-weighted shared words over every memory (BruteForce from recall.mjs).
//   50k:      reopen time of a store on disk (replay + indexes), first recall (vector load), RSS, p50/p95.
// bench/recall.mjs measures generic recall latency (synthetic questions and errors, k 5); this one the
// editor surfaces' exact queries over memories varied from the real-tool corpus (bench/data/memories.jsonl).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BruteForce, percentile, rng } from './recall.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };

const PACKAGES = Array.from({ length: 40 }, (_, i) => `packages/p${i}`);

if (process.argv[2] !== '--child') {
  const sizes = arg('--sizes', '10000,50000').split(',').map(Number).filter(n => n > 0);
  const queries = Number(arg('--queries', '300'));
  // Bundle the current sources (packages external), like bench/index.mjs: measures the code, not a stale dist/.
  const entry = join(root, 'node_modules', '.cache', 'engram-bench', 'hoverBench.js');
  await require('esbuild').build({
    stdin: {
      contents: `export { MemoryStore } from './src/store/memoryStore';\nexport { signatureKeyOf } from './src/core/recall';\nexport { scopeMatches } from './src/core/scope';`,
      resolveDir: root, loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile: entry, logLevel: 'warning',
  });
  console.log(`hover / Relevant now bench (node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}, ${queries} queries per size)`);
  const rows = [];
  for (const n of sizes) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(n), entry, String(queries)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    const lines = (r.stdout ?? '').trim().split('\n');
    for (const l of lines) if (!l.startsWith('{')) console.log(l);
    const json = lines.find(l => l.startsWith('{'));
    if (r.status !== 0 || !json) { console.log(`  (${n} memories: child exited with ${r.status})`); continue; }
    rows.push(JSON.parse(json));
  }
  console.log(`load average at the end: ${loadavg()[0].toFixed(1)} (wall-clock numbers on a loaded machine measure the scheduler too; CPU ms are steadier)`);
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  process.exit(0);
}

// ---- child: one size ----
const n = Number(process.argv[3]);
const { MemoryStore, signatureKeyOf, scopeMatches } = require(process.argv[4]);
const nQueries = Number(process.argv[5]) || 300;
const base = readFileSync(join(root, 'bench/data/memories.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
const r = rng(20261129);

/** The diagnostic a language server would publish for this lesson's error: its error line, no path prefix. */
function diagnosticMessage(errorText) {
  const lines = errorText.split('\n').map(l => l.trim()).filter(Boolean);
  const line = lines.find(l => /\berror\b|Error:|Exception|error\[/.test(l)) ?? lines[lines.length - 1] ?? errorText;
  return line.replace(/^.*?\(\d+,\d+\):\s*/, '').replace(/^[\w./-]+:\d+(:\d+)?:\s*/, '');
}

/**
 * n lessons varied from the real corpus: each copy lives in one package of a 40-package monorepo (scope
 * rewritten under it, or unscoped), with renamed identifiers in the error so signatures spread out, and
 * its own wording of cause and fix.
 */
function variedLessons(count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const b = base[i % base.length];
    const v = Math.floor(i / base.length);
    const pkg = PACKAGES[v % PACKAGES.length];
    const rename = r() < 0.5;
    const errorSignature = rename ? b.errorSignature.replace(/'([A-Za-z_][\w.-]*)'/g, (_, id) => `'${id}${v % 7 ? v % 13 : ''}'`) : b.errorSignature;
    const scope = r() < 0.25 ? [] : (b.scope ?? []).map(g => g.startsWith('**/') ? `${pkg}/${g}` : `${pkg}/${g}`);
    out.push({
      kind: 'lesson', id: `${b.id}.v${v}`, errorSignature,
      rootCause: `${b.rootCause} (seen in ${pkg}, case ${v})`,
      fixApproach: `${b.fixApproach} ${r() < 0.3 ? `Also re-run the ${pkg.split('/')[1]} build.` : ''}`.trim(),
      scope, stack: b.stack ?? [], tags: [...(b.tags ?? []), pkg.split('/')[1]],
      createdAt: Date.UTC(2026, 0, 1) + Math.floor(r() * 300) * 86_400_000,
    });
  }
  return out;
}

function hoverQueries(lessons, count) {
  const qs = [];
  for (let i = 0; i < count; i++) {
    const m = lessons[Math.floor(r() * lessons.length)];
    const msg = diagnosticMessage(m.errorSignature);
    const pkg = m.scope[0]?.split('/').slice(0, 2).join('/') ?? PACKAGES[Math.floor(r() * PACKAGES.length)];
    const ts = /error TS(\d+):\s*(.*)$/.exec(msg);
    // diagnosticText(): "error TS<code>: message" for TypeScript, "<source> <code>: message" otherwise.
    const text = ts ? `error TS${ts[1]}: ${ts[2]}` : msg;
    const relevantLine = text; // Relevant now words each error like the hover (diagnosticText)
    qs.push({ text, relevantLine, file: `${pkg}/src/feature/file${i % 17}.ts`, expect: m.id.split('.v')[0] });
  }
  return qs;
}

const stats = xs => ({ p50: percentile(xs, 0.5), p95: percentile(xs, 0.95), p99: percentile(xs, 0.99) });
async function timeAll(items, fn) {
  for (const x of items.slice(0, 20)) await fn(x); // warm-up (JIT, first-use caches)
  const wall = [], cpu = [];
  for (const x of items) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    await fn(x);
    wall.push(performance.now() - t);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: stats(wall), cpu: stats(cpu) };
}

const mb = x => Math.round(x / 1024 / 1024);
const f = x => x.toFixed(2);
const measuring = process.argv[6] !== undefined; // [6] = store folder built by the parent child
const dir = measuring ? process.argv[6] : mkdtempSync(join(tmpdir(), 'engram-bench-hover-'));
try {
  const lessons = variedLessons(n); // deterministic: the measuring process regenerates the same lessons
  const lines = lessons.map(m => JSON.stringify(m));
  let t = performance.now();
  if (!measuring) {
    // Build the store here, then measure in a fresh process, so reopen time and RSS are a new window's.
    const writer = await MemoryStore.open(dir);
    const rep = await writer.importLines(lines, { batchSize: 1000 });
    await writer.close();
    if (rep.imported + (rep.merged ?? 0) !== n) throw new Error(`import kept ${rep.imported} of ${n}: ${JSON.stringify(rep.errors.slice(0, 3))}`);
    const importMs = performance.now() - t;
    const m = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2, 6), dir], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    if (m.status !== 0) throw new Error(`measuring process exited with ${m.status}`);
    process.stdout.write(m.stdout.replace(/"importMs":null/, `"importMs":${importMs}`).replace('import ? ms', `import ${Math.round(importMs)} ms`));
    process.exit(0);
  }
  const importMs = null;

  // Reopen from disk, as a new window would: replay the log and rebuild words and signatures.
  const rss0 = process.memoryUsage().rss;
  const c0 = process.cpuUsage();
  t = performance.now();
  const store = await MemoryStore.open(dir);
  const openMs = performance.now() - t;
  const oc = process.cpuUsage(c0);
  const openCpuMs = (oc.user + oc.system) / 1000;
  const rssOpen = process.memoryUsage().rss;
  const qs = hoverQueries(lessons, nQueries);
  t = performance.now();
  await store.recall({ text: qs[0].text, file: qs[0].file, k: 3, owners: ['workspace'] }); // loads the vector index
  const firstRecallMs = performance.now() - t;

  let hits = 0, shown = 0;
  const hover = await timeAll(qs, async q => {
    // The hover asks with the proactive gate (src/vscode/diagnosticRecall.ts), nothing filters after it.
    const res = await store.recall({ text: q.text, file: q.file, k: 3, owners: ['workspace'], proactive: true });
    shown += res.length;
    if (res.some(x => x.memory.id.split('.v')[0] === q.expect)) hits++;
  });
  const relevantQs = qs.map((q, i) => ({ file: q.file, text: [q.relevantLine, ...qs.slice(i + 1, i + 1 + (i % 5)).map(o => o.relevantLine)].join('\n') }));
  const relevant = await timeAll(relevantQs, q => store.recall({ text: q.text, file: q.file, k: 5, owners: ['workspace'], proactive: true }));
  const rssAfter = process.memoryUsage().rss;

  // Baseline: no index. Signature key of the diagnostic against every memory's key (scope-checked), then
  // every memory scored by shared words: what a naive "look through all memories" would cost.
  const memKeys = store.list().map(m => ({ id: m.id, key: m.errorSignature, scope: m.scope }));
  const brute = new BruteForce(lines);
  const baseline = await timeAll(qs, q => {
    const key = signatureKeyOf(q.text);
    const same = [];
    for (const m of memKeys) if (m.key === key && scopeMatches(m.scope, q.file)) same.push(m.id);
    return [...same.slice(0, 3), ...brute.search(q.text, 3)];
  });
  await store.close();

  const row = {
    memories: n, memoriesOpen: store.list().length, importMs, openMs, openCpuMs, firstRecallMs, rssOpenMb: mb(rssOpen), rssBeforeOpenMb: mb(rss0), rssAfterMb: mb(rssAfter),
    hover, relevant, baseline, ratioP50: hover.wall.p50 / baseline.wall.p50, ratioP95: hover.wall.p95 / baseline.wall.p95,
    hoverHitRate: hits / qs.length, shownPerHover: shown / qs.length, queries: qs.length,
  };
  console.log(`${String(n).padStart(6)} memories: import ? ms; reopen ${Math.round(openMs)} ms (CPU ${Math.round(openCpuMs)} ms); first recall (vector load) ${Math.round(firstRecallMs)} ms; RSS ${row.rssOpenMb} MB open, ${row.rssAfterMb} MB after recalls`);
  console.log(`  hover (k 3, filtered)     p50 ${f(hover.wall.p50)}  p95 ${f(hover.wall.p95)}  p99 ${f(hover.wall.p99)} ms   CPU p50 ${f(hover.cpu.p50)}  p95 ${f(hover.cpu.p95)} ms   right lesson shown ${(row.hoverHitRate * 100).toFixed(0)}%, ${row.shownPerHover.toFixed(1)} shown/hover`);
  console.log(`  Relevant now (k 5)        p50 ${f(relevant.wall.p50)}  p95 ${f(relevant.wall.p95)}  p99 ${f(relevant.wall.p99)} ms   CPU p50 ${f(relevant.cpu.p50)}  p95 ${f(relevant.cpu.p95)} ms`);
  console.log(`  brute-force baseline      p50 ${f(baseline.wall.p50)}  p95 ${f(baseline.wall.p95)}  p99 ${f(baseline.wall.p99)} ms   CPU p50 ${f(baseline.cpu.p50)}  p95 ${f(baseline.cpu.p95)} ms`);
  console.log(`  hover / baseline: p50 ${f(row.ratioP50)}x, p95 ${f(row.ratioP95)}x (below 1 = faster than scanning everything)`);
  console.log(JSON.stringify(row));
} finally {
  if (!measuring) rmSync(dir, { recursive: true, force: true });
}
