#!/usr/bin/env node
// What every CLI call, `engram mcp` start and agent hook pays to open a store, at 1k / 10k / 50k / 100k
// realistic varied memories (bench/corpus.mjs: the real tool output of bench/data, varied per copy), against
// SQLite FTS5 over the same texts (python3's sqlite3, BM25; a bench-only baseline) and `node -e 0`, in one run:
//   import       `engram import` of the file into a fresh store, vs building the FTS5 table
//   cold recall  one `engram recall` process (open + first recall, start to exit: wall, CPU, peak RSS),
//                vs one python process connecting and running one FTS5 query; median of --runs queries
//   warm recall  p50 / p95 of recalls on an open store in one process, vs FTS5 queries on one connection
//   MCP          `engram mcp` spawned by a real MCP client: start → first `recall` answer
// With --baseline OTHER/dist/cli.js (e.g. a worktree of main, built), the same cold recall and MCP start on
// the same stores by that CLI, for a before/after in the same run (--baseline-import up to N memories also
// times its import). Prints numbers; never passes or fails.
//   node esbuild.mjs && node bench/open.mjs [--sizes 1000,10000,50000,100000] [--runs 3] [--queries 40]
//        [--baseline DIR/dist/cli.js] [--baseline-import 10000] [--reuse N] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lessonText, recallQueries, variedLessons } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const cli = resolve(opt('--cli', join(root, 'dist/cli.js')));
const usageHook = pathToFileURL(join(here, 'lib/usage.mjs')).href;
const fts = join(here, 'lib/fts5.py');
const cache = join(root, 'node_modules/.cache/engram-bench/open');

