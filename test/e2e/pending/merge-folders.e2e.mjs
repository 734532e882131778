// Issue 17, real host: the same TS2322 fixed by the same edit in src/config.ts and then in
// packages/api/src/config.ts gives one lesson, at pattern maturity, with both episodes as evidence and a
// scope that covers both folders; no memory names build output.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { DEMO, buildOutputIn, scenarios } from '../lib/scenarios.mjs';
import { startHost } from '../lib/host.mjs';
import { KeyLog, memories, userSettings, waitFor, storeSummary, aboutError } from '../lib/user.mjs';

const ts2322 = m => m.kind === 'lesson' && aboutError(m, /TS2322/) && !m.unexplained;

// Typing at human speed on a loaded machine takes a while; the runner reads this.
export const timeoutMs = 1_500_000;

export default async function mergeFolders() {
  const load = os.loadavg().map(n => n.toFixed(1)).join(' ');
  const s = scenarios['same-fix-two-folders'];
  const host = await startHost({ workspace: DEMO, settings: userSettings, beforeOpen: ({ workspace }) => s.prepare(workspace) });
  const ctx = { keys: new KeyLog() };
  try {
    await s.play(host, ctx);
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
    console.log(`    lesson ${lesson.id}: ${lesson.maturity}, scope ${scope}, evidence ${lesson.evidence.length}\n    keys: ${JSON.stringify(ctx.keys.summary())}; load at start ${load}, at end ${os.loadavg().map(n => n.toFixed(1)).join(' ')}`);
  } catch (e) {
    await host.screenshot('merge-folders-failure').catch(() => {});
    console.log(`    store:\n${storeSummary(host.storeDir).replace(/^/gm, '      ')}`);
    throw e;
  } finally {
    await host.stop();
  }
}
