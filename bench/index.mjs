// Benchmark of the store's derived vector index and event log. Prints numbers; never passes or fails.
//   node bench/index.mjs [N ...]        (default: 10000 50000; each size runs in its own process)
// Measures, per N: event-log append + open (replay), index rebuild with HashEmbedder (embed + Vectra
// write), index open from disk, RSS, and query time of our brute-force Float32Array scan vs Vectra's own
// LocalIndex.queryItems on the same index folder in the same run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const QUERIES = 100;

if (process.argv[2] !== '--child') {
  const sizes = process.argv.slice(2).map(Number).filter(n => n > 0);
  const esbuild = require('esbuild');
  // Bundle the store sources the way esbuild.mjs does (packages external), so this measures current code.
  const entry = join(root, 'node_modules', '.cache', 'engram-bench', 'storeBench.js'); // out/ may be wiped by test builds
  await esbuild.build({
    stdin: {
      contents: `export { VectorIndex } from './src/store/vectorIndex';
export { HashEmbedder } from './src/store/hashEmbedder';
export { EventLog } from './src/store/eventLog';
export { MemoryState } from './src/core/reduce';`,
      resolveDir: root, loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile: entry, logLevel: 'warning',
  });
  console.log(`store bench (node ${process.version}, ${QUERIES} queries per size; timings vary with machine load)`);
  for (const n of sizes.length ? sizes : [10_000, 50_000]) {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', String(n), entry], { stdio: 'inherit' });
    if (r.status !== 0) console.log(`  (N=${n} exited with ${r.status})`);
  }
  process.exit(0);
}

// ---- child: one size ----
const n = Number(process.argv[3]);
const { VectorIndex, HashEmbedder, EventLog, MemoryState } = require(process.argv[4]);
const { LocalIndex } = require('vectra');

const mb = bytes => `${(bytes / 1048576).toFixed(0)} MB`;
const ms = t => `${t.toFixed(0)} ms`;
const rss = () => { global.gc?.(); return process.memoryUsage().rss; };
const time = async fn => { const t = performance.now(); const v = await fn(); return [performance.now() - t, v]; };
/** CPU time (user+system, ms) of fn: on a busy machine wall time mostly measures the scheduler. */
const cpu = async fn => { const c = process.cpuUsage(); await fn(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };

const TEMPLATES = [
  i => `TS2322: Type 'string' is not assignable to type 'number' in src/module${i % 97}/file${i}.ts`,
  i => `Error: Cannot find module 'pkg-${i % 211}' imported from packages/app${i % 13}/index.js`,
  i => `TypeError: Cannot read properties of undefined (reading 'field${i % 53}') at handler${i}`,
  i => `npm ERR! code ERESOLVE unable to resolve dependency tree for react@${i % 19}`,
  i => `ETIMEDOUT connect to registry${i % 7}.example.com timed out after ${i % 60} s`,
  i => `빌드 실패: 모듈 '${i % 31}'을 찾을 수 없습니다 (패키지 설치 필요)`,
  i => `rustc E0382: borrow of moved value: \`buf${i % 41}\` in crate${i % 5}`,
];
const text = i => `${TEMPLATES[i % TEMPLATES.length](i)} — fix ${i % 17}: rerun with clean cache`;
const memory = i => ({
  id: `m_${String(i).padStart(8, '0')}`, kind: 'fact', type: 'fact', content: text(i), owner: { scope: 'workspace' },
  createdAt: 1, updatedAt: 1, accessCount: 0, importance: 0.5, source: 'imported', tags: [], scope: [],
  confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
});

const dir = mkdtempSync(join(tmpdir(), `engram-bench-${n}-`));
const base = rss();
console.log(`\nN = ${n}`);

// Event log: append in batches of 500 (like an import), then open = full replay.
const log = await EventLog.open(dir);
await log.readAll();
const [tAppend] = await time(async () => {
  for (let i = 0; i < n; i += 500) {
    const evs = [];
    for (let j = i; j < Math.min(n, i + 500); j++) evs.push({ type: 'recorded', id: memory(j).id, at: 1, memory: memory(j) });
    await log.append(evs);
  }
});
const [tReplay, state] = await time(async () => {
  const l = await EventLog.open(dir);
  const r = await l.readAll();
  const s = new MemoryState();
  s.applyAll(r.events);
  return s;
});
const [tCompact] = await time(() => log.compact(state));
const [tOpenSnap] = await time(async () => { const l = await EventLog.open(dir); const s = new MemoryState(); s.applyAll((await l.readAll()).events); });
console.log(`  event log: append ${ms(tAppend)} (batches of 500, fsync each) | open+replay log ${ms(tReplay)} | compact ${ms(tCompact)} | open from snapshot ${ms(tOpenSnap)} | snapshot ${mb(statSync(join(dir, 'snapshot.json')).size)}`);

const items = state.all().map(m => ({ id: m.id, text: m.content, hash: '1' }));
const emb = new HashEmbedder();
const [tEmbed] = await time(() => emb.embed(items.map(i => i.text)));
const folder = join(dir, 'index');
const [tRebuild] = await time(async () => { const vi = await VectorIndex.open(folder); await vi.sync(items, emb); });
console.log(`  HashEmbedder: embed all ${ms(tEmbed)} | index rebuild (embed + Vectra write) ${ms(tRebuild)} | index.json ${mb(statSync(join(folder, 'index.json')).size)}`);

const before = rss();
const [tOpen, vi] = await time(async () => { const v = await VectorIndex.open(folder); await v.sync(items, emb); return v; });
const afterOpen = rss();
console.log(`  index open from disk (Vectra load -> Float32Array matrix, hash check): ${ms(tOpen)} | RSS +${mb(afterOpen - before)} (total ${mb(afterOpen)}, process base ${mb(base)})`);

const queries = await emb.embed(Array.from({ length: QUERIES }, (_, i) => text(i * 7919 + 3)));
const [tScan] = await time(async () => { for (const q of queries) vi.search(q, 10); });
const cScan = await cpu(async () => { for (const q of queries) vi.search(q, 10); });
const vectra = new LocalIndex(folder);
const [tVectraLoad] = await time(() => vectra.listItems());
const afterVectra = rss();
const qArrays = queries.map(q => Array.from(q));
const [tVectra] = await time(async () => { for (const q of qArrays) await vectra.queryItems(q, '', 10); });
const cVectra = await cpu(async () => { for (const q of qArrays) await vectra.queryItems(q, '', 10); });
// Same answers? Compare the top hit ids.
let same = 0;
for (let i = 0; i < QUERIES; i++) {
  const a = vi.search(queries[i], 1)[0]?.id;
  const b = (await vectra.queryItems(qArrays[i], '', 1))[0]?.item.id;
  if (a === b) same++;
}
const f = x => (x / QUERIES).toFixed(2);
console.log(`  query top-10 per query: brute-force scan ${f(tScan)} ms wall / ${f(cScan)} ms CPU | Vectra queryItems ${f(tVectra)} ms wall / ${f(cVectra)} ms CPU (+ ${ms(tVectraLoad)} first load, RSS +${mb(afterVectra - afterOpen)})`);
console.log(`  Vectra/scan ratio: ${(tVectra / tScan).toFixed(1)}x wall, ${(cVectra / cScan).toFixed(1)}x CPU | same top hit ${same}/${QUERIES}`);

rmSync(dir, { recursive: true, force: true });