/** Runs a command with fd 3 as a pipe for its usage report; wall from spawn to exit. */
function run(cmd, argv, { node = false } = {}) {
  const full = node ? ['--import', usageHook, ...argv] : argv;
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, full, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.slice(0, 3).join(' ')} … exited ${r.status}: ${(r.stderr || '').slice(0, 400)}`);
  let usage = {};
  try { usage = JSON.parse(r.output[3] || '{}'); } catch { /* no report */ }
  return { wallMs, ...usage, stdout: r.stdout };
}

const median = xs => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN; };
const med = rows => ({ wallMs: median(rows.map(r => r.wallMs)), cpuMs: median(rows.map(r => r.cpuMs)), rssMb: Math.max(...rows.map(r => r.rssMb ?? 0)) });

async function main() {
  const sizes = opt('--sizes', '1000,10000,50000,100000').split(',').map(Number).filter(n => n > 0);
  const runs = Math.max(1, Number(opt('--runs', '3')));
  const nWarm = Math.max(5, Number(opt('--queries', '40')));
  const baseline = opt('--baseline') ? resolve(opt('--baseline')) : undefined;
  const baselineImport = Number(opt('--baseline-import', '10000'));
  const reuseUpTo = Number(opt('--reuse', '0'));
  if (!existsSync(cli)) { console.error(`${cli} is missing: run \`node esbuild.mjs\` first`); process.exit(1); }
  if (baseline && !existsSync(baseline)) { console.error(`${baseline} is missing`); process.exit(1); }
  mkdirSync(cache, { recursive: true });
  console.log(`store open bench (node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}; median of ${runs} cold processes, ${nWarm} warm queries)`);
  const nodeE0 = med(Array.from({ length: runs }, () => run(process.execPath, ['-e', '0'], { node: true })));
  console.log(`  node -e 0: ${nodeE0.wallMs.toFixed(0)} ms wall, ${nodeE0.cpuMs.toFixed(0)} ms CPU, ${nodeE0.rssMb.toFixed(0)} MB`);
  const rows = [];
  for (const n of sizes) {
    const lessons = variedLessons(n);
    const file = join(cache, `lessons-${n}.jsonl`);
    const texts = join(cache, `texts-${n}.jsonl`);
    const qfile = join(cache, `queries-${n}.jsonl`);
    writeFileSync(file, lessons.map(m => JSON.stringify(m)).join('\n') + '\n');
    writeFileSync(texts, lessons.map(m => JSON.stringify({ id: m.id, text: lessonText(m) })).join('\n') + '\n');
    const queries = recallQueries(lessons, Math.max(runs, nWarm), 7 + n);
    writeFileSync(qfile, queries.map(q => JSON.stringify(q)).join('\n') + '\n');
    const store = join(cache, `store-${n}`);
    const db = join(cache, `fts-${n}.db`);
    const row = { n, nodeE0 };

    // --reuse N: sizes up to N keep the store and table an earlier run built from the same lessons (the
    // import is then not timed: an import of 100k on a busy 2-core machine takes most of an hour).
    const built = join(cache, `built-${n}.txt`);
    const reuse = n <= reuseUpTo && existsSync(built) && readFileSync(built, 'utf8') === String(lessons.length) && existsSync(store) && existsSync(db);
    if (reuse) {
      row.import = row.ftsBuild = { wallMs: NaN, cpuMs: NaN, rssMb: NaN };
    } else {
      rmSync(store, { recursive: true, force: true });
      rmSync(built, { force: true });
      row.import = run(process.execPath, [cli, '--store', store, 'import', file], { node: true });
      row.ftsBuild = run('python3', [fts, 'build', db, texts]);
      writeFileSync(built, String(lessons.length));
    }
    if (baseline && n <= baselineImport) {
      const other = join(cache, `store-${n}-baseline`);
      rmSync(other, { recursive: true, force: true });
      row.baselineImport = run(process.execPath, [baseline, '--store', other, 'import', file], { node: true });
      rmSync(other, { recursive: true, force: true });
    }

    const recall = (c, q) => run(process.execPath, [c, '--store', store, 'recall', q.text, '--file', q.file, '--json'], { node: true });
    const cold = [], ftsCold = [], baseCold = [];
    for (let i = 0; i < runs; i++) {
      cold.push(recall(cli, queries[i]));
      ftsCold.push(run('python3', [fts, 'query', db, queries[i].text]));
      if (baseline) baseCold.push(recall(baseline, queries[i]));
    }
    row.cold = med(cold);
    row.hit = cold.map(c => resultsOf(JSON.parse(c.stdout))).filter((res, i) => res.some(x => x.id === queries[i].expect)).length / runs;
    row.ftsCold = med(ftsCold);
    if (baseline) row.baselineCold = med(baseCold);

    const warm = run(process.execPath, [fileURLToPath(import.meta.url), '--child-warm', join(dirname(cli), 'store.js'), store, qfile], { node: true });
    row.warm = JSON.parse(warm.stdout);
    const ftsWarm = run('python3', [fts, 'warm', db, qfile]);
    row.ftsWarm = { p50: pct(ftsWarm.times, 0.5), p95: pct(ftsWarm.times, 0.95) };

    row.mcp = await mcpFirstAnswer(cli, store, queries[0]);
    if (baseline) row.baselineMcp = await mcpFirstAnswer(baseline, store, queries[0]);
    rows.push(row);
    printRow(row, baseline);
  }
  console.log(`load average at the end: ${loadavg()[0].toFixed(1)} (CPU ms are steadier than wall-clock on a busy machine)`);
  printTable(rows, !!baseline);
  if (args.includes('--json')) console.log(JSON.stringify(rows.map(r => ({ ...r, import: strip(r.import), ftsBuild: strip(r.ftsBuild), baselineImport: strip(r.baselineImport) }))));
}

/** recall --json: {query, results} now, a bare array before. */
function resultsOf(out) { return Array.isArray(out) ? out : out.results ?? []; }

function strip(r) { if (!r) return r; const { stdout: _, ...rest } = r; return rest; }

