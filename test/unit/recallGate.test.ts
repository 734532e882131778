import * as assert from 'assert';
import { calibrate } from '../fixtures/recall/calibrate';
import { isStrong } from '../../src/core/recallGate';
import { Bm25Index } from '../../src/core/lexical';
import { memoryText } from '../../src/core/memoryText';
import { indexSignature, RecallEngine, signatureKeyOf } from '../../src/core/recall';
import { MemoryState } from '../../src/core/reduce';
import type { Lesson } from '../../src/core/types';
import { aLesson } from './memories';
import { runFixture } from '../fixtures/tool-output';

// The calibration set: real tool output (test/fixtures/recall/make-outputs.mjs), 28 errors a stored
// lesson answers and 28 that nothing stored answers (families not in the store, and near misses:
// the same error code with another module, types or test).
describe('recall gate: quiet when it has nothing (calibration set of real tool output)', () => {
  for (const form of ['output', 'line'] as const) it(`is quiet on at least 90% of errors with no right answer, with hit@1 of at least 0.9 on the others (query: the ${form === 'output' ? 'whole tool output' : "diagnostic's error line"})`, async () => {
    const c = await calibrate('gate', undefined, form);
    assert.ok(c.answerable >= 25 && c.noAnswer >= 20, `set size ${c.answerable}/${c.noAnswer}`);
    const noisy = c.outcomes.filter(o => o.expect === null && o.shown.length).map(o => `${o.from} → ${o.shown.map(s => s.id)}`);
    const misses = c.outcomes.filter(o => o.expect !== null && o.shown[0]?.id !== o.expect).map(o => `${o.from} → ${o.shown.map(s => s.id) || 'nothing'}`);
    assert.ok(c.quiet >= 0.9, `quiet on ${(c.quiet * 100).toFixed(0)}% of no-answer queries; spoke on: ${noisy.join('; ')}`);
    assert.ok(c.hit1 >= 0.9, `hit@1 ${c.hit1.toFixed(2)}; missed: ${misses.join('; ')}`);
  });

  it('the hover\'s old filter (signature, or score >= 0.45) was noisy on the same set: the gate is what makes it quiet', async () => {
    const old = await calibrate('old-filter');
    const gate = await calibrate('gate');
    assert.ok(old.quiet < gate.quiet, `old ${old.quiet} vs gate ${gate.quiet}`);
  });

  it('decides on evidence: a shared signature passes, a near miss never does, words must carry the error', () => {
    const base = { coverage: 0, matched: 0, similarity: 0, model: false };
    assert.strictEqual(isStrong({ ...base, signature: 'same' }), true);
    assert.strictEqual(isStrong({ ...base, signature: 'other-details', coverage: 1, matched: 20 }), false);
    assert.strictEqual(isStrong({ ...base, coverage: 0.9, matched: 6, messageCoverage: 0.5 }), false, 'shared trace words without the message');
    assert.strictEqual(isStrong({ ...base, coverage: 0.9, matched: 6, messageCoverage: 1 }), true);
    assert.strictEqual(isStrong({ ...base, coverage: 0.9, matched: 6, ownCoverage: 0.8 }), false, "the memory's own error has words the query lacks: another error");
    assert.strictEqual(isStrong({ ...base, coverage: 0.9, matched: 6, ownCoverage: 1 }), true);
    assert.strictEqual(isStrong({ ...base, coverage: 0.3, matched: 6, similarity: 0.95, model: false }), false, 'hashed vectors prove nothing more than words');
    assert.strictEqual(isStrong({ ...base, coverage: 0.3, matched: 6, similarity: 0.95, model: true }), true);
  });
});

describe('recall gate: an unexplained lesson is never a proactive answer', () => {
  // The same ModuleNotFoundError seen twice: once fixed by `.venv/bin/pip install` (explained), once
  // cleared with nothing observed; then it shows up in another file of the same project.
  const output = runFixture('venv-module-not-found').text;
  const key = signatureKeyOf(output)!;
  const base = { errorSignature: key, errorText: "ModuleNotFoundError: No module named 'yaml'", scope: [] as string[], createdAt: 1, updatedAt: 1 };
  const explained = aLesson({ ...base, id: 'explained', rootCause: 'ModuleNotFoundError; it cleared after Engram saw: ran `.venv/bin/pip install pyyaml`.', fixApproach: 'Ran `.venv/bin/pip install pyyaml`.', commands: ['.venv/bin/pip install pyyaml'] });
  const unexplained = aLesson({ ...base, id: 'unexplained', unexplained: true, importance: 0.1, rootCause: 'ModuleNotFoundError; it cleared with no edit or command observed.', fixApproach: 'Unexplained: no fix was observed.', updatedAt: 5, createdAt: 5 });

  function engine(lessons: Lesson[]): RecallEngine {
    const state = new MemoryState();
    const lexical = new Bm25Index();
    const bySignature = new Map<string, Set<string>>();
    for (const m of lessons) { state.apply({ type: 'recorded', id: m.id, at: 1, memory: m }); lexical.add(m.id, memoryText(m)); indexSignature(bySignature, m); }
    return new RecallEngine({ state, lexical, bySignature });
  }

  it('with an explained lesson beside it, the explained one answers and the unexplained one stays out', async () => {
    const got = await engine([unexplained, explained]).recall({ text: output, file: 'tools/report.py', proactive: true });
    assert.deepStrictEqual(got.map(r => r.memory.id), ['explained']);
  });

  it('alone, it is not shown unasked; a search still finds it, marked weak', async () => {
    const e = engine([unexplained]);
    assert.deepStrictEqual(await e.recall({ text: output, file: 'tools/report.py', proactive: true }), []);
    const found = await e.recall({ text: output, file: 'tools/report.py' });
    assert.deepStrictEqual(found.map(r => [r.memory.id, r.weak]), [['unexplained', true]]);
  });
});
