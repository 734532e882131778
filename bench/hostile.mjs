// Hostile captured output (test/fixtures/hostile.ts): how the time of extraction, signatures and masking
// grows with the input. Each input is run at 1x (the size the unit tests use) and 4x; the ratio of the two
// times is ~4 for linear work and ~16 for quadratic. The baseline, measured in the same run on the same
// inputs, is a plain linear pass (split into lines + one indexOf per line), so its ratio shows what "linear"
// looks like on this machine right now. Prints numbers; never passes or fails on them.
//   node bench/hostile.mjs [--scale 4] [--json]
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const scaleAt = args.indexOf('--scale');
const big = scaleAt >= 0 ? Number(args[scaleAt + 1]) : 4;
if (!(big > 1)) { console.error('--scale must be a number above 1'); process.exit(2); }
const known = new Set(['--json', '--scale']);
const unknown = args.filter((a, i) => a.startsWith('--') && !known.has(a) && args[i - 1] !== '--scale');
if (unknown.length) { console.error(`unknown option ${unknown[0]}`); process.exit(2); }

async function bundle() {
  const out = mkdtempSync(join(tmpdir(), 'engram-bench-hostile-'));
  try {
    const entry = join(out, 'entry.ts');
    writeFileSync(entry, [
      `export { extractErrors } from ${JSON.stringify(join(root, 'src/core/extract.ts'))};`,
      `export { maskSecrets } from ${JSON.stringify(join(root, 'src/core/mask.ts'))};`,
      `export { signatureOf, normaliseSignature } from ${JSON.stringify(join(root, 'src/core/signature.ts'))};`,
      `export { hostileInputs } from ${JSON.stringify(join(root, 'test/fixtures/hostile.ts'))};`,
    ].join('\n'));
    await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: join(out, 'bundle.cjs'), logLevel: 'error' });
    return createRequire(import.meta.url)(join(out, 'bundle.cjs'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Median CPU milliseconds of `runs` calls (CPU time stays steady on a shared machine). */
function cpuMs(fn, runs = 3) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const m = await bundle();
const baseline = text => { let hits = 0; for (const line of text.split('\n')) if (line.indexOf('error') >= 0) hits++; return hits; };
const work = {
  'linear pass (baseline)': baseline,
  extractErrors: text => m.extractErrors(text),
  signatureOf: text => m.signatureOf(text),
  maskSecrets: text => m.maskSecrets(text),
  normaliseSignature: text => m.normaliseSignature(text.slice(0, 100000)),
};
const small = m.hostileInputs(1);
const large = m.hostileInputs(big);
const rows = [];
for (let i = 0; i < small.length; i++) {
  for (const [fn, run] of Object.entries(work)) {
    const a = cpuMs(() => run(small[i].input));
    const b = cpuMs(() => run(large[i].input));
    rows.push({ input: small[i].name, fn, chars: [small[i].input.length, large[i].input.length], cpuMs: [a, b], ratio: a > 0.05 ? b / a : null });
  }
}
if (asJson) {
  console.log(JSON.stringify({ node: process.version, cpus: cpus().length, load: loadavg()[0], scale: big, rows }, null, 2));
} else {
  const f = x => (x === null ? '  n/a' : x.toFixed(1).padStart(5));
  console.log(`Node ${process.version}, ${cpus().length} CPU(s), load ${loadavg()[0].toFixed(1)}; CPU ms at 1x and ${big}x, ratio (linear ≈ ${big}, quadratic ≈ ${big * big}; n/a below 0.05 ms)`);
  let last = '';
  for (const r of rows) {
    if (r.input !== last) { console.log(`\n${r.input} (${r.chars[0]} → ${r.chars[1]} chars)`); last = r.input; }
    console.log(`  ${r.fn.padEnd(24)} ${r.cpuMs[0].toFixed(2).padStart(8)} ${r.cpuMs[1].toFixed(2).padStart(9)}  ×${f(r.ratio)}`);
  }
  const worst = rows.filter(r => r.ratio !== null && !r.fn.startsWith('linear')).sort((a, b) => b.ratio - a.ratio)[0];
  const base = rows.filter(r => r.ratio !== null && r.fn.startsWith('linear')).map(r => r.ratio);
  if (worst) console.log(`\nworst ratio: ${worst.fn} on "${worst.input}" ×${worst.ratio.toFixed(1)}; baseline ratios ×${Math.min(...base).toFixed(1)}–×${Math.max(...base).toFixed(1)}`);
}