function printRow(r, baseline) {
  const f = x => (x === undefined || Number.isNaN(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(0));
  console.log(`  ${r.n} memories`);
  console.log(`    import        ${f(r.import.wallMs)} ms wall, ${f(r.import.cpuMs)} ms CPU, ${f(r.import.rssMb)} MB peak | FTS5 build ${f(r.ftsBuild.wallMs)} ms wall, ${f(r.ftsBuild.cpuMs)} ms CPU` +
    (r.baselineImport ? ` | baseline import ${f(r.baselineImport.wallMs)} ms wall, ${f(r.baselineImport.cpuMs)} ms CPU` : ''));
  console.log(`    cold recall   ${f(r.cold.wallMs)} ms wall, ${f(r.cold.cpuMs)} ms CPU, ${f(r.cold.rssMb)} MB peak (right lesson in ${Math.round(r.hit * 100)}%) | FTS5 ${f(r.ftsCold.wallMs)} ms wall, ${f(r.ftsCold.cpuMs)} ms CPU, ${f(r.ftsCold.rssMb)} MB` +
    (baseline ? ` | baseline ${f(r.baselineCold.wallMs)} ms wall, ${f(r.baselineCold.cpuMs)} ms CPU, ${f(r.baselineCold.rssMb)} MB` : ''));
  console.log(`    warm recall   p50 ${f(r.warm.p50)} ms, p95 ${f(r.warm.p95)} ms (open ${f(r.warm.openMs)} ms) | FTS5 p50 ${f(r.ftsWarm.p50)} ms, p95 ${f(r.ftsWarm.p95)} ms`);
  console.log(`    MCP           start → first answer ${f(r.mcp)} ms${baseline ? ` | baseline ${f(r.baselineMcp)} ms` : ''}`);
}

function printTable(rows, baseline) {
  const f = x => (x === undefined || Number.isNaN(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(0));
  const x = (a, b) => (b ? `${(a / b).toFixed(2)}×` : 'n/a');
  console.log('\n| memories | cold recall wall / CPU / peak RSS | FTS5 cold | cold / FTS5 | warm p95 / FTS5 p95 | import / FTS5 build (wall) | MCP first answer |' + (baseline ? ' baseline cold | baseline MCP |' : ''));
  console.log('|---:|---|---|---:|---|---|---:|' + (baseline ? '---|---:|' : ''));
  for (const r of rows) {
    console.log(`| ${r.n.toLocaleString('en')} | ${f(r.cold.wallMs)} ms / ${f(r.cold.cpuMs)} ms / ${f(r.cold.rssMb)} MB | ${f(r.ftsCold.wallMs)} ms | ${x(r.cold.wallMs, r.ftsCold.wallMs)} | ${f(r.warm.p95)} / ${f(r.ftsWarm.p95)} ms (${x(r.warm.p95, r.ftsWarm.p95)}) | ` +
      `${f(r.import.wallMs / 1000)} s / ${f(r.ftsBuild.wallMs / 1000)} s (${x(r.import.wallMs, r.ftsBuild.wallMs)}) | ${f(r.mcp)} ms |` +
      (baseline ? ` ${f(r.baselineCold.wallMs)} ms / ${f(r.baselineCold.cpuMs)} ms / ${f(r.baselineCold.rssMb)} MB | ${f(r.baselineMcp)} ms |` : ''));
  }
  console.log(`(node -e 0: ${f(rows[0]?.nodeE0.wallMs)} ms wall, ${f(rows[0]?.nodeE0.cpuMs)} ms CPU, ${f(rows[0]?.nodeE0.rssMb)} MB)`);
}

/** Spawn → initialize → the first recall's answer, through the SDK's client (as an agent starts it). */
async function mcpFirstAnswer(cliPath, store, q) {
  const require = createRequire(join(root, 'package.json'));
  const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
  const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
  const t0 = process.hrtime.bigint();
  const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, '--store', store, 'mcp'], stderr: 'ignore' });
  const client = new Client({ name: 'engram-open-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
    const r = await client.callTool({ name: 'recall', arguments: { query: q.text, file: q.file, all: true } }, undefined, { timeout: 600_000 });
    if (r.isError) throw new Error(`recall failed: ${JSON.stringify(r.content).slice(0, 200)}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** One process: open the store, a warm-up pass, then every query timed. Prints {openMs, p50, p95}. */
async function warmChild(storeJs, store, qfile) {
  const { MemoryStore } = createRequire(import.meta.url)(storeJs);
  const qs = readFileSync(qfile, 'utf8').trim().split('\n').map(l => JSON.parse(l));
  let t = performance.now();
  const s = await MemoryStore.open(store, { readOnly: true });
  const openMs = performance.now() - t;
  for (const q of qs) await s.recall({ text: q.text, file: q.file });
  const times = [];
  for (const q of qs) {
    t = performance.now();
    await s.recall({ text: q.text, file: q.file });
    times.push(performance.now() - t);
  }
  await s.close();
  console.log(JSON.stringify({ openMs, p50: pct(times, 0.5), p95: pct(times, 0.95) }));
}

// Last, so every const above is initialised before it runs.
if (args[0] === '--child-warm') await warmChild(args[1], args[2], args[3]);
else await main();
