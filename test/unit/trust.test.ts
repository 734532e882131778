import * as assert from 'assert';
import { MemoryState } from '../../src/core/reduce';
import type { FeedbackOutcome, Lesson, MemoryEvent } from '../../src/core/types';
import { workspaceIdOf } from '../../src/core/workspaceId';
import {
  PRIOR, RULE_MIN_LOWER_BOUND, PATTERN_MIN_EVIDENCE, REVALIDATION_MIN_GAP_MS,
  mean, lowerBound, update, effectiveConfidence, evaluatePromotion, evaluateDemotion, isDuplicateLesson,
  planManualPromotion, planManualDemotion, workspaceEvidence,
} from '../../src/core/trust';
import { checkMatches, validateCheck } from '../../src/core/checkPattern';
import { aLesson } from './memories';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5);

function lesson(over: Partial<Lesson> = {}): Lesson {
  return aLesson({
    owner: { scope: 'workspace', workspace: 'wsA' }, createdAt: T0, updatedAt: T0, source: 'captured', confidence: { ...PRIOR },
    errorSignature: 'tsc:TS2307:cannot find module <str>', errorText: "Cannot find module 'x'", errorCategory: 'module',
    stack: ['typescript'], rootCause: 'path alias missing in tsconfig', fixApproach: 'add the paths entry to tsconfig.json',
    evidence: ['ep1'], ...over,
  });
}

/** Folds feedback through the real reducer, as the store does. */
function withFeedback(m: Lesson, outcomes: ('prevented' | 'still_failed')[], workspace?: string): Lesson {
  const s = new MemoryState();
  const evs: MemoryEvent[] = [{ type: 'recorded', id: m.id, at: T0, memory: m }];
  outcomes.forEach((o, i) => evs.push({ type: 'feedback', id: m.id, at: T0 + i, outcome: o, workspace }));
  s.applyAll(evs);
  return s.get(m.id) as Lesson;
}

describe('trust: Beta posterior', () => {
  it('starts from a weak (1,1) prior with mean one half', () => {
    assert.deepStrictEqual(PRIOR, { alpha: 1, beta: 1 });
    assert.strictEqual(mean(PRIOR), 0.5);
  });

  it('moves the mean up on prevented and down on still_failed', () => {
    const up = update(PRIOR, 'prevented');
    const down = update(PRIOR, 'still_failed');
    assert.deepStrictEqual(up, { alpha: 2, beta: 1 });
    assert.deepStrictEqual(down, { alpha: 1, beta: 2 });
    assert.ok(mean(up) > 0.5 && mean(down) < 0.5);
  });

  it('lower bound grows with evidence at the same mean', () => {
    assert.ok(lowerBound({ alpha: 8, beta: 2 }) > lowerBound({ alpha: 4, beta: 1 }));
    assert.ok(lowerBound({ alpha: 40, beta: 10 }) > lowerBound({ alpha: 8, beta: 2 }));
    assert.ok(lowerBound({ alpha: 4, beta: 1 }) < mean({ alpha: 4, beta: 1 }));
  });

  it('two lucky outcomes stay below the rule threshold; three clean ones reach it', () => {
    const two = update(update(PRIOR, 'prevented'), 'prevented');
    assert.ok(lowerBound(two) < RULE_MIN_LOWER_BOUND, `lb(2 prevented) = ${lowerBound(two)}`);
    const three = update(two, 'prevented');
    assert.ok(lowerBound(three) >= RULE_MIN_LOWER_BOUND, `lb(3 prevented) = ${lowerBound(three)}`);
    const mixed = update(three, 'still_failed');
    assert.ok(lowerBound(mixed) < RULE_MIN_LOWER_BOUND, 'one failure among four pulls it back under');
  });

  it('stays in [0,1]', () => {
    assert.strictEqual(lowerBound({ alpha: 1, beta: 500 }), 0);
    assert.ok(lowerBound({ alpha: 10_000, beta: 1 }) <= 1);
  });
});

