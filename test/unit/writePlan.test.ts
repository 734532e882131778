// The write plan is pure: a store view and a command in, the events the store would append out.
import * as assert from 'assert';
import { memorySignatures } from '../../src/core/memoryText';
import { PRIOR } from '../../src/core/trust';
import type { Episode, Fact, Lesson, Memory, MemoryEvent } from '../../src/core/types';
import {
  planEvidence, planFeedback, planPattern, planRecord, planTeamEdit, planUpdate, prepareImported, type StoreView,
} from '../../src/core/writePlan';
import type { MemoryPatch } from '../../src/core/memoryPatch';

const T0 = Date.UTC(2026, 0, 5);
const SIG = 'tsc:TS2307:cannot find module <str>';
const ctx = { now: T0 + 1000, workspace: 'wsA' };

function view(...memories: Memory[]): StoreView {
  const byId = new Map(memories.map(m => [m.id, m]));
  return {
    get: id => byId.get(id),
    has: id => byId.has(id),
    isTombstoned: () => false,
    all: () => [...byId.values()],
    idsWithSignature: key => memories.filter(m => memorySignatures(m).includes(key)).map(m => m.id),
  };
}

function lesson(over: Partial<Lesson> = {}): Lesson {
  return {
    id: 'l1', kind: 'lesson', owner: { scope: 'workspace', workspace: 'wsA' },
    createdAt: T0, updatedAt: T0, accessCount: 0, importance: 0.5, source: 'captured', tags: [], scope: [],
    confidence: { ...PRIOR }, maturity: 'observation',
    errorSignature: SIG, errorText: "Cannot find module 'x'", errorCategory: 'module',
    stack: ['typescript'], rootCause: 'path alias missing in tsconfig', fixApproach: 'add the paths entry to tsconfig.json',
    evidence: ['ep1'], ...over,
  };
}

function episode(id: string): Episode {
  return {
    id, kind: 'episode', owner: { scope: 'workspace', workspace: 'wsA' }, createdAt: T0, updatedAt: T0, accessCount: 0,
    importance: 0.5, source: 'captured', tags: [], scope: [], confidence: { ...PRIOR }, maturity: 'observation',
    startedAt: T0, trigger: 'error', steps: [], toolsUsed: [], outcome: 'success', lessonsLearned: [], files: ['src/a.ts'],
    sourceIds: [], summary: 's',
  };
}

const types = (events: MemoryEvent[]) => events.map(e => `${e.type}:${e.id}`);

describe('write plan: record', () => {
  it('a new memory is one recorded event with defaults, owned by the workspace, starting as an observation', () => {
    const plan = planRecord(view(), { kind: 'fact', content: 'we deploy on Fridays', maturity: 'rule', source: 'chat' } as unknown as Memory, ctx);
    assert.strictEqual(plan.events.length, 1);
    const [ev] = plan.events;
    assert.ok(ev.type === 'recorded');
    assert.strictEqual(ev.id, plan.id);
    assert.strictEqual(ev.at, ctx.now);
    assert.strictEqual(ev.memory.maturity, 'observation', 'a chat memory may not claim a maturity');
    assert.deepStrictEqual(ev.memory.confidence, PRIOR);
    assert.deepStrictEqual(ev.memory.owner, { scope: 'workspace', workspace: 'wsA' });
    assert.strictEqual(ev.memory.createdAt, ctx.now);
  });

  it('masks secrets before anything else sees them', () => {
    const plan = planRecord(view(), lesson({ id: 'l9', rootCause: 'the key AKIAIOSFODNN7EXAMPLE was revoked' }), ctx);
    assert.ok(!JSON.stringify(plan.events).includes('AKIAIOSFODNN7EXAMPLE'));
  });

  it('a repeat of a lesson is evidence on it, not a copy; the second sighting promotes it in the same plan', () => {
    const existing = lesson();
    const plan = planRecord(view(existing), lesson({ id: 'l2', evidence: ['ep2'] }), ctx);
    assert.strictEqual(plan.id, 'l1', 'the caller gets the lesson it repeats');
    assert.deepStrictEqual(types(plan.events), ['evidence:l1', 'promoted:l1']);
    const promoted = plan.events[1];
    assert.ok(promoted.type === 'promoted');
    assert.strictEqual(promoted.from, 'observation');
    assert.strictEqual(promoted.to, 'pattern');
  });

  it('a twin in another scope is a different lesson', () => {
    const plan = planRecord(view(lesson()), lesson({ id: 'l2', evidence: ['ep2'], scope: ['packages/web/**'] }), ctx);
    assert.deepStrictEqual(types(plan.events), ['recorded:l2']);
  });

  it('evidence the lesson already holds produces nothing', () => {
    assert.deepStrictEqual(planEvidence(lesson(), ['ep1'], 'again', ctx), []);
  });

  it('a word-for-word repeated fact is only marked as seen again', () => {
    const f = { id: 'f1', kind: 'fact', type: 'fact', content: 'we deploy on Fridays', owner: { scope: 'workspace', workspace: 'wsA' }, createdAt: T0, updatedAt: T0, accessCount: 0, importance: 0.5, source: 'manual', tags: [], scope: [], confidence: { ...PRIOR }, maturity: 'observation' } as Fact;
    const plan = planRecord(view(f), { kind: 'fact', content: 'We deploy on Fridays.' } as unknown as Memory, ctx);
    assert.deepStrictEqual(types(plan.events), ['accessed:f1']);
  });
});

