// Constraint checks: the time one check takes over one document, for the catastrophic patterns of issue 10,
// on the backtracking engine the checks used to run on (JavaScript RegExp, the baseline) and on the
// linear-time engine they run on now (RE2 through src/core/checkPattern.ts). The baseline is measured only
// on inputs small enough to finish (pass --full for the issue's own 28 characters: seconds each); RE2 also
// on inputs a thousand times larger. Prints numbers, never passes or fails on them.
//   node bench/constraints.mjs [--full] [--json]
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const full = args.includes('--full');
const asJson = args.includes('--json');

async function bundle() {
  const out = mkdtempSync(join(tmpdir(), 'engram-bench-constraints-'));
  const entry = join(out, 'entry.ts');
  writeFileSync(entry, `export * from ${JSON.stringify(join(root, 'src/core/checkPattern.ts'))};\n`);
  await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: join(out, 'bundle.cjs'), logLevel: 'error' });
  const mod = createRequire(import.meta.url)(join(out, 'bundle.cjs'));
  rmSync(out, { recursive: true, force: true });
  return mod;
}

/** Old behaviour (core/trust.ts checkMatches before this change): RegExp with g, at most 50 hits. */
function regexpMatches(pattern, text, max = 50) {
  const re = new RegExp(pattern, 'g');
  const hits = [];
  for (let m = re.exec(text); m && hits.length < max; m = re.exec(text)) {
    hits.push(m.index);
    if (m[0].length === 0) re.lastIndex++;
  }
  return hits.length;
}

function time(fn) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const hits = fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, hits };
}

const { checkMatches, compileCheck } = await bundle();
const cases = [
  { pattern: '(x+x+)+y', input: n => 'x'.repeat(n), end: 'y', baseline: full ? [16, 20, 22, 24, 28] : [16, 18, 20, 22, 24], re2: [28, 1_000, 100_000, 1_000_000] },
  { pattern: '(a|a)*b', input: n => 'a'.repeat(n), end: 'b', baseline: full ? [16, 20, 22, 24, 28] : [16, 18, 20, 22, 24], re2: [28, 1_000, 100_000, 1_000_000] },
  { pattern: '\\s*x', input: n => ' '.repeat(n), end: 'x', baseline: full ? [10_000, 20_000, 40_000, 80_000] : [5_000, 10_000, 20_000, 40_000], re2: [40_000, 400_000, 1_000_000] },
];

const rows = [];
for (const c of cases) {
  const compiled = compileCheck(c.pattern);
  if (!compiled.ok) { rows.push({ pattern: c.pattern, engine: 'RE2', n: 0, refused: compiled.error }); continue; }
  checkMatches({ pattern: c.pattern }, c.input(100)); // warm the compile cache and the JIT
  for (const n of c.baseline) rows.push({ pattern: c.pattern, engine: 'RegExp', n, ...time(() => regexpMatches(c.pattern, c.input(n))) });
  for (const n of c.re2) rows.push({ pattern: c.pattern, engine: 'RE2', n, ...time(() => checkMatches({ pattern: c.pattern }, c.input(n)).length) });
  // The worst case for RE2: the whole document is one match, found at its end (submatch extraction).
  for (const n of c.re2) rows.push({ pattern: c.pattern, engine: 'RE2, whole text matches', n, ...time(() => checkMatches({ pattern: c.pattern }, c.input(n - 1) + c.end).length) });
}

const env = { node: process.version, cpus: cpus().length, load: loadavg().map(l => l.toFixed(2)).join(' ') };
if (asJson) {
  console.log(JSON.stringify({ env, rows }, null, 2));
} else {
  console.log(`Constraint checks, one check over one document (Node ${env.node}, ${env.cpus} CPUs, load ${env.load})`);
  console.log('| pattern | engine | input chars | wall ms | cpu ms | hits |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const r of rows) {
    if (r.refused) { console.log(`| \`${r.pattern}\` | RE2 | – | refused: ${r.refused} | | |`); continue; }
    console.log(`| \`${r.pattern}\` | ${r.engine} | ${r.n.toLocaleString('en')} | ${r.ms.toFixed(2)} | ${r.cpuMs.toFixed(1)} | ${r.hits} |`);
  }
}