describe('trust: observation → pattern', () => {
  it('promotes once the same lesson has been seen twice (evidence, not a copy)', () => {
    const m = lesson({ evidence: ['ep1', 'ep2'] });
    assert.strictEqual(PATTERN_MIN_EVIDENCE, 2);
    const t = evaluatePromotion(m, { now: T0 });
    assert.strictEqual(t?.to, 'pattern');
    assert.strictEqual(t?.kind, 'promoted');
    assert.match(t!.reason, /2 times/);
  });

  it('does not promote a single observation, however many prevented outcomes it has', () => {
    const m = withFeedback(lesson({ evidence: ['ep1'] }), ['prevented', 'prevented', 'prevented', 'prevented']);
    assert.strictEqual(evaluatePromotion(m, { now: T0 + 30 * DAY, outcome: 'prevented', workspace: 'wsB' }), undefined);
  });

  it('does not promote on a still_failed event', () => {
    const m = lesson({ evidence: ['ep1', 'ep2'] });
    assert.strictEqual(evaluatePromotion(m, { now: T0, outcome: 'still_failed' }), undefined);
  });

  it('never promotes a quarantined lesson', () => {
    const m = lesson({ evidence: ['ep1', 'ep2'], quarantined: { reason: 'file gone', at: T0 } });
    assert.strictEqual(evaluatePromotion(m, { now: T0 }), undefined);
  });
});

describe('trust: pattern → rule', () => {
  const pattern = (outcomes: ('prevented' | 'still_failed')[], over: Partial<Lesson> = {}, ws?: string) =>
    withFeedback(lesson({ maturity: 'pattern', evidence: ['ep1', 'ep2'], ...over }), outcomes, ws);

  it('promotes when re-validated in another workspace with enough confidence', () => {
    const m = pattern(['prevented', 'prevented', 'prevented']);
    const t = evaluatePromotion(m, { now: T0 + DAY, outcome: 'prevented', workspace: 'wsB' });
    assert.strictEqual(t?.to, 'rule');
    assert.match(t!.reason, /another workspace \(wsB\)/);
    assert.match(t!.reason, /confidence at least \d+%/);
  });

  it('promotes when re-validated a week later in the same workspace', () => {
    const m = pattern(['prevented', 'prevented', 'prevented']);
    const t = evaluatePromotion(m, { now: T0 + REVALIDATION_MIN_GAP_MS, outcome: 'prevented', workspace: 'wsA' });
    assert.strictEqual(t?.to, 'rule');
    assert.match(t!.reason, /7 days after/);
  });

  it('promotes when re-validated in another folder than its evidence', () => {
    const m = pattern(['prevented', 'prevented', 'prevented']);
    const t = evaluatePromotion(m, {
      now: T0 + DAY, outcome: 'prevented', workspace: 'wsA', file: 'packages/api/src/x.ts',
      evidence: [{ workspace: 'wsA', file: 'packages/web/src/a.ts', at: T0 }, { workspace: 'wsA', file: 'packages/web/src/b.ts', at: T0 + 1 }],
    });
    assert.strictEqual(t?.to, 'rule');
    assert.match(t!.reason, /another place/);
  });

  it('counts confirmations already tallied in two workspaces as another context', () => {
    const s = new MemoryState();
    const m = lesson({ maturity: 'pattern', evidence: ['ep1', 'ep2'], owner: { scope: 'personal' } });
    s.applyAll([
      { type: 'recorded', id: m.id, at: T0, memory: m },
      { type: 'feedback', id: m.id, at: T0 + 1, outcome: 'prevented', workspace: 'wsA' },
      { type: 'feedback', id: m.id, at: T0 + 2, outcome: 'prevented', workspace: 'wsA' },
      { type: 'feedback', id: m.id, at: T0 + 3, outcome: 'prevented', workspace: 'wsB' },
    ]);
    const t = evaluatePromotion(s.get(m.id)!, { now: T0 + 4, outcome: 'prevented', workspace: 'wsB' });
    assert.strictEqual(t?.to, 'rule');
    assert.match(t!.reason, /confirmed in 2 workspaces/);
  });

  it('does not promote in the same context (same workspace, same folder, same week)', () => {
    const m = pattern(['prevented', 'prevented', 'prevented', 'prevented', 'prevented']);
    const t = evaluatePromotion(m, {
      now: T0 + 2 * DAY, outcome: 'prevented', workspace: 'wsA', file: 'src/b.ts',
      evidence: [{ workspace: 'wsA', file: 'src/a.ts', at: T0 }],
    });
    assert.strictEqual(t, undefined);
  });

  it('two lucky prevented outcomes in another workspace do not make a rule', () => {
    const m = pattern(['prevented', 'prevented']);
    assert.strictEqual(evaluatePromotion(m, { now: T0 + 30 * DAY, outcome: 'prevented', workspace: 'wsB' }), undefined);
  });

  it('needs a prevented outcome as the trigger, not just evidence', () => {
    const m = pattern(['prevented', 'prevented', 'prevented']);
    assert.strictEqual(evaluatePromotion(m, { now: T0 + 30 * DAY, workspace: 'wsB' }), undefined);
  });

  it('never promotes flagged (instruction-like) text to a rule', () => {
    const m = pattern(['prevented', 'prevented', 'prevented'], { flagged: ['asks to ignore previous instructions'] });
    assert.strictEqual(evaluatePromotion(m, { now: T0 + 30 * DAY, outcome: 'prevented', workspace: 'wsB' }), undefined);
  });

  it('never promotes a rule to a constraint automatically', () => {
    const m = withFeedback(lesson({ maturity: 'rule', check: { glob: '**/*.ts', pattern: 'foo' } }), Array(20).fill('prevented'));
    assert.strictEqual(evaluatePromotion(m, { now: T0 + 90 * DAY, outcome: 'prevented', workspace: 'wsZ' }), undefined);
  });
});

