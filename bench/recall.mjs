#!/usr/bin/env node
// Recall latency at 1k / 10k / 50k memories, against a brute-force scan in the same run:
//   node bench/recall.mjs [--sizes 1000,10000,50000] [--queries 200] [--no-vectors] [--json]
// Uses dist/store.js (build first: node esbuild.mjs). Prints numbers; never pass/fail on timing.
// Wall-clock latency is what a user feels; CPU time per query is printed too because it is stable on a
// busy machine (a shared CI box inflates wall-clock for both sides).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

const WORDS = ('config loader parser client server cache session token request response handler router schema model view widget form field ' +
  'button table queue worker job task event stream buffer socket file path module package build bundle test fixture mock store state ' +
  'reducer action effect hook component service provider adapter factory registry plugin theme layout page route api auth user order ' +
  'invoice payment cart product price stock report chart metric log trace span').split(' ');
const TYPES = ['string', 'number', 'boolean', 'User', 'Order', 'Config', 'Props', 'State', 'Record<string, unknown>', 'Promise<void>', 'undefined', 'null'];
const PKGS = ['lodash', 'react', 'express', 'zod', 'axios', 'vitest', 'chalk', 'yaml', 'dotenv', 'pg', 'redis', 'sharp', 'uuid', 'dayjs'];
const PY = ['requests', 'numpy', 'pandas', 'yaml', 'pydantic', 'fastapi', 'sqlalchemy', 'boto3', 'pytest', 'attrs'];

const pick = (r, a) => a[Math.floor(r() * a.length)];
const ident = r => pick(r, WORDS) + pick(r, WORDS).replace(/^./, c => c.toUpperCase());

const TEMPLATES = [
  r => `src/${pick(r, WORDS)}/${ident(r)}.ts(${1 + Math.floor(r() * 300)},${1 + Math.floor(r() * 40)}): error TS2322: Type '${pick(r, TYPES)}' is not assignable to type '${pick(r, TYPES)}'.`,
  r => `src/${pick(r, WORDS)}.ts(4,20): error TS2307: Cannot find module '${pick(r, PKGS)}' or its corresponding type declarations.`,
  r => `src/${ident(r)}.ts(9,3): error TS2339: Property '${ident(r)}' does not exist on type '${pick(r, TYPES)}'.`,
  r => `src/${ident(r)}.ts(2,14): error TS7006: Parameter '${pick(r, WORDS)}' implicitly has an 'any' type.`,
  r => `TypeError: Cannot read properties of undefined (reading '${ident(r)}')\n    at ${ident(r)} (/app/src/${pick(r, WORDS)}.js:${Math.floor(r() * 200)}:${Math.floor(r() * 30)})`,
  r => `Error: Cannot find module '${pick(r, PKGS)}'\nRequire stack:\n- /app/src/${pick(r, WORDS)}.js`,
  r => `Error: listen EADDRINUSE: address already in use :::${3000 + Math.floor(r() * 20)}`,
  r => `Traceback (most recent call last):\n  File "app/${pick(r, WORDS)}.py", line ${Math.floor(r() * 90)}, in <module>\nModuleNotFoundError: No module named '${pick(r, PY)}'`,
  r => `KeyError: '${pick(r, WORDS)}_${pick(r, WORDS)}'`,
  r => `AttributeError: '${pick(r, TYPES)}' object has no attribute '${pick(r, WORDS)}'`,
  r => `error[E0382]: borrow of moved value: \`${pick(r, WORDS)}\``,
  r => `error[E0308]: mismatched types\n  --> src/${pick(r, WORDS)}.rs:${Math.floor(r() * 99)}:5`,
  r => `${pick(r, WORDS)}.c:${Math.floor(r() * 99)}:5: error: '${pick(r, WORDS)}' undeclared (first use in this function)`,
  r => `Error: EACCES: permission denied, open '/var/${pick(r, WORDS)}/${pick(r, WORDS)}.log'`,
  r => `npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree for ${pick(r, PKGS)}`,
  r => `bash: ${pick(r, WORDS)}-cli: command not found`,
];

export function syntheticLesson(i, r) {
  const t = Math.floor(r() * TEMPLATES.length);
  const scopeDepth = r();
  // A repo has a bounded set of folders (here 40 packages x 8 subfolders), not a new one per memory.
  const pkg = `packages/${WORDS[i % 40]}`;
  return {
    kind: 'lesson', id: `syn-${i}`,
    errorSignature: TEMPLATES[t](r),
    rootCause: `the ${pick(r, WORDS)} ${pick(r, WORDS)} ${ident(r)} was ${pick(r, ['stale', 'missing', 'misconfigured', 'shadowed', 'duplicated', 'not awaited'])} in ${pick(r, WORDS)}`,
    fixApproach: `${pick(r, ['update', 'move', 'rename', 'install', 'pin', 'await', 'wrap', 'validate'])} the ${pick(r, WORDS)} ${ident(r)} before ${pick(r, WORDS)}`,
    scope: scopeDepth < 0.3 ? [] : scopeDepth < 0.8 ? [`${pkg}/**`] : [`${pkg}/src/${WORDS[Math.floor(r() * 8)]}/**`],
    stack: [pick(r, ['typescript', 'node', 'python', 'rust', 'c'])],
    tags: [pick(r, WORDS)],
    createdAt: Date.UTC(2026, 0, 1) + Math.floor(r() * 150) * 86_400_000,
    template: t,
  };
}

