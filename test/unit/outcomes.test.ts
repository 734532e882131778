// The user's word wins (issue 17): automatic outcomes only for a memory about the episode's error, none
// for a recurrence the user judged, and a verdict right after an automatic outcome replaces it, so one
// recurrence counts once in the memory's confidence, its per-workspace tally and Insights alike.
import * as assert from 'assert';
import { appliesTo, OutcomeLedger, SAME_RECURRENCE_MS } from '../../src/core/capture/outcomeLedger';
import { historyEntry } from '../../src/core/history';
import { computeInsights } from '../../src/core/insights';
import { memorySignatures } from '../../src/core/memoryText';
import { foldEvent } from '../../src/core/reduce';
import type { FeedbackOutcome, HistoryEntry, Memory, MemoryEvent } from '../../src/core/types';
import { planFeedback, type StoreView } from '../../src/core/writePlan';
import { aLesson } from './memories';

const TS2322 = 'tsc:TS2322:type <id> is not assignable to type <id>';
const TS2353 = 'tsc:TS2353:object literal may only specify known properties';

function view(...memories: Memory[]): StoreView {
  const byId = new Map(memories.map(m => [m.id, m]));
  return { get: id => byId.get(id), has: id => byId.has(id), isTombstoned: () => false, all: () => [...byId.values()], idsWithSignature: key => memories.filter(m => memorySignatures(m).includes(key)).map(m => m.id) };
}

/** A memory after a list of feedback writes, each planned on the memory as it then was; and its history. */
function feedbackRun(m: Memory, writes: { outcome: FeedbackOutcome; auto?: boolean; replaces?: FeedbackOutcome }[]): { memory: Memory; history: HistoryEntry[] } {
  let cur = m;
  const history: HistoryEntry[] = [];
  writes.forEach((w, i) => {
    for (const ev of planFeedback(view(cur), cur, w.outcome, { auto: w.auto, replaces: w.replaces }, { now: 1000 + i, workspace: 'wsA' })) {
      history.push(historyEntry(ev));
      cur = foldEvent(cur, ev as Exclude<MemoryEvent, { type: 'recorded' | 'deleted' | 'expired' }>) ?? cur;
    }
  });
  return { memory: cur, history };
}

describe('outcomes: the user word wins', () => {
  it('an automatic outcome applies only to a memory about the episode error', () => {
    const m = aLesson({ errorSignature: TS2322 });
    assert.ok(appliesTo(m, TS2322));
    assert.ok(!appliesTo(m, TS2353), 'a TS2353 fixed next to it says nothing about a TS2322 lesson');
    assert.ok(!appliesTo(m, undefined));
    assert.ok(!appliesTo(undefined, TS2322));
    assert.ok(appliesTo(aLesson({ errorSignature: TS2353, variantSignatures: [TS2322] }), TS2322), 'an error its episode met is its own too');
  });

  it('a memory the user judged during the episode is no candidate for its automatic outcome; one judged before it is', () => {
    const ledger = new OutcomeLedger();
    ledger.noteShown(['judged', 'other'], 'src/config.ts', 1000);
    ledger.userVerdict('judged', 'still_failed', 2000);
    assert.deepStrictEqual(ledger.candidates(500, 'src/config.ts'), ['other']);
    assert.ok(ledger.userJudgedSince('judged', 500));
    // A new recurrence that starts after the verdict: the verdict was about the last one.
    ledger.noteShown(['judged'], 'src/config.ts', 5000);
    assert.deepStrictEqual(ledger.candidates(4000, 'src/config.ts'), ['judged']);
    assert.deepStrictEqual(ledger.candidates(500, 'src/other.ts'), [], 'shown for another file');
  });

  it('a verdict soon after an automatic outcome replaces it, once; a later one stands on its own', () => {
    const ledger = new OutcomeLedger();
    ledger.recordedAutomatic('m', 'prevented', 10_000);
    assert.strictEqual(ledger.userVerdict('m', 'prevented', 20_000), 'prevented');
    assert.strictEqual(ledger.userVerdict('m', 'still_failed', 21_000), undefined, 'already replaced');
    ledger.recordedAutomatic('n', 'prevented', 10_000);
    assert.strictEqual(ledger.userVerdict('n', 'prevented', 10_000 + SAME_RECURRENCE_MS + 1), undefined, 'another recurrence by then');
  });

  it('Helpful + the automatic prevented of the same recurrence count one prevented, in confidence, tally and Insights', () => {
    const lesson = aLesson({ id: 'l', errorSignature: TS2322, owner: { scope: 'workspace', workspace: 'wsA' } });
    const { memory, history } = feedbackRun(lesson, [{ outcome: 'prevented', auto: true }, { outcome: 'prevented', replaces: 'prevented' }]);
    assert.deepStrictEqual(memory.confidence, { alpha: 2, beta: 1 });
    assert.deepStrictEqual(memory.kind === 'lesson' && memory.perWorkspace?.wsA, { prevented: 1, stillFailed: 0 });
    assert.match(history[1].detail, /^prevented in wsA \(replaces the automatic prevented\)/);
    const insights = computeInsights({ memories: [memory], history: () => history, now: 5000 });
    assert.strictEqual(insights.timeSaved.prevented, 1);
  });

  it("Didn't help after an automatic prevented: the recurrence counts as still_failed only", () => {
    const lesson = aLesson({ id: 'l', errorSignature: TS2322, owner: { scope: 'workspace', workspace: 'wsA' } });
    const { memory, history } = feedbackRun(lesson, [{ outcome: 'prevented', auto: true }, { outcome: 'still_failed', replaces: 'prevented' }]);
    assert.deepStrictEqual(memory.confidence, { alpha: 1, beta: 2 });
    assert.deepStrictEqual(memory.kind === 'lesson' && memory.perWorkspace?.wsA, { prevented: 0, stillFailed: 1 });
    const insights = computeInsights({ memories: [memory], history: () => history, now: 5000 });
    assert.strictEqual(insights.timeSaved.prevented, 0);
    assert.deepStrictEqual(insights.timeSaved.rows, []);
  });

  it('an automatic outcome never replaces anything', () => {
    const lesson = aLesson({ id: 'l', errorSignature: TS2322 });
    const [ev] = planFeedback(view(lesson), lesson, 'prevented', { auto: true, replaces: 'still_failed' }, { now: 1, workspace: 'wsA' });
    assert.ok(ev.type === 'feedback' && ev.replaces === undefined);
  });
});
