// Issue 17, real host: a step that turns an error into a different one resolved the first. `npm run
// build` fails with `tsc: not found`; `npm install --save-dev typescript` (typed in the terminal); the
// build then fails with TS2322. The first lesson says the install resolved it and the build then failed
// with TS2322, linked to the next episode; it never says "did not fix it". Then the line is fixed and the
// second lesson is written; no lesson names build output (tsc's outDir) or the lockfile's contents.
import * as assert from 'node:assert/strict';
import { buildOutputIn } from './lib/scenarios.mjs';
import { playScenario } from './lib/playScenario.mjs';
import { memories, waitFor, errorOf, aboutError } from './lib/user.mjs';

// Typing at human speed on a loaded machine takes a while; the runner reads this.
export const timeoutMs = 1_500_000;

export default async function changedError() {
  await playScenario('tsc-not-found-then-ts2322', 'changed-error', async host => {
    const { first } = await check(host.storeDir);
    return `first: ${first.fixApproach}`;
  });
}

/** What the store must hold once the session is over (exported: it can be run on a kept run's store). */
export async function check(storeDir) {
  const first = await waitFor('the lesson of `tsc: not found`', () => memories(storeDir).find(m => m.kind === 'lesson' && /tsc: not found/.test(errorOf(m))));
  const second = await waitFor('the lesson of TS2322', () => memories(storeDir).find(m => m.kind === 'lesson' && aboutError(m, /TS2322/)));
  const said = `${first.rootCause}\n${first.fixApproach}`;
  assert.match(first.fixApproach, /npm install --save-dev typescript/, `the install is the fix: ${said}`);
  assert.match(said, /then failed with[^\n]*TS2322/, `the lesson links the next error: ${said}`);
  assert.doesNotMatch(said, /did not fix|not resolved/i, `a false claim: ${said}`);
  const episodes = memories(storeDir).filter(m => m.kind === 'episode');
  const ep1 = episodes.find(e => first.evidence.includes(e.id));
  assert.ok(ep1, `the first lesson's episode (${first.evidence}) is stored`);
  const ep2 = episodes.find(e => second.evidence.includes(e.id));
  assert.ok(ep2, `the second lesson's episode (${second.evidence}) is stored`);
  assert.equal(ep1.nextEpisodeId, ep2.id, 'the first episode links the TS2322 episode');
  assert.match(second.fixApproach + (second.change ?? ''), /Number\(process\.env\.PORT \?\? 8080\)/, 'the second lesson carries the edit');
  assert.deepEqual(buildOutputIn(memories(storeDir)), [], 'build output in a memory');
  assert.doesNotMatch(JSON.stringify(first), /"integrity"|"resolved":/, 'the lockfile diff is in the lesson');
  return { first, second };
}