describe('trust: demotion', () => {
  it('a rule whose lower bound falls below the threshold drops to pattern', () => {
    const m = withFeedback(lesson({ maturity: 'rule' }), ['prevented', 'prevented', 'prevented', 'still_failed']);
    const t = evaluateDemotion(m);
    assert.strictEqual(t?.to, 'pattern');
    assert.strictEqual(t?.kind, 'demoted');
    assert.match(t!.reason, /still failed 1 of 4/);
  });

  it('a well-supported rule survives one failure', () => {
    const m = withFeedback(lesson({ maturity: 'rule' }), [...Array(12).fill('prevented'), 'still_failed']);
    assert.strictEqual(evaluateDemotion(m), undefined);
  });

  it('a rule the user promoted without outcomes is not demoted by the absence of evidence', () => {
    assert.strictEqual(evaluateDemotion(lesson({ maturity: 'rule' })), undefined);
  });

  it('a pattern drops to observation when failures outweigh successes (at least two)', () => {
    const once = withFeedback(lesson({ maturity: 'pattern' }), ['still_failed']);
    assert.strictEqual(evaluateDemotion(once), undefined, 'one failure is not enough');
    const twice = withFeedback(lesson({ maturity: 'pattern' }), ['still_failed', 'still_failed']);
    assert.strictEqual(evaluateDemotion(twice)?.to, 'observation');
    const balanced = withFeedback(lesson({ maturity: 'pattern' }), ['prevented', 'prevented', 'still_failed', 'still_failed']);
    assert.strictEqual(evaluateDemotion(balanced), undefined);
  });

  it('a constraint goes back to rule only after repeated failures', () => {
    const two = withFeedback(lesson({ maturity: 'constraint' }), ['still_failed', 'still_failed']);
    assert.strictEqual(evaluateDemotion(two), undefined);
    const three = withFeedback(lesson({ maturity: 'constraint' }), ['still_failed', 'still_failed', 'still_failed']);
    assert.strictEqual(evaluateDemotion(three)?.to, 'rule');
  });

  it('an observation has nowhere to go', () => {
    const m = withFeedback(lesson(), ['still_failed', 'still_failed', 'still_failed']);
    assert.strictEqual(evaluateDemotion(m), undefined);
  });
});

