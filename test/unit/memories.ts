// One builder for the lesson records unit tests need. Each test file used to spell out every field of a
// Lesson in its own private builder (eight copies, drifting apart as fields were added); now each states
// only what its tests care about and takes the rest from here.
import type { Lesson } from '../../src/core/types';

/** A plain observation-level lesson with empty text fields; `over` sets what the test is about. */
export function aLesson(over: Partial<Lesson> = {}): Lesson {
  return {
    id: 'l1', kind: 'lesson', owner: { scope: 'workspace' }, createdAt: 0, updatedAt: 0, accessCount: 0, importance: 0.5,
    source: 'manual', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    errorSignature: '', errorText: '', errorCategory: '', stack: [], rootCause: '', fixApproach: '', evidence: [],
    ...over,
  };
}
