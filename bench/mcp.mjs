#!/usr/bin/env node
// `engram mcp` as an agent meets it: a real MCP client (the SDK's Client over StdioClientTransport) spawns
// `node dist/cli.js mcp` on a store of N lessons; measured are server start → first answer (spawn,
// initialize, the first `recall`), and `recall` p50/p95 over the queries that follow on the warm server.
// The baseline, in the same run on the same store and queries: one `engram recall` process per query
// (what an agent without MCP would shell out to), start to exit. Prints numbers; never passes or fails.
//   node esbuild.mjs && node bench/mcp.mjs [--sizes 0,1000,10000] [--queries 50] [--cli OTHER/cli.js] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { percentile, syntheticLines, syntheticQueries } from './recall.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const known = new Set(['--sizes', '--queries', '--json', '--cli-queries', '--cli']);
for (let i = 0; i < args.length; i++) {
  if (!known.has(args[i])) { console.error(`unknown option ${args[i]} (options: ${[...known].join(', ')})`); process.exit(2); }
  if (args[i] !== '--json') i++;
}
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const sizes = opt('--sizes', '0,1000,10000').split(',').map(Number);
const nQueries = Number(opt('--queries', '50'));
const nCliQueries = Number(opt('--cli-queries', '10'));
const asJson = args.includes('--json');
// --cli OTHER/cli.js: another build (say main's) measured the same way, for a before/after in one run.
const cli = resolve(opt('--cli', join(repo, 'dist/cli.js')));
if (!existsSync(cli)) { console.error('dist/cli.js is missing: run `node esbuild.mjs` first'); process.exit(1); }

const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;

async function measure(n) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-mcp-'));
  const store = join(dir, 'store');
  try {
    if (n > 0) {
      const file = join(dir, 'in.jsonl');
      writeFileSync(file, syntheticLines(n, 11).join('\n') + '\n');
      const p = spawnSync(process.execPath, [cli, '--store', store, 'import', file], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`import failed: ${p.stderr}`);
    }
    const queries = syntheticQueries(nQueries, 99);

    // MCP: spawn → initialize → first recall answer, then the rest on the warm server.
    const t0 = process.hrtime.bigint();
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, '--store', store, 'mcp'], stderr: 'ignore' });
    const client = new Client({ name: 'engram-bench', version: '1.0.0' });
    await client.connect(transport);
    const startToInit = ms(t0);
    const call = q => client.callTool({ name: 'recall', arguments: { query: q.text, ...(q.file ? { file: q.file } : {}), all: true } });
    const first = await call(queries[0]);
    const startToFirst = ms(t0);
    if (first.isError) throw new Error(`recall failed: ${JSON.stringify(first.content)}`);
    const times = [];
    for (const q of queries.slice(1)) {
      const t = process.hrtime.bigint();
      await call(q);
      times.push(ms(t));
    }
    await client.close();

    // Baseline: one CLI process per query, start to exit.
    const cliTimes = [];
    for (const q of queries.slice(0, nCliQueries)) {
      const t = process.hrtime.bigint();
      const p = spawnSync(process.execPath, [cli, '--store', store, 'recall', q.text, ...(q.file ? ['--file', q.file] : []), '--json'], { encoding: 'utf8' });
      cliTimes.push(ms(t));
      if (p.status !== 0) throw new Error(`engram recall failed: ${p.stderr}`);
    }
    return {
      memories: n, startToInitializeMs: startToInit, startToFirstMs: startToFirst,
      recallP50Ms: percentile(times, 0.5), recallP95Ms: percentile(times, 0.95),
      cliP50Ms: percentile(cliTimes, 0.5), cliP95Ms: percentile(cliTimes, 0.95),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const n of sizes) rows.push(await measure(n));
if (asJson) {
  console.log(JSON.stringify({ node: process.version, cpus: cpus().length, load: loadavg()[0], queries: nQueries, rows }, null, 2));
} else {
  console.log(`Node ${process.version}, ${cpus().length} CPU(s), load ${loadavg()[0].toFixed(1)}; ${nQueries} recalls per size over MCP, ${nCliQueries} \`engram recall\` processes as the baseline`);
  console.log(`CLI: ${cli}`);
  console.log('| memories | MCP start → initialize answered | MCP start → first recall answer | MCP recall p50 / p95 | `engram recall` process p50 / p95 | p95 ratio CLI / MCP |');
  console.log('|---|---|---|---|---|---|');
  const f = x => (x < 100 ? x.toFixed(1) : Math.round(x).toString());
  for (const r of rows) {
    console.log(`| ${r.memories.toLocaleString('en')} | ${f(r.startToInitializeMs)} ms | ${f(r.startToFirstMs)} ms | ${f(r.recallP50Ms)} / ${f(r.recallP95Ms)} ms | ${f(r.cliP50Ms)} / ${f(r.cliP95Ms)} ms | ×${(r.cliP95Ms / r.recallP95Ms).toFixed(0)} |`);
  }
}
