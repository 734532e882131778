#!/usr/bin/env node
// Lessons in an agent's words (a test's key line, the first error line, a one-line summary) against the
// raw tool output they came from, on the labelled set of test/fixtures/recall/agentPairs.ts (traces and
// tool-output fixtures, split into train and held-out by its committed rule): hit@1 when asked (MCP
// recall with all: true) and unasked (the proactive gate, MCP recall's default), related queries answered
// and near misses left quiet, for the current sources and those of --base REF (default main) in the same
// run. Numbers only; --misses lists train misses (held-out ones are never shown).
//   node bench/agent-recall.mjs [--base REF] [--misses] [--json]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };
const HARNESS = 'test/fixtures/recall/agentPairs.ts';
const traces = join(root, 'test', 'fixtures', 'traces');
const base = arg('--base', 'main');

async function load(tree, outfile) {
  await require('esbuild').build({
    entryPoints: [join(tree, HARNESS)], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outfile, logLevel: 'error', absWorkingDir: root, nodePaths: [join(root, 'node_modules')],
  });
  return require(outfile);
}

const work = mkdtempSync(join(tmpdir(), 'engram-agent-recall-'));
const rows = [];
try {
  const trees = [['now', root]];
  try {
    const old = join(work, 'base');
    mkdirSync(join(old, dirname(HARNESS)), { recursive: true });
    execFileSync('sh', ['-c', `git -C "${root}" archive "${base}" src | tar -x -C "${old}"`], { stdio: ['ignore', 'ignore', 'pipe'] });
    copyFileSync(join(root, HARNESS), join(old, HARNESS));
    trees.unshift([`before (${base})`, old]);
  } catch (e) { console.log(`(no baseline: ${String(e.message ?? e).split('\n')[0]})`); }
  for (const [name, tree] of trees) {
    const h = await load(tree, join(work, `${rows.length}.cjs`));
    for (const wording of ['key line', 'summary']) rows.push({ name, ...(await h.scoreAgentPairs(traces, wording)) });
  }
} finally { rmSync(work, { recursive: true, force: true }); }

if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
else {
  const t = rows[0]?.train, h = rows[0]?.heldout;
  console.log(`Agent-worded lessons vs the raw output they came from (real tool output: ${t?.pairs}+${h?.pairs} pairs, ${t?.related}+${h?.related} related and ${t?.nearMisses}+${h?.nearMisses} near-miss queries, train+held-out)\n`);
  console.log('| sources | lesson worded as | split | hit@1 asked (all: true) | hit@1 unasked (proactive gate) | related hit@1 unasked | near misses quiet |');
  console.log('|---|---|---|---:|---:|---:|---:|');
  for (const r of rows) {
    for (const split of ['train', 'heldout']) {
      const s = r[split];
      console.log(`| ${r.name} | ${r.wording} | ${split} | ${s.hit1.toFixed(2)} | ${s.strongHit1.toFixed(2)} | ${s.relatedHit1.toFixed(2)} | ${s.quiet.toFixed(2)} |`);
    }
  }
  // Train only: held-out misses are never printed (they would be tuned on).
  if (process.argv.includes('--misses')) for (const r of rows) console.log(`\n${r.name}, ${r.wording} (train):\n  ${r.misses.join('\n  ')}`);
}
