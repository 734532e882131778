#!/usr/bin/env node
// Store open time at 10k / 50k memories, each in a fresh process (what the extension host pays when it
// first needs the store): total open, the share spent building the BM25 word index, and RSS.
//   node bench/open.mjs [--sizes 10000,50000] [--runs 3] [--rebuild] [--src DIR] [--json]
// --src bundles another checkout's sources (e.g. a `git worktree` of the previous commit) against the same
// stores, for a before/after comparison.
// Bundles the current sources (packages external), like bench/hover.mjs, so it measures the code and not
// a stale dist/. Stores are built once into node_modules/.cache/engram-bench/open-<n> and reused, so a
// before/after comparison opens the very same log (--rebuild makes them again). Prints numbers; never
// pass/fail on timing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticLines } from './recall.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };
const cacheDir = join(root, 'node_modules', '.cache', 'engram-bench');
const entry = join(cacheDir, 'openBench.js');

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();

async function main() {
  const sizes = arg('--sizes', '10000,50000').split(',').map(Number).filter(n => n > 0);
  const runs = Math.max(1, Number(arg('--runs', '3')));
  mkdirSync(cacheDir, { recursive: true });
  await require('esbuild').build({
    stdin: {
      contents: `export { MemoryStore } from './src/store/memoryStore';\nexport { Bm25Index, tokenize } from './src/core/lexical';\nexport { memoryText } from './src/core/memoryText';`,
      resolveDir: arg('--src', root), loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile: entry, logLevel: 'warning',
  });
  console.log(`store open bench (node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}, best of ${runs} fresh processes)`);
  const rows = [];
  for (const n of sizes) {
    const dir = join(cacheDir, `open-${n}`);
    if (process.argv.includes('--rebuild') || !existsSync(join(dir, '.built'))) {
      rmSync(dir, { recursive: true, force: true });
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', 'build', `${n}:${dir}`], { stdio: ['ignore', 'inherit', 'inherit'] });
      if (r.status !== 0) { console.log(`  (${n}: building the store failed)`); continue; }
    }
    let best;
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', 'open', dir], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
      const json = (r.stdout ?? '').trim().split('\n').find(l => l.startsWith('{'));
      if (r.status !== 0 || !json) { console.log(`  (${n}: child exited with ${r.status})`); continue; }
      const row = JSON.parse(json);
      if (!best || row.openCpuMs < best.openCpuMs) best = row;
    }
    if (!best) continue;
    rows.push(best);
    const pct = (100 * best.lexicalCpuMs / best.openCpuMs).toFixed(0);
    console.log(`  ${String(best.n).padStart(6)} memories: open ${best.openMs.toFixed(0)} ms wall / ${best.openCpuMs.toFixed(0)} ms CPU; ` +
      `lexical build alone ${best.lexicalCpuMs.toFixed(0)} ms CPU (~${pct}% of open; tokenize ${best.tokenizeCpuMs.toFixed(0)} ms); ` +
      `module load ${best.loadMs.toFixed(0)} ms; RSS after open ${best.rssMb.toFixed(0)} MB (heap ${best.heapMb.toFixed(0)} MB)`);
  }
  console.log(`load average at the end: ${loadavg()[0].toFixed(1)} (CPU ms are steadier than wall-clock on a busy machine)`);
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
}

function cpuMs(start) { const u = process.cpuUsage(start); return (u.user + u.system) / 1000; }

async function child(mode, spec) {
  if (mode === 'build') {
    const [n, dir] = [Number(spec.split(':')[0]), spec.slice(spec.indexOf(':') + 1)];
    const { MemoryStore } = require(entry);
    mkdirSync(dir, { recursive: true });
    const store = await MemoryStore.open(dir, { vectors: false });
    const rep = await store.importLines(syntheticLines(n));
    if (rep.errors.length) console.error(`open bench: ${rep.errors.length} synthetic lines failed to import`);
    await store.close();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, '.built'), String(n));
    return;
  }
  const dir = spec;
  const t0 = performance.now();
  const mod = require(entry);
  const loadMs = performance.now() - t0;
  const w0 = performance.now();
  const c0 = process.cpuUsage();
  const store = await mod.MemoryStore.open(dir, { vectors: false });
  const openCpuMs = cpuMs(c0);
  const openMs = performance.now() - w0;
  const mem = process.memoryUsage();
  const memories = store.list({ includeQuarantined: true });
  // The lexical build on its own, over the same memories, in the same (warm) process: an upper bound of
  // its share in open, since the first build also paid for JIT warm-up.
  const texts = memories.map(m => mod.memoryText(m));
  globalThis.gc?.();
  let c = process.cpuUsage();
  for (const t of texts) mod.tokenize(t);
  const tokenizeCpuMs = cpuMs(c);
  globalThis.gc?.();
  c = process.cpuUsage();
  const idx = new mod.Bm25Index();
  for (let i = 0; i < memories.length; i++) idx.add(memories[i].id, texts[i]);
  const lexicalCpuMs = cpuMs(c);
  await store.close();
  console.log(JSON.stringify({
    n: memories.length, openMs, openCpuMs, loadMs, lexicalCpuMs, tokenizeCpuMs,
    rssMb: mem.rss / 2 ** 20, heapMb: mem.heapUsed / 2 ** 20,
  }));
}
