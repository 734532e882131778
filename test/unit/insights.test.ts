import * as assert from 'assert';
import { computeInsights, median, weekStart } from '../../src/core/insights';
import type { Episode, HistoryEntry, Lesson, Memory } from '../../src/core/types';

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 25, 12); // Wednesday 25 Nov 2026

function base(id: string, at: number) {
  return {
    id, owner: { scope: 'workspace' as const }, createdAt: at, updatedAt: at, accessCount: 0, importance: 0.5,
    source: 'captured' as const, tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation' as const,
  };
}
function episode(id: string, startedAt: number, outcome: Episode['outcome'], sig?: string, duration?: number): Episode {
  return { ...base(id, startedAt), kind: 'episode', startedAt, duration, trigger: `error ${sig ?? ''}`, steps: [], toolsUsed: [], outcome,
    lessonsLearned: [], files: [], sourceIds: [], summary: '', errorSignature: sig };
}
function lesson(id: string, sig: string, evidence: string[], errorText = 'TS2322: Type string is not assignable'): Lesson {
  return { ...base(id, NOW - 30 * DAY), kind: 'lesson', errorSignature: sig, errorText, errorCategory: 'type', stack: [], rootCause: 'r',
    fixApproach: 'f', evidence };
}

describe('insights aggregation', () => {
  it('weeks start on Monday UTC', () => {
    assert.strictEqual(new Date(weekStart(NOW)).toISOString(), '2026-11-23T00:00:00.000Z');
    assert.strictEqual(weekStart(Date.UTC(2026, 10, 23, 0, 0, 0)), Date.UTC(2026, 10, 23));
    assert.strictEqual(weekStart(Date.UTC(2026, 10, 22, 23, 59)), Date.UTC(2026, 10, 16));
  });

  it('median of odd, even and empty lists', () => {
    assert.strictEqual(median([5, 1, 3]), 3);
    assert.strictEqual(median([4, 1, 3, 2]), 2.5);
    assert.strictEqual(median([]), undefined);
  });

  it('counts episodes per week by outcome, with empty weeks kept and old ones left out', () => {
    const memories: Memory[] = [
      episode('e1', NOW - 1 * DAY, 'success'),
      episode('e2', NOW - 1 * DAY, 'failure'),
      episode('e3', NOW - 8 * DAY, 'success'),
      episode('e4', NOW - 400 * DAY, 'success'), // outside the window
    ];
    const r = computeInsights({ memories, history: () => [], now: NOW, weeks: 4 });
    assert.strictEqual(r.weeks.length, 4);
    assert.deepStrictEqual(r.weeks.map(w => w.counts.success + w.counts.failure), [0, 0, 1, 2]);
    assert.deepStrictEqual(r.weeks[3].counts, { success: 1, partial: 0, failure: 1, abandoned: 0 });
    assert.strictEqual(r.totals.episodes, 4);
  });

  it('ranks recurrent signatures, counting lesson evidence when episodes were cleaned up', () => {
    const memories: Memory[] = [
      episode('e1', NOW - DAY, 'success', 'tsc:TS2322:a'),
      episode('e2', NOW - DAY, 'success', 'tsc:TS2322:a'),
      episode('e3', NOW - DAY, 'success', 'node:ENOENT:b'),
      lesson('l1', 'npm:ERESOLVE:c', ['x1', 'x2', 'x3'], 'npm ERR! ERESOLVE unable to resolve dependency tree'),
    ];
    const r = computeInsights({ memories, history: () => [], now: NOW });
    assert.deepStrictEqual(r.signatures.map(s => [s.signature, s.count]), [['npm:ERESOLVE:c', 3], ['tsc:TS2322:a', 2], ['node:ENOENT:b', 1]]);
    assert.strictEqual(r.signatures[0].label, 'npm ERR! ERESOLVE unable to resolve dependency tree');
  });

  it('builds a cumulative promotion series in time order', () => {
    const l = lesson('l1', 'tsc:TS2322:a', []);
    const hist: Record<string, HistoryEntry[]> = {
      l1: [
        { type: 'recorded', source: 'captured', at: 1, detail: 'recorded (captured)' },
        { type: 'promoted', from: 'pattern', to: 'rule', reason: '3 prevented', at: 300, detail: 'promoted pattern → rule: 3 prevented' },
        { type: 'promoted', from: 'observation', to: 'pattern', reason: '2 episodes', at: 100, detail: 'promoted observation → pattern: 2 episodes' },
        { type: 'demoted', from: 'rule', to: 'pattern', reason: 'still failed', at: 400, detail: 'demoted rule → pattern: still failed' },
      ],
    };
    const r = computeInsights({ memories: [l], history: id => hist[id] ?? [], now: NOW });
    assert.deepStrictEqual(r.promotions, [{ at: 100, total: 1, to: 'pattern' }, { at: 300, total: 2, to: 'rule' }]);
  });

  it('estimates time saved as prevented outcomes × the median episode duration of the signature', () => {
    const min = 60_000;
    const memories: Memory[] = [
      episode('e1', NOW - DAY, 'success', 'tsc:TS2322:a', 10 * min),
      episode('e2', NOW - DAY, 'success', 'tsc:TS2322:a', 30 * min),
      episode('e3', NOW - DAY, 'success', 'tsc:TS2322:a', 20 * min),
      lesson('l1', 'tsc:TS2322:a', ['e1', 'e2', 'e3']),
      lesson('l2', 'node:ENOENT:b', []), // prevented, but no timed episode: counted, not estimated
    ];
    const hist: Record<string, HistoryEntry[]> = {
      l1: [
        { type: 'feedback', outcome: 'prevented', at: 1, detail: 'prevented' },
        { type: 'feedback', outcome: 'prevented', auto: true, workspace: 'ws', at: 2, detail: 'prevented (automatic) in ws' },
        { type: 'feedback', outcome: 'still_failed', at: 3, detail: 'still_failed' },
      ],
      l2: [{ type: 'feedback', outcome: 'prevented', at: 4, detail: 'prevented' }],
    };
    const r = computeInsights({ memories, history: id => hist[id] ?? [], now: NOW });
    assert.strictEqual(r.timeSaved.prevented, 3);
    assert.strictEqual(r.timeSaved.totalMs, 2 * 20 * min);
    assert.strictEqual(r.timeSaved.unestimated, 1);
    assert.deepStrictEqual(r.timeSaved.rows.map(x => [x.signature, x.prevented, x.medianMs]), [['tsc:TS2322:a', 2, 20 * min], ['node:ENOENT:b', 1, undefined]]);
  });

  it('gives empty but well-formed data for an empty store', () => {
    const r = computeInsights({ memories: [], history: () => [], now: NOW });
    assert.strictEqual(r.weeks.length, 12);
    assert.deepStrictEqual([r.signatures, r.promotions, r.timeSaved.rows], [[], [], []]);
    assert.strictEqual(r.timeSaved.totalMs, 0);
  });
});