/** `n` import lines (template index kept out of the line). */
export function syntheticLines(n, seed = 7) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < n; i++) { const { template: _t, ...m } = syntheticLesson(i, r); out.push(JSON.stringify(m)); }
  return out;
}

/** Queries that look like what users paste: the same error with other identifiers, or a question. */
export function syntheticQueries(n, seed = 99) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < n; i++) {
    const m = syntheticLesson(100000 + i, r);
    const text = r() < 0.7 ? m.errorSignature : `why does the ${pick(r, WORDS)} ${pick(r, WORDS)} fail with ${pick(r, ['cannot find module', 'permission denied', 'type not assignable', 'borrow of moved value', 'undefined property'])}`;
    out.push({ text, file: r() < 0.6 ? `packages/${WORDS[i % 40]}/src/${WORDS[Math.floor(r() * 8)]}/x.ts` : undefined });
  }
  return out;
}


export function loadStore() {
  const file = join(repo, 'dist/store.js');
  if (!existsSync(file)) { console.error('dist/store.js is missing: run `node esbuild.mjs` first'); process.exit(1); }
  return createRequire(import.meta.url)(file);
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** The baseline: score every memory by shared words (idf-weighted), no index. Same machine, same data. */
export class BruteForce {
  constructor(lines) {
    this.docs = lines.map(l => { const m = JSON.parse(l); return { id: m.id, words: new Set(words(`${m.errorSignature} ${m.rootCause} ${m.fixApproach} ${m.tags.join(' ')}`)) }; });
    const df = new Map();
    for (const d of this.docs) for (const w of d.words) df.set(w, (df.get(w) ?? 0) + 1);
    this.idf = new Map([...df].map(([w, n]) => [w, Math.log(1 + this.docs.length / n)]));
  }
  search(text, k = 5) {
    const q = [...new Set(words(text))].map(w => [w, this.idf.get(w) ?? 0]).filter(x => x[1] > 0);
    const top = [];
    for (const d of this.docs) {
      let s = 0;
      for (const [w, idf] of q) if (d.words.has(w)) s += idf;
      if (s > 0 && (top.length < k || s > top[top.length - 1].s)) {
        top.push({ id: d.id, s });
        top.sort((a, b) => b.s - a.s);
        if (top.length > k) top.pop();
      }
    }
    return top;
  }
}

function words(s) { return s.toLowerCase().split(/[^a-z0-9_]+/).filter(w => w.length > 1); }

export async function benchRecall({ sizes = [1000, 10000, 50000], queries = 200, vectors = true, log = console.log } = {}) {
  const { MemoryStore } = loadStore();
  const qs = syntheticQueries(queries);
  const rows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'engram-bench-recall-'));
    try {
      const lines = syntheticLines(n);
      let t = performance.now();
      const store = await MemoryStore.open(dir, { vectors });
      await store.importLines(lines, { batchSize: 1000 });
      const loadMs = performance.now() - t;
      for (const q of qs.slice(0, 20)) await store.recall({ text: q.text, file: q.file }); // warm-up
      const lat = [], cpu = [];
      for (const q of qs) {
        const c0 = process.cpuUsage();
        t = performance.now();
        await store.recall({ text: q.text, file: q.file });
        lat.push(performance.now() - t);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      const brute = new BruteForce(lines);
      for (const q of qs.slice(0, 20)) brute.search(q.text);
      const blat = [], bcpu = [];
      for (const q of qs) {
        const c0 = process.cpuUsage();
        t = performance.now();
        brute.search(q.text);
        blat.push(performance.now() - t);
        const c = process.cpuUsage(c0);
        bcpu.push((c.user + c.system) / 1000);
      }
      await store.close();
      const row = {
        memories: n, vectors: vectors ? store.stats().embedder : 'off',
        p50: percentile(lat, 0.5), p95: percentile(lat, 0.95), bruteP50: percentile(blat, 0.5), bruteP95: percentile(blat, 0.95), loadMs,
        cpuP50: percentile(cpu, 0.5), bruteCpuP50: percentile(bcpu, 0.5),
      };
      row.ratio = row.p50 / row.bruteP50;
      rows.push(row);
      log(`recall  ${String(n).padStart(6)} memories  p50 ${row.p50.toFixed(2)} ms  p95 ${row.p95.toFixed(2)} ms  | brute force p50 ${row.bruteP50.toFixed(2)} ms  p95 ${row.bruteP95.toFixed(2)} ms  | ratio ${row.ratio.toFixed(2)}x  | CPU p50 ${row.cpuP50.toFixed(2)} vs ${row.bruteCpuP50.toFixed(2)} ms  (load ${Math.round(loadMs)} ms, vectors ${row.vectors})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };
  const rows = await benchRecall({
    sizes: arg('--sizes', '1000,10000,50000').split(',').map(Number),
    queries: Number(arg('--queries', '200')),
    vectors: !process.argv.includes('--no-vectors'),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
}