describe('trust: per-workspace evidence', () => {
  function disputed(): Lesson {
    let m = withFeedback(lesson({ maturity: 'rule' }), Array(6).fill('prevented'), 'wsA');
    const s = new MemoryState();
    const evs: MemoryEvent[] = [{ type: 'recorded', id: m.id, at: T0, memory: m }];
    for (let i = 0; i < 5; i++) evs.push({ type: 'feedback', id: m.id, at: T0 + 100 + i, outcome: 'still_failed', workspace: 'wsB' });
    s.applyAll(evs);
    m = s.get(m.id) as Lesson;
    return m;
  }

  it('shows which workspaces confirmed or refuted a memory', () => {
    const ev = workspaceEvidence(disputed());
    assert.deepStrictEqual(ev.map(e => [e.workspace, e.verdict, e.prevented, e.stillFailed]), [['wsA', 'confirmed', 6, 0], ['wsB', 'refuted', 0, 5]]);
  });

  it('never averages disagreeing workspaces: each gates on its own tally', () => {
    const m = disputed();
    const a = effectiveConfidence(m, 'wsA');
    const b = effectiveConfidence(m, 'wsB');
    assert.deepStrictEqual(a, { alpha: 7, beta: 1 });
    assert.deepStrictEqual(b, { alpha: 1, beta: 6 });
    // The pooled posterior (7+... ) would sit in between; the workspaces keep their own verdicts.
    assert.strictEqual(evaluateDemotion(m, 'wsA'), undefined, 'still a rule where it works');
    assert.strictEqual(evaluateDemotion(m, 'wsB')?.to, 'pattern', 'demoted where it fails');
  });

  it('a third workspace with no tally gets the pessimistic verdict', () => {
    assert.deepStrictEqual(effectiveConfidence(disputed(), 'wsC'), { alpha: 1, beta: 6 });
  });

  it('agreeing workspaces pool their outcomes', () => {
    const m = withFeedback(lesson(), ['prevented', 'prevented'], 'wsA');
    const s = new MemoryState();
    s.applyAll([{ type: 'recorded', id: m.id, at: T0, memory: m }, { type: 'feedback', id: m.id, at: T0 + 1, outcome: 'prevented', workspace: 'wsB' }]);
    assert.deepStrictEqual(effectiveConfidence(s.get(m.id)!, 'wsA'), { alpha: 4, beta: 1 });
  });
});

describe('trust: duplicates', () => {
  it('same signature and same fix approach are one lesson', () => {
    const a = lesson();
    const b = lesson({ id: 'l2', fixApproach: 'Add the "paths" entry to tsconfig.json.' });
    assert.ok(isDuplicateLesson(a, b));
  });

  it('same signature with a different fix is a different lesson', () => {
    assert.ok(!isDuplicateLesson(lesson(), lesson({ id: 'l2', fixApproach: 'install the missing @types/node package' })));
  });

  it('different signatures are never duplicates', () => {
    assert.ok(!isDuplicateLesson(lesson(), lesson({ id: 'l2', errorSignature: 'tsc:TS2322:type <str> is not assignable' })));
  });

  it('a lesson with a fix is not a duplicate of one without', () => {
    assert.ok(!isDuplicateLesson(lesson(), lesson({ id: 'l2', fixApproach: '' })));
    assert.ok(isDuplicateLesson(lesson({ fixApproach: '' }), lesson({ id: 'l2', fixApproach: ' ' })));
  });
});

