#!/usr/bin/env node
// Recall quality on the labelled corpus of real tool output (bench/data/memories.jsonl + queries.jsonl,
// built by bench/data/build-corpus.mjs): hit@1 and hit@3 per query category, for Engram's recall and
// for a naive TF-IDF baseline on the same set. Model-free (hash embedder).
//   node bench/quality.mjs [--no-vectors] [--misses] [--json]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TfidfBaseline } from './baseline-tfidf.mjs';
import { loadStore } from './recall.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function readJsonl(file) {
  return readFileSync(file, 'utf8').split('\n').filter(l => l.trim()).map(l => JSON.parse(l));
}

export async function benchQuality({ vectors = true, misses = false, log = console.log } = {}) {
  const memFile = join(here, 'data/memories.jsonl');
  const qFile = join(here, 'data/queries.jsonl');
  if (!existsSync(memFile) || !existsSync(qFile)) {
    log('quality: bench/data/memories.jsonl or queries.jsonl is missing (node bench/data/build-corpus.mjs)');
    return undefined;
  }
  const memLines = readFileSync(memFile, 'utf8').split('\n').filter(l => l.trim());
  const queries = readJsonl(qFile);
  const { MemoryStore } = loadStore();
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-quality-'));
  const stats = new Map();
  const row = c => { let r = stats.get(c); if (!r) { r = { n: 0, e1: 0, e3: 0, b1: 0, b3: 0 }; stats.set(c, r); } return r; };
  const missed = [];
  try {
    const store = await MemoryStore.open(dir, { vectors });
    const rep = await store.importLines(memLines);
    if (rep.errors.length) log(`quality: ${rep.errors.length} corpus lines failed to import: ${JSON.stringify(rep.errors.slice(0, 3))}`);
    const baseline = new TfidfBaseline(memLines.map(l => JSON.parse(l)));
    for (const q of queries) {
      const got = (await store.recall({ text: q.query, file: q.file, k: 3 })).map(r => r.memory.id);
      const base = baseline.search(q.query, 3).map(r => r.id);
      for (const c of [q.category, 'all']) {
        const r = row(c);
        r.n++;
        if (got[0] === q.expect) r.e1++;
        if (got.slice(0, 3).includes(q.expect)) r.e3++;
        if (base[0] === q.expect) r.b1++;
        if (base.slice(0, 3).includes(q.expect)) r.b3++;
      }
      if (got[0] !== q.expect) missed.push({ category: q.category, expect: q.expect, got: got.slice(0, 3), query: q.query.slice(0, 140).replace(/\n/g, '⏎') });
    }
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const order = ['raw', 'noisy', 'same-file', 'twin', 'en', 'ko', 'all'];
  const cats = [...stats.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const f = x => x.toFixed(2);
  const table = ['| category | queries | Engram hit@1 | Engram hit@3 | TF-IDF hit@1 | TF-IDF hit@3 |', '|---|---:|---:|---:|---:|---:|'];
  for (const c of cats) {
    const r = stats.get(c);
    table.push(`| ${c} | ${r.n} | ${f(r.e1 / r.n)} | ${f(r.e3 / r.n)} | ${f(r.b1 / r.n)} | ${f(r.b3 / r.n)} |`);
  }
  log(`quality (${memLines.length} memories, ${queries.length} queries, vectors ${vectors ? 'hash' : 'off'})`);
  log(table.join('\n'));
  if (misses) for (const m of missed) log(`  miss [${m.category}] expect ${m.expect} got ${m.got.join(', ') || '-'}: ${m.query}`);
  return { memories: memLines.length, queries: queries.length, categories: Object.fromEntries(cats.map(c => [c, stats.get(c)])), table: table.join('\n'), missed };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchQuality({ vectors: !process.argv.includes('--no-vectors'), misses: process.argv.includes('--misses') });
  if (r && process.argv.includes('--json')) console.log(JSON.stringify(r));
}
