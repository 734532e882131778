#!/usr/bin/env node
// Proactive recall quality on the calibration set (test/fixtures/recall: real tool output, 28 errors a
// stored lesson answers, 28 that nothing stored answers): false-alarm rate (something shown for an error
// no memory is about) and hit@1, for the proactive gate next to the behaviour before it, measured in the
// same run:
//   before  = the sources of --base REF (default: main), with the hover's old filter (same signature,
//             or score >= 0.45, k 3);
//   gate off = the current ranking with that same old filter;
//   gate    = the current ranking with RecallQuery.proactive (src/core/recallGate.ts).
//   node bench/recall-quality.mjs [--base REF] [--misses] [--json]
// Bundles the sources with esbuild (no build needed). Numbers only, never pass/fail (the unit test
// test/unit/recallGate.test.ts holds the thresholds).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const require = createRequire(join(root, 'package.json'));
const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };
const CALIBRATE = 'test/fixtures/recall/calibrate.ts';
const fixtures = join(root, 'test', 'fixtures', 'recall');

/** Bundles calibrate.ts of a source tree (the working tree, or an extracted git revision). */
async function load(tree, outfile) {
  await require('esbuild').build({
    entryPoints: [join(tree, CALIBRATE)], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    // Packages bundled too (the output lives in a temp folder); an extracted tree finds them in ours.
    outfile, logLevel: 'error', absWorkingDir: root, nodePaths: [join(root, 'node_modules')],
  });
  return require(outfile);
}

export async function benchRecallQuality({ base = 'main', log = console.log } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'engram-recall-quality-'));
  try {
    const current = await load(root, join(work, 'current.cjs'));
    const rows = [];
    // The old tree gets today's harness (it only reads the set and calls recall; `proactive` is ignored there).
    let before;
    try {
      const old = join(work, 'base');
      mkdirSync(old, { recursive: true });
      execFileSync('sh', ['-c', `git -C "${root}" archive "${base}" src | tar -x -C "${old}"`], { stdio: ['ignore', 'ignore', 'pipe'] });
      mkdirSync(join(old, dirname(CALIBRATE)), { recursive: true });
      copyFileSync(join(root, CALIBRATE), join(old, CALIBRATE));
      before = await load(old, join(work, 'base.cjs'));
    } catch (e) {
      log(`(no baseline: cannot read sources of ${base}: ${String(e.message ?? e).split('\n')[0]})`);
    }
    // Two query forms: the whole tool output (terminal, CLI) and the one line a diagnostic carries (hover).
    for (const form of ['output', 'line']) {
      if (before) rows.push({ name: `before (${base}): hover filter`, ...(await before.calibrate('old-filter', fixtures, form)) });
      rows.push({ name: 'now, gate off: hover filter', ...(await current.calibrate('old-filter', fixtures, form)) });
      rows.push({ name: 'now, proactive gate', ...(await current.calibrate('gate', fixtures, form)) });
    }
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function table(rows) {
  const pct = x => `${(x * 100).toFixed(0)}%`;
  const shownPer = r => {
    const none = r.outcomes.filter(o => o.expect === null);
    return (none.reduce((n, o) => n + o.shown.length, 0) / Math.max(1, none.length)).toFixed(2);
  };
  const lines = [
    '| query | behaviour | false alarms (no-answer queries) | quiet | memories shown per no-answer query | hit@1 (answerable) |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of rows) lines.push(`| ${r.form === 'line' ? 'error line' : 'tool output'} | ${r.name} | ${pct(r.falseAlarm)} | ${pct(r.quiet)} | ${shownPer(r)} | ${r.hit1.toFixed(2)} |`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchRecallQuality({ base: arg('--base', 'main') });
  const n = rows[rows.length - 1];
  console.log(`Proactive recall on the calibration set (${n.answerable} answerable, ${n.noAnswer} with no right answer; real tool output)\n`);
  console.log(table(rows));
  if (process.argv.includes('--misses')) {
    for (const r of rows) {
      console.log(`\n${r.name} (${r.form}):`);
      for (const o of r.outcomes) {
        const ok = o.expect ? o.shown[0]?.id === o.expect : !o.shown.length;
        if (!ok) console.log(`  ${o.from} (expect ${o.expect ?? 'nothing'}): ${o.shown.map(s => `${s.id} ${s.score} [${s.why.join('; ')}]`).join(' || ') || 'nothing'}`);
      }
    }
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows.map(({ outcomes, ...r }) => r)));
}

export { table as recallQualityTable };
