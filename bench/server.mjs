// The team server under load, as a team meets it: `engram serve` in its own process on PostgreSQL
// (127.0.0.1:5432 by default; a database of its own, dropped after), memories varied from the real-tool
// corpus (bench/data/memories.jsonl) spread over many tenants, then recall p50/p95/p99 over HTTP with
// concurrent clients, each on its own tenant's token. Baseline in the same run: SQLite FTS5 (the sqlite3
// shell) over the same texts and the same queries, per query inside the engine (no HTTP). The store grows
// size by size (--sizes). Numbers, never pass/fail.
//
// Loading: writes/s are measured over HTTP on a sample of each step (--http-writes memories in batches of
// 250, and 400 single writes); the rest of the step is loaded in this process through the server's own
// write layer (TeamService.recordBatch: the same parsing, masking, write plan and SQL as a request, over
// its own connection to the same database), because 100k memories over HTTP on a shared 2-core machine
// took longer than a bench may. The load average is printed at the start and with each measurement.
//
//   node esbuild.mjs && node bench/server.mjs [--sizes 10000,100000] [--tenants 100] [--clients 8]
//     [--queries 400] [--http-writes 2000] [--database postgres://…] [--keep] [--loaded-to N] [--json] [--profile DIR]
import * as esbuild from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const sizes = arg('sizes', '10000,100000').split(',').map(Number);
const tenants = Number(arg('tenants', 100));
const clients = Number(arg('clients', 8));
const nQueries = Number(arg('queries', 400));
const httpWrites = Number(arg('http-writes', 2000));
const json = process.argv.includes('--json');
const say = (...a) => { if (!json) console.log(...a); };

const require = createRequire(join(root, 'package.json'));
const pg = require('pg');
const adminUrl = arg('database', undefined);
const benchDb = `team_bench_${process.pid}`;
const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
const dbUrl = adminUrl ?? admin.replace(/\/postgres$/, `/${benchDb}`);

