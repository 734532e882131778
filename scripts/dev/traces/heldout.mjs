// The held-out split of the trace corpus: traces (and the recall queries that belong to them) that are
// measured, never tuned on. Chosen at random, reproducibly, and per trace, so adding traces never moves
// one that is already placed:
//   u = the first 8 hex digits of sha256(`${SEED}:${unit}`) / 2^32, held out when u < RATE,
// where unit is the trace's mergeGroup when it has one (a group is never split between train and
// held-out) and its name otherwise. The 33 traces that existed before issue 17 are always train: the
// lesson writer was built against them, so they cannot measure how it generalises.
// make-traces.mjs writes the result to test/fixtures/traces/heldout.json; test/unit/traces.test.ts
// recomputes it, so the committed list cannot drift from the rule by hand.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SEED = 1717;
export const RATE = 0.45;

/** The corpus as it was when the writer was tuned on it (issues up to 16): train, always. */
export const TUNED_ON = [
  'eslint-no-floating-promises', 'eslint-no-unused-vars', 'gcc-implicit-declaration', 'gcc-undefined-reference-makefile',
  'git-identity-config', 'javac-cannot-find-symbol-import', 'javac-cannot-find-symbol-method', 'jest-cart-total-tax',
  'jest-slugify-agent-fix', 'node-cjs-cannot-find-module', 'node-esm-missing-extension', 'node-typeerror-undefined-prop',
  'npm-eresolve-legacy-peer-deps', 'npm-script-missing-config', 'py-helpers-touch-import', 'py-nameerror-missing-import',
  'py-pip-requests-app', 'py-pip-requests-fetch', 'py-pip-requests-worker', 'pytest-bulk-discount', 'rust-e0308-cargo-build',
  'rust-e0382-use-after-move', 'rust-e0502-diag-and-build', 'ts-npm-install-zod', 'ts-paths-alias', 'ts-unexplained-clear',
  'ts2307-relative-path-typo', 'ts2322-with-import', 'ts2339-missing-property', 'ts2345-number-to-string',
  'ts2554-agent-disk-fix', 'ts7006-implicit-any', 'vitest-parse-duration',
];

export const draw = unit => Number.parseInt(createHash('sha256').update(`${SEED}:${unit}`).digest('hex').slice(0, 8), 16) / 2 ** 32;

/**
 * @param {Record<string, { mergeGroup?: string }>} labels trace name -> label
 * @returns {string[]} the held-out trace names, sorted
 */
export function heldOut(labels) {
  const tuned = new Set(TUNED_ON);
  return Object.keys(labels).filter(n => !tuned.has(n) && draw(labels[n].mergeGroup ?? n) < RATE).sort();
}

export function heldOutFile(labels) {
  return {
    note: 'Held out: measured by bench/lessons.mjs, never tuned on. Do not read these traces, their labels or their recall queries while changing the capture pipeline or the lesson writer, and do not run the bench with --held-out-details while doing so.',
    method: `sha256("${SEED}:" + unit), first 8 hex digits / 2^32 < ${RATE}; unit = the label's mergeGroup, else the trace name; the ${TUNED_ON.length} traces that existed before issue 17 are always train. Queries belong to the split of the trace they name (expect, or of for near misses); queries that name no trace are train.`,
    seed: SEED,
    rate: RATE,
    traces: heldOut(labels),
  };
}

/** The labels in a corpus folder, by trace name. */
export function readLabels(dir) {
  return Object.fromEntries(readdirSync(dir).filter(f => f.endsWith('.label.json')).sort()
    .map(f => [f.slice(0, -'.label.json'.length), JSON.parse(readFileSync(join(dir, f), 'utf8'))]));
}

// `node scripts/dev/traces/heldout.mjs [DIR]` prints what heldout.json must hold for the labels in DIR.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'traces');
  process.stdout.write(JSON.stringify(heldOutFile(readLabels(dir)), null, 2) + '\n');
}
