#!/usr/bin/env node
// Runs every benchmark and prints a markdown summary for the README. Numbers only, never pass/fail.
//   node bench/run-all.mjs [--quick]      (npm run bench builds dist/ first)
// --quick: 1k/10k recall sizes, 100 queries, 5k import (for a busy machine).
import { cpus, loadavg } from 'node:os';
import { benchImport } from './import.mjs';
import { benchQuality } from './quality.mjs';
import { benchRecall } from './recall.mjs';
import { benchRecallQuality, recallQualityTable } from './recall-quality.mjs';

const quick = process.argv.includes('--quick');
const quiet = () => {};
const out = [];
const f2 = x => x.toFixed(2);

console.error('quality…');
const q = await benchQuality({ log: quiet });
console.error('proactive recall quality…');
const rq = await benchRecallQuality({ log: s => console.error(s) });
console.error('recall latency…');
const recall = await benchRecall({ sizes: quick ? [1000, 10000] : [1000, 10000, 50000], queries: quick ? 100 : 200, log: s => console.error(s) });
console.error('import throughput…');
const imp = await benchImport({ n: quick ? 5000 : 10000, log: s => console.error(s) });

out.push(`## Benchmarks (model-free: signatures + BM25 + hash embedder)`);
out.push('');
out.push(`Node ${process.version}, ${cpus().length} CPU(s), load average ${loadavg()[0].toFixed(1)} at the end of the run.`);
out.push('');
if (q) {
  out.push(`### Recall quality (${q.memories} memories from real tool output, ${q.queries} labelled queries)`);
  out.push('');
  out.push(q.table);
  out.push('');
  out.push('TF-IDF = naive baseline: cosine over each memory\'s whole text, no signature normalisation, no scope.');
  out.push('');
}
out.push(`### Proactive recall: quiet when nothing stored answers (${rq[rq.length - 1].answerable} answerable errors, ${rq[rq.length - 1].noAnswer} with no right answer, real tool output)`);
out.push('');
out.push(recallQualityTable(rq));
out.push('');
out.push('### Recall latency (synthetic lessons, scoped queries, k = 5)');
out.push('');
out.push('| memories | p50 ms | p95 ms | brute-force p50 ms | brute-force p95 ms | p50 ratio | CPU p50 ms (recall / brute force) |');
out.push('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of recall) out.push(`| ${r.memories} | ${f2(r.p50)} | ${f2(r.p95)} | ${f2(r.bruteP50)} | ${f2(r.bruteP95)} | ${f2(r.ratio)}x | ${f2(r.cpuP50)} / ${f2(r.bruteCpuP50)} |`);
out.push('');
out.push('Brute force = scoring every memory by shared words on each query (no index, no signatures, no scope).');
out.push('');
out.push('### Import throughput');
out.push('');
out.push('| via | lessons | seconds | lessons/s |');
out.push('|---|---:|---:|---:|');
for (const r of imp) out.push(`| ${r.via} | ${r.imported} | ${f2(r.ms / 1000)} | ${Math.round(r.perSec)} |`);
console.log(out.join('\n'));

// The standalone benches print their own tables; run each in a fresh process (open time and RSS need
// one) after the summary above. --quick skips them.
if (!quick) {
  const { spawnSync } = await import('node:child_process');
  for (const name of ['lessons', 'capture', 'hover', 'activation', 'open', 'index']) {
    console.log(`\n### bench/${name}.mjs\n`);
    const r = spawnSync(process.execPath, [new URL(`./${name}.mjs`, import.meta.url).pathname], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) console.log(`(bench/${name}.mjs exited with ${r.status ?? r.signal})`);
  }
}