// The server's own modules (tokens, migrations), bundled from src like the other benches do.
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(join(root, 'node_modules/.cache', 'engram-bench-server-'));
await esbuild.build({ entryPoints: [join(root, 'src/server/serve.ts'), join(root, 'src/server/tokens.ts'), join(root, 'src/server/service.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outdir: out, logLevel: 'warning' });
const serveMod = require(join(out, 'serve.js'));
const tokensMod = require(join(out, 'tokens.js'));
const serviceMod = require(join(out, 'service.js'));

// ---- data (as bench/hover.mjs varies the corpus) ----
const base = readFileSync(join(root, 'bench/data/memories.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l)).filter(m => m.kind === 'lesson');
const PACKAGES = Array.from({ length: 40 }, (_, i) => `packages/pkg${i}`);
let seed = 20261201;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
function memoryAt(i) {
  const b = base[i % base.length];
  const v = Math.floor(i / base.length);
  const pkg = PACKAGES[v % PACKAGES.length];
  const rename = v % 2 === 1;
  const errorSignature = rename ? b.errorSignature.replace(/'([A-Za-z_][\w.-]*)'/g, (_, id) => `'${id}${v % 13}'`) : b.errorSignature;
  return {
    kind: 'lesson', id: `${b.id}.v${v}`, errorSignature,
    rootCause: `${b.rootCause} (seen in ${pkg}, case ${v})`, fixApproach: b.fixApproach,
    scope: v % 4 === 0 ? [] : (b.scope ?? []).map(g => `${pkg}/${g.replace(/^\*\*\//, '')}`), tags: [...(b.tags ?? []), `pkg${v % 40}`],
  };
}
const tenantOf = i => `t${i % tenants}`;
function diagnosticMessage(errorText) {
  const lines = errorText.split('\n').map(l => l.trim()).filter(Boolean);
  const line = lines.find(l => /\berror\b|Error:|Exception|error\[/.test(l)) ?? lines[lines.length - 1] ?? errorText;
  return line.replace(/^.*?\(\d+,\d+\):\s*/, '').replace(/^[\w./-]+:\d+(:\d+)?:\s*/, '');
}

// ---- the server ----
if (!adminUrl) {
  const c = new pg.Client({ connectionString: admin });
  await c.connect(); await c.query(`CREATE DATABASE ${benchDb}`); await c.end();
}
const log = { trace() {}, debug() {}, info() {}, warn() {}, error(m) { console.error(String(m)); } };
const db = await serveMod.openDatabase({ database: dbUrl, log });
// --profile DIR: the server's CPU profile (node --cpu-prof), written when it stops.
const profile = arg('profile', undefined);
const child = spawn(process.execPath, [...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []), join(root, 'dist/cli.js'), 'serve', '--database', dbUrl, '--port', '0', '--rate', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((resolve, reject) => {
  let err = '';
  child.stderr.on('data', d => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) resolve(m[1]); });
  child.on('exit', c => reject(new Error(`engram serve exited ${c}: ${err}`)));
});
const tokens = [];
for (let t = 0; t < tenants; t++) tokens.push((await tokensMod.createToken(db, { tenant: `t${t}`, principal: 'bench', role: 'admin' })).token);
const tokenOf = tenant => tokens[Number(tenant.slice(1))];
// The bulk loader: the server's write layer in this process (the child has made the schema by now).
const health = await (await fetch(`${url}/v1/health`)).json();
const writer = new serviceMod.TeamService({ db, vectors: health.vectors === 'pgvector' });
const bulkCaller = tenant => ({ tenant, principal: 'bench', role: 'admin' });

/** 503s the server answered (a request waited past the pool's 5 s for a connection) and reset batches, retried as a client does. */
let retried = 0;
async function post(path, token, body) {
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      res = await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    } catch (e) {
      // A kept-alive socket the server closed while this process was busy in sqlite3 (spawnSync): the
      // request never reached the server, so it is sent again on a new one.
      if (e?.cause?.code === 'UND_ERR_SOCKET' && attempt < 2) { continue; }
      // A batch reset (or its socket closed while it was being sent) while it waited past the server's
      // 60 s request timeout on an overloaded machine: its items carry their ids, so sending it again
      // stores each at most once.
      if (['ECONNRESET', 'EPIPE'].includes(e?.cause?.code) && path === '/v1/memories:batch' && attempt < 5) { retried++; continue; }
      throw e;
    }
    const text = await res.text();
    if (res.status === 503 && attempt < 5) { retried++; await new Promise(r => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1))); continue; }
    if (!res.ok) throw new Error(`${path} ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  }
}

/** Runs `jobs` on `clients` concurrent workers; per-job wall times in ms. */
async function pool(jobs, fn) {
  const times = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      const t0 = performance.now();
      await fn(jobs[i]);
      times[i] = performance.now() - t0;
    }
  }));
  return times;
}
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const r2 = x => Math.round(x * 100) / 100;

/** utime+stime of a process from /proc (clock ticks), or undefined where there is no /proc. */
function procTicks(pid) {
  try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); } catch { return undefined; }
}
const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
/** CPU used so far by the server process and by its PostgreSQL backends (the database must be on this machine). */
async function cpuTicks() {
  const server = procTicks(child.pid);
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const r = await c.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'engram-serve' AND datname = current_database()`);
  await c.end();
  const postgres = new Map();
  for (const { pid } of r.rows) { const t = procTicks(pid); if (t === undefined) return undefined; postgres.set(pid, t); }
  return server === undefined ? undefined : { server, postgres };
}

// ---- SQLite FTS5 over the same texts (the baseline) ----
const sqliteDir = mkdtempSync(join(tmpdir(), 'engram-bench-fts-'));
const sqliteDb = join(sqliteDir, 'fts.db');
const ftsQuote = s => `"${s.replace(/"/g, '""')}"`;
const sqlText = s => `'${s.replace(/'/g, "''")}'`;
function ftsLoad(from, to) {
  const lines = ['CREATE VIRTUAL TABLE IF NOT EXISTS m USING fts5(tenant UNINDEXED, id UNINDEXED, body);', 'BEGIN;'];
  for (let i = from; i < to; i++) {
    const m = memoryAt(i);
    lines.push(`INSERT INTO m VALUES (${sqlText(tenantOf(i))}, ${sqlText(m.id)}, ${sqlText([m.errorSignature, m.rootCause, m.fixApproach, m.tags.join(' ')].join('\n'))});`);
  }
  lines.push('COMMIT;');
  const r = spawnSync('sqlite3', [sqliteDb], { input: lines.join('\n'), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr);
}
function ftsQueries(queries) {
  const lines = ['.timer on', '.output /dev/null'];
  for (const q of queries) {
    const words = [...new Set(q.text.match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 48);
    lines.push(`SELECT id FROM m WHERE m MATCH ${sqlText(words.map(ftsQuote).join(' OR '))} AND tenant = ${sqlText(q.tenant)} ORDER BY rank LIMIT 5;`);
  }
  const r = spawnSync('sqlite3', [sqliteDb], { input: lines.join('\n'), encoding: 'utf8', maxBuffer: 1 << 26 });
  return [...(r.stdout + r.stderr).matchAll(/Run Time: real ([\d.]+)/g)].map(m => Number(m[1]) * 1000);
}

// ---- the run ----
const results = [];
// --loaded-to N: the database (--database, kept from an earlier run with --keep) already holds memories
// 0..N-1 of this generator, so steps up to N only measure; SQLite gets the same texts either way.
let loaded = Number(arg('loaded-to', 0));
let ftsLoaded = 0;
say(`engram serve bench: ${tenants} tenants, ${clients} concurrent clients, ${nQueries} recalls per size; ${cpus().length} CPUs, load ${loadavg().map(x => x.toFixed(1)).join(' ')}`);
try {
  for (const size of sizes) {
    // Writes: batches of 250 per tenant; the first --http-writes of the step over HTTP (timed), the rest in process.
    const batches = [];
    for (let i = loaded; i < size; ) {
      const end = Math.min(size, i + 250 * tenants);
      const byTenant = new Map();
      for (let j = i; j < end; j++) { const t = tenantOf(j); if (!byTenant.has(t)) byTenant.set(t, []); byTenant.get(t).push(memoryAt(j)); }
      for (const [t, ms] of byTenant) batches.push({ t, ms });
      i = end;
    }
    const overHttp = [];
    let httpCount = 0;
    while (batches.length && httpCount < httpWrites) { const b = batches.shift(); overHttp.push(b); httpCount += b.ms.length; }
    const w0 = performance.now();
    await pool(overHttp, b => post('/v1/memories:batch', tokenOf(b.t), { memories: b.ms }));
    const batchSecs = (performance.now() - w0) / 1000;
    const b0 = performance.now();
    // Two workers: the machine has two cores, and the server child waits idle meanwhile.
    let nextBatch = 0;
    await Promise.all([0, 1].map(async () => {
      for (let i = nextBatch++; i < batches.length; i = nextBatch++) {
        const r = await writer.recordBatch(bulkCaller(batches[i].t), { memories: batches[i].ms });
        const bad = r.results.find(x => x.error);
        if (bad) throw new Error(`bulk load: ${bad.error}`);
      }
    }));
    const bulkCount = batches.reduce((n, b) => n + b.ms.length, 0);
    const bulkSecs = (performance.now() - b0) / 1000;
    ftsLoad(ftsLoaded, size);
    ftsLoaded = size;
    loaded = Math.max(loaded, size);
    // Single writes (one memory per request, the way a window shares one), across tenants.
    const singles = Array.from({ length: 400 }, (_, i) => ({ t: tenantOf(i), m: { kind: 'fact', content: `bench single write ${size}-${i}: the ${PACKAGES[i % 40]} service reads its config from env` } }));
    const s0 = performance.now();
    const singleTimes = await pool(singles, x => post('/v1/memories', tokenOf(x.t), x.m));
    const singleSecs = (performance.now() - s0) / 1000;
    // Recall: a diagnostic's line of a stored lesson, in the lesson's package, by its tenant.
    const queries = Array.from({ length: nQueries }, () => {
      const i = Math.floor(rnd() * size);
      const m = memoryAt(i);
      const pkg = m.scope[0]?.split('/').slice(0, 2).join('/') ?? PACKAGES[i % 40];
      return { tenant: tenantOf(i), text: diagnosticMessage(m.errorSignature), file: `${pkg}/src/feature/file${i % 17}.ts`, expect: m.id };
    });
    let hits = 0;
    const warm = queries.slice(0, 20);
    await pool(warm, q => post('/v1/recall', tokenOf(q.tenant), { query: q.text, file: q.file, k: 5 }));
    const cpu0 = await cpuTicks();
    const rt = await pool(queries, async q => {
      const r = await post('/v1/recall', tokenOf(q.tenant), { query: q.text, file: q.file, k: 5 });
      if (r.results.some(x => x.id.split('.v')[0] === q.expect.split('.v')[0])) hits++;
    });
    const cpu1 = await cpuTicks();
    // CPU time per recall, which a loaded machine does not inflate as it does wall time (Linux only).
    // A backend that started meanwhile counts whole; the pool keeps its connections through the run.
    const pgTicks = cpu0 && cpu1 ? [...cpu1.postgres].reduce((n, [pid, t]) => n + t - (cpu0.postgres.get(pid) ?? 0), 0) : 0;
    const cpuMs = k => (cpu0 && cpu1 ? r2((((k === 'server' ? cpu1.server - cpu0.server : pgTicks)) * 1000 / clockTicks) / queries.length) : null);
    const fts = ftsQueries(queries);
    const loadAtRecall = loadavg().map(x => x.toFixed(1)).join(' ');
    const row = {
      memories: size, tenants, perTenant: Math.round(size / tenants),
      httpBatchWrites: httpCount, batchWritesPerSec: httpCount ? Math.round(httpCount / batchSecs) : null,
      bulkWrites: bulkCount, bulkWritesPerSec: bulkCount ? Math.round(bulkCount / bulkSecs) : null, singleWritesPerSec: Math.round(singles.length / singleSecs), singleWriteP95: r2(pct(singleTimes, 0.95)),
      recallP50: r2(pct(rt, 0.5)), recallP95: r2(pct(rt, 0.95)), recallP99: r2(pct(rt, 0.99)), variantHitAt5: r2(hits / queries.length),
      serverCpuMsPerRecall: cpuMs('server'), postgresCpuMsPerRecall: cpuMs('postgres'),
      ftsP50: r2(pct(fts, 0.5)), ftsP95: r2(pct(fts, 0.95)), loadAtRecall, retried503: retried,
    };
    retried = 0;
    results.push(row);
    say(`${size.toLocaleString('en')} memories (${row.perTenant}/tenant): batch writes over HTTP ${row.batchWritesPerSec}/s (${row.httpBatchWrites}), in-process write layer ${row.bulkWritesPerSec}/s (${row.bulkWrites}), single writes ${row.singleWritesPerSec}/s (p95 ${row.singleWriteP95} ms); ` +
      `recall over HTTP p50 ${row.recallP50} / p95 ${row.recallP95} / p99 ${row.recallP99} ms (a variant of the right lesson in the top 5: ${row.variantHitAt5}); ` +
      `CPU per recall: server ${row.serverCpuMsPerRecall} ms + PostgreSQL ${row.postgresCpuMsPerRecall} ms; SQLite FTS5 in-engine p50 ${row.ftsP50} / p95 ${row.ftsP95} ms (engram p95 / FTS5 p95 = ${r2(row.recallP95 / Math.max(0.01, row.ftsP95))}x); load average at recall ${row.loadAtRecall}; ${row.retried503} request(s) answered 503 or reset and retried`);
  }
} finally {
  child.kill('SIGTERM');
  await db.close();
  if (!adminUrl && !process.argv.includes('--keep')) {
    await new Promise(r => child.once('exit', r));
    const c = new pg.Client({ connectionString: admin });
    await c.connect(); await c.query(`DROP DATABASE IF EXISTS ${benchDb} WITH (FORCE)`); await c.end();
  }
  rmSync(sqliteDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
if (json) console.log(JSON.stringify({ tenants, clients, queries: nQueries, results }));