describe('trust: manual steps and constraint checks', () => {
  it('a rule with a valid check can become a constraint by the user', () => {
    const p = planManualPromotion(lesson({ maturity: 'rule', check: { glob: 'src/**/*.ts', pattern: 'from\\s+"lodash"' } }), 'constraint');
    assert.ok(p.ok && p.transition.to === 'constraint');
  });

  it('a constraint needs a rule and a check', () => {
    const noCheck = planManualPromotion(lesson({ maturity: 'rule' }), 'constraint');
    assert.ok(!noCheck.ok && /check/.test(noCheck.error));
    const notRule = planManualPromotion(lesson({ maturity: 'pattern', check: { glob: '**', pattern: 'x' } }), 'constraint');
    assert.ok(!notRule.ok && /only a rule/.test(notRule.error));
  });

  it('validates checks: glob, regex syntax, empty matches, flags', () => {
    assert.strictEqual(validateCheck({ glob: 'src/**', pattern: 'console\\.log' }), undefined);
    assert.match(validateCheck({ glob: '', pattern: 'x' })!, /glob/);
    assert.match(validateCheck({ glob: '**', pattern: '(' })!, /invalid regular expression/);
    assert.match(validateCheck({ glob: '**', pattern: 'x*' })!, /empty/);
    assert.match(validateCheck({ glob: '**', pattern: 'x', flags: 'g' })!, /flags/);
  });

  it('users step one rung at a time by default; flagged text stays below rule', () => {
    const up = planManualPromotion(lesson());
    assert.ok(up.ok && up.transition.to === 'pattern');
    const flagged = planManualPromotion(lesson({ maturity: 'pattern', flagged: ['contains tool-call syntax'] }));
    assert.ok(!flagged.ok && /instruction/.test(flagged.error));
    const down = planManualDemotion(lesson({ maturity: 'rule' }));
    assert.ok(down.ok && down.transition.to === 'pattern');
    assert.ok(!planManualDemotion(lesson()).ok);
  });
});

describe('trust: constraint check matching', () => {
  it('finds every match with its span', () => {
    const text = 'import x from "lodash";\nimport y from "lodash/fp";\nimport z from "ramda";\n';
    const hits = checkMatches({ pattern: 'from "lodash' }, text);
    assert.deepStrictEqual(hits.map(h => text.slice(h.start, h.end)), ['from "lodash', 'from "lodash']);
    assert.strictEqual(hits[1].start, text.indexOf('from "lodash/fp'));
  });

  it('honours flags, ignores global/sticky ones, and caps the number of hits', () => {
    assert.strictEqual(checkMatches({ pattern: 'TODO', flags: 'i' }, 'todo Todo TODO').length, 3);
    assert.strictEqual(checkMatches({ pattern: 'TODO', flags: 'gy' }, 'x TODO TODO').length, 2);
    assert.strictEqual(checkMatches({ pattern: 'a' }, 'a'.repeat(500), 50).length, 50);
  });

  it('terminates on patterns that can match empty text and returns nothing for invalid ones', () => {
    assert.ok(checkMatches({ pattern: 'x*' }, 'abc').length <= 4);
    assert.deepStrictEqual(checkMatches({ pattern: '(' }, 'abc'), []);
  });
});

