// Issue 17, real host: the same TS2322 fixed by the same edit in src/config.ts and then in
// packages/api/src/config.ts gives one lesson, at pattern maturity, with both episodes as evidence and a
// scope that covers both folders; no memory names build output.
import * as assert from 'node:assert/strict';
import { buildOutputIn } from '../lib/scenarios.mjs';
import { playScenario } from '../lib/playScenario.mjs';
import { memories, waitFor, aboutError } from '../lib/user.mjs';

const ts2322 = m => m.kind === 'lesson' && aboutError(m, /TS2322/) && !m.unexplained;

// Typing at human speed on a loaded machine takes a while; the runner reads this.
export const timeoutMs = 1_500_000;

export default async function mergeFolders() {
  await playScenario('same-fix-two-folders', 'merge-folders', async host => {
    const { storeDir } = host;
    // Both fixes are finalised when two TS2322 episodes ended with success.
    await waitFor('two TS2322 episodes stored', () => memories(storeDir).filter(m => m.kind === 'episode' && m.outcome === 'success' && aboutError(m, /TS2322/)).length >= 2);
    const lessons = await waitFor('the TS2322 lesson at pattern', () => {
      const ls = memories(storeDir).filter(ts2322);
      return ls.some(l => l.maturity === 'pattern') ? ls : undefined;
    }, { timeout: 120_000 });
    assert.equal(lessons.length, 1, `one lesson, not ${lessons.length}: ${lessons.map(l => `${l.id} ${l.maturity} ${l.scope}`).join('; ')}`);
    const [lesson] = lessons;
    assert.ok(lesson.evidence.length >= 2, `both episodes are its evidence: ${lesson.evidence}`);
    const scope = lesson.scope.join(' ');
    assert.ok(lesson.scope.some(g => /^(\*\*|src\/)/.test(g)) && lesson.scope.some(g => /^(\*\*|packages\/)/.test(g)), `scope covers both folders: ${scope}`);
    assert.deepEqual(buildOutputIn(memories(storeDir)), [], 'build output in a memory');
    return `lesson ${lesson.id}: ${lesson.maturity}, scope ${scope}, evidence ${lesson.evidence.length}`;
  });
}
