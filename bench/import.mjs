#!/usr/bin/env node
// Import throughput: 10k lessons into an empty store, through the facade and through the CLI
// (`engram import`), each batch durable before the next. Target: < 10 s for 10k. Prints numbers only.
//   node bench/import.mjs [--n 10000] [--no-cli] [--no-vectors] [--json]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadStore, syntheticLines } from './recall.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export async function benchImport({ n = 10000, cli = true, vectors = true, log = console.log } = {}) {
  const { MemoryStore } = loadStore();
  const lines = syntheticLines(n, 11);
  const rows = [];
  {
    const dir = mkdtempSync(join(tmpdir(), 'engram-bench-import-'));
    try {
      const c0 = process.cpuUsage();
      const t = performance.now();
      const store = await MemoryStore.open(dir, { vectors });
      const r = await store.importLines(lines, { batchSize: 500 });
      await store.close(); // includes writing the vector index
      const ms = performance.now() - t;
      const c = process.cpuUsage(c0);
      rows.push({ via: 'MemoryStore.importLines', n, imported: r.imported, ms, cpuMs: (c.user + c.system) / 1000, perSec: r.imported / (ms / 1000) });
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }
  const cliJs = join(repo, 'dist/cli.js');
  if (cli && existsSync(cliJs)) {
    const dir = mkdtempSync(join(tmpdir(), 'engram-bench-import-cli-'));
    try {
      const file = join(dir, 'in.jsonl');
      writeFileSync(file, lines.join('\n') + '\n');
      const t = performance.now();
      const p = spawnSync(process.execPath, [cliJs, '--store', join(dir, 'store'), 'import', file], { encoding: 'utf8' });
      const ms = performance.now() - t;
      const r = p.status === 0 ? JSON.parse(p.stdout) : { imported: 0 };
      rows.push({ via: 'engram import (CLI process)', n, imported: r.imported, ms, perSec: r.imported / (ms / 1000) });
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }
  for (const r of rows) {
    log(`import  ${r.via.padEnd(28)} ${r.imported}/${r.n} lessons in ${(r.ms / 1000).toFixed(2)} s (${Math.round(r.perSec)}/s${r.cpuMs ? `, CPU ${(r.cpuMs / 1000).toFixed(2)} s` : ''})`);
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--n');
  const rows = await benchImport({ n: i > 0 ? Number(process.argv[i + 1]) : 10000, cli: !process.argv.includes('--no-cli'), vectors: !process.argv.includes('--no-vectors') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
}