describe('trust: workspace ids and the legacy folder-name alias', () => {
  const X = workspaceIdOf('file:///home/a/app', 'app');
  const Y = workspaceIdOf('file:///home/b/app', 'app');

  /** Feedback folded by the real reducer, each outcome recorded from `workspace`. */
  function fed(m: Lesson, events: [FeedbackOutcome, string][]): Lesson {
    const s = new MemoryState();
    s.applyAll([{ type: 'recorded', id: m.id, at: T0, memory: m },
      ...events.map(([outcome, workspace], i): MemoryEvent => ({ type: 'feedback', id: m.id, at: T0 + 1 + i, outcome, workspace }))]);
    return s.get(m.id) as Lesson;
  }

  it('two folders with the same name at different paths get different, stable ids', () => {
    assert.notStrictEqual(X, Y);
    assert.strictEqual(workspaceIdOf('file:///home/a/app', 'app'), X, 'the same folder gets the same id every time');
    assert.match(X, /^app#[0-9a-f]{16}$/);
  });

  it('two folders named app no longer share tallies', () => {
    const m = fed(lesson({ maturity: 'rule' }), [
      ...Array<[FeedbackOutcome, string]>(4).fill(['prevented', X]),
      ...Array<[FeedbackOutcome, string]>(4).fill(['still_failed', Y]),
    ]);
    assert.deepStrictEqual(effectiveConfidence(m, X), { alpha: 5, beta: 1 });
    assert.deepStrictEqual(effectiveConfidence(m, Y), { alpha: 1, beta: 5 });
    assert.strictEqual(evaluateDemotion(m, X), undefined, 'still a rule where it works');
    assert.strictEqual(evaluateDemotion(m, Y)?.to, 'pattern', 'demoted where it fails');
  });

  it('evidence recorded under the old folder name still counts for the folder that wrote it', () => {
    // Written before the change as 'app', then disputed by another project.
    const m = fed(lesson({ maturity: 'rule', owner: { scope: 'workspace', workspace: 'app' } }), [
      ...Array<[FeedbackOutcome, string]>(4).fill(['prevented', 'app']),
      ...Array<[FeedbackOutcome, string]>(4).fill(['still_failed', 'other']),
    ]);
    assert.deepStrictEqual(effectiveConfidence(m, X), { alpha: 5, beta: 1 }, 'the old tally is this folder\'s own');
    // One more success after the change joins the old tally: one workspace, not two that "agree".
    const later = fed(m, [['prevented', X]]);
    assert.deepStrictEqual(effectiveConfidence(later, X), { alpha: 6, beta: 1 });
    assert.deepStrictEqual(workspaceEvidence(later).map(e => [e.workspace, e.prevented, e.stillFailed]), [[X, 5, 0], ['other', 0, 4]]);
  });

  it('feedback from the folder that filed a memory under its old name is not "another workspace"', () => {
    const m = fed(lesson({ maturity: 'pattern', owner: { scope: 'workspace', workspace: 'app' } }), [
      ['prevented', X], ['prevented', X], ['prevented', X],
    ]);
    const here = evaluatePromotion(m, { now: T0 + 10, outcome: 'prevented', workspace: X, evidence: [{ workspace: 'app', at: T0 }] });
    assert.strictEqual(here, undefined, 'the old name is this folder: nothing was re-validated elsewhere');
    const elsewhere = workspaceIdOf('file:///home/a/api', 'api');
    const there = evaluatePromotion(m, { now: T0 + 10, outcome: 'prevented', workspace: elsewhere, evidence: [{ workspace: 'app', at: T0 }] });
    assert.match(there?.reason ?? '', /another workspace/, 'a folder with another name is still another workspace');
  });

  it('a legacy tally and its folder\'s new tally are one workspace, not two confirmations', () => {
    const m = fed(lesson({ maturity: 'pattern', owner: { scope: 'workspace', workspace: 'app' } }), [
      ['prevented', 'app'], ['prevented', X], ['prevented', X],
    ]);
    const t = evaluatePromotion(m, { now: T0 + 10, outcome: 'prevented', workspace: X, evidence: [{ workspace: 'app', at: T0 }, { workspace: X, at: T0 }] });
    assert.strictEqual(t, undefined, 'not "confirmed in 2 workspaces"');
    // The same outcomes from the other folder named app are a second workspace.
    const two = fed(lesson({ maturity: 'pattern', owner: { scope: 'workspace', workspace: 'app' } }), [
      ['prevented', Y], ['prevented', X], ['prevented', X],
    ]);
    const t2 = evaluatePromotion(two, { now: T0 + 10, outcome: 'prevented', workspace: X, evidence: [{ workspace: 'app', at: T0 }, { workspace: X, at: T0 }] });
    assert.match(t2?.reason ?? '', /confirmed in 2 workspaces/);
  });
});