describe('write plan: pattern, feedback, edits, import', () => {
  it('a pattern lesson is recorded as an observation and lifted at once on the episodes it cites', () => {
    const eps = ['e1', 'e2', 'e3'].map(episode);
    const p = lesson({ id: 'p_1', maturity: 'pattern', evidence: ['e1', 'e2', 'e3'], fixApproach: 'add the alias', tags: ['pattern'] });
    const plan = planPattern(view(...eps), p, ctx);
    assert.deepStrictEqual(types(plan.events), ['recorded:p_1', 'promoted:p_1']);
    const [rec, step] = plan.events;
    assert.ok(rec.type === 'recorded' && step.type === 'promoted');
    assert.strictEqual(rec.memory.maturity, 'observation', 'captured text earns its maturity');
    assert.strictEqual(step.to, 'pattern');
    assert.match(step.reason, /resolved the same way 3 times/);
  });

  it('feedback that outweighs a pattern demotes it in the same plan', () => {
    const m = lesson({ maturity: 'pattern', confidence: { alpha: 1, beta: 2 } });
    const events = planFeedback(view(m), m, 'still_failed', { reason: 'from the test' }, ctx);
    assert.deepStrictEqual(types(events), ['feedback:l1', 'demoted:l1']);
    assert.ok(events[0].type === 'feedback' && events[0].workspace === 'wsA');
    assert.ok(events[1].type === 'demoted' && events[1].to === 'observation');
  });

  it('an edit may not carry maturity or confidence', () => {
    const bad = { fixApproach: 'x', maturity: 'rule', confidence: { alpha: 99, beta: 1 } } as unknown as MemoryPatch;
    assert.throws(() => planUpdate(lesson(), bad, undefined, ctx), /may not set maturity, confidence/);
    const [ev] = planUpdate(lesson(), { fixApproach: 'use the vault, not AKIAIOSFODNN7EXAMPLE', pinned: null }, 'edited', ctx);
    assert.ok(ev.type === 'updated');
    assert.strictEqual(ev.patch.pinned, null);
    assert.ok(!JSON.stringify(ev).includes('AKIAIOSFODNN7EXAMPLE'));
  });

  it('a team edit lowers maturity with the new text, never raises it', () => {
    const m = lesson({ maturity: 'rule' });
    assert.deepStrictEqual(types(planTeamEdit(m, { patch: { tags: ['x'] }, flagged: null, demoteTo: 'pattern' }, 'changed', ctx)), ['updated:l1', 'demoted:l1']);
    assert.deepStrictEqual(types(planTeamEdit(m, { patch: { tags: ['x'] }, demoteTo: 'constraint' }, 'changed', ctx)), ['updated:l1']);
  });

  it('an untrusted import brings no evidence; a team file keeps it within the team cap', () => {
    const line = lesson({ id: 'i1', source: 'imported', maturity: 'rule', evidence: ['a', 'b'] });
    const untrusted = prepareImported(line, {}, ctx);
    assert.strictEqual(untrusted.dropped, 2);
    assert.deepStrictEqual((untrusted.memory as Lesson).evidence, []);
    assert.strictEqual(untrusted.memory.maturity, 'observation');
    const team = prepareImported(line, { team: true }, ctx);
    assert.strictEqual(team.dropped, 0);
    assert.strictEqual(team.memory.maturity, 'pattern');
    assert.strictEqual(team.memory.source, 'team');
  });
});
