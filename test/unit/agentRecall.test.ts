// Lessons in an agent's words against the raw tool output they came from (issue 18, defect 8): a lesson
// remembered by the failing test's key line, or by a sentence naming the test, is shown unasked for the
// runner's raw output; another test of the same run is not. Real output: the jest and pytest traces of
// test/fixtures/traces (train split), and the labelled set of test/fixtures/recall/agentPairs.ts.
import * as assert from 'assert';
import { existsSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { Bm25Index } from '../../src/core/lexical';
import { memoryText } from '../../src/core/memoryText';
import { newLesson } from '../../src/core/newMemory';
import { indexSignature, RecallEngine } from '../../src/core/recall';
import { failingTestNames } from '../../src/core/recall/failingTest';
import { errorDetails } from '../../src/core/errorDetails';
import { MemoryState } from '../../src/core/reduce';
import type { Lesson } from '../../src/core/types';
import { scoreAgentPairs } from '../fixtures/recall/agentPairs';

function tracesDir(): string {
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures', 'traces');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('test/fixtures/traces not found above ' + process.cwd());
  }
}

/** The output of the trace's first failing command (what the agent pastes). */
function failingOutput(trace: string): string {
  const events = readFileSync(join(tracesDir(), `${trace}.jsonl`), 'utf8').trim().split('\n').map(l => JSON.parse(l) as { type: string; exitCode?: number; output?: string });
  const out = events.find(e => e.type === 'command' && e.exitCode && e.output)?.output;
  assert.ok(out, `${trace} has a failing command`);
  return out;
}

/** A near-miss query of the recall set (another test of the same project). */
function nearMiss(of: string): string {
  const line = readFileSync(join(tracesDir(), 'queries.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l) as { query: string; of?: string; kind: string })
    .find(q => q.kind === 'near-miss' && q.of === of);
  assert.ok(line, `a near miss of ${of}`);
  return line.query;
}

function engineWith(lessons: Lesson[]): RecallEngine {
  const state = new MemoryState();
  const lexical = new Bm25Index();
  const bySignature = new Map<string, Set<string>>();
  for (const m of lessons) {
    state.apply({ type: 'recorded', id: m.id, at: 0, memory: m });
    lexical.add(m.id, memoryText(m));
    indexSignature(bySignature, m);
  }
  return new RecallEngine({ state, lexical, bySignature });
}

const origin = { workspace: 'w', source: 'chat' as const, agent: 'claude-code' };
const lesson = (id: string, input: Parameters<typeof newLesson>[1]): Lesson => ({ ...newLesson(origin, input), id });

describe('recall: lessons in an agent\'s words (issue 18, defect 8)', () => {
  it('a lesson remembered by jest\'s key line is shown unasked for the raw jest output, and not for another test', async () => {
    const engine = engineWith([
      lesson('tax', { errorText: '● cart total includes tax', rootCause: 'total() ignored TAX', fixApproach: 'Apply TAX in src/cart.js' }),
      lesson('other', { errorText: 'Error: Cannot find module \'./lib/helpers\'', rootCause: 'typo in the path', fixApproach: 'Fix the require path' }),
    ]);
    const shown = await engine.recall({ text: failingOutput('jest-cart-total-tax'), proactive: true });
    assert.deepStrictEqual(shown.map(r => r.memory.id), ['tax']);
    const asked = await engine.recall({ text: nearMiss('jest-cart-total-tax'), proactive: true });
    assert.deepStrictEqual(asked.map(r => r.memory.id), [], 'another failing test of the same file is a near miss');
  });

  it('a one-line summary naming the test (quoted) or a pytest test id is shown unasked', async () => {
    const engine = engineWith([
      lesson('tax', { errorText: "jest 'cart total includes tax' failed: the total left out TAX", rootCause: 'total() ignored TAX', fixApproach: 'Apply TAX in src/cart.js' }),
      lesson('bulk', { errorText: 'test_bulk_discount failed after the discount change', rootCause: 'the threshold was off by one', fixApproach: 'Use >= in price()' }),
    ]);
    assert.strictEqual((await engine.recall({ text: failingOutput('jest-cart-total-tax'), proactive: true }))[0]?.memory.id, 'tax');
    const pytest = failingOutput('pytest-bulk-discount');
    assert.ok(errorDetails(pytest).some(d => d.value === 'test_bulk_discount'), 'the pytest output names test_bulk_discount');
    assert.strictEqual((await engine.recall({ text: pytest, proactive: true }))[0]?.memory.id, 'bulk');
  });

  it('names a test only by its whole name: a shorter title inside a longer one, or a word inside a longer word, is not it', async () => {
    assert.deepStrictEqual(failingTestNames(errorDetails('  ● cart › counts its lines')), ['cart › counts its lines', 'counts its lines']);
    const engine = engineWith([
      lesson('part', { errorText: 'the test "counts its lines twice" failed', rootCause: 'x', fixApproach: 'y' }),
      lesson('word', { errorText: 'test_bulk_discounts failed', rootCause: 'x', fixApproach: 'y' }),
    ]);
    assert.deepStrictEqual((await engine.recall({ text: '  ● cart › counts its lines', proactive: true })).map(r => r.memory.id), []);
    assert.deepStrictEqual((await engine.recall({ text: 'FAILED tests/test_price.py::test_bulk_discount - assert 90 == 85', proactive: true })).map(r => r.memory.id), []);
  });

  it('a one-line summary that says the error (its message and the names it quotes) is shown unasked for the raw output; another name is a near miss', async () => {
    const label = (t: string) => (JSON.parse(readFileSync(join(tracesDir(), `${t}.label.json`), 'utf8')) as { description: string }).description;
    const summary = (id: string, trace: string) => lesson(id, { errorText: label(trace), rootCause: label(trace), fixApproach: label(trace) });
    const engine = engineWith([summary('node', 'node-cjs-cannot-find-module'), summary('npe', 'java-npe-helpful-message'), summary('zod', 'ts-npm-install-zod')]);
    assert.strictEqual((await engine.recall({ text: failingOutput('node-cjs-cannot-find-module'), proactive: true }))[0]?.memory.id, 'node');
    assert.strictEqual((await engine.recall({ text: failingOutput('java-npe-helpful-message'), proactive: true }))[0]?.memory.id, 'npe');
    // The same message about other names: String.length() and Main.name are not the lesson's.
    const otherNpe = 'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "Main.name" is null\n\tat Main.main(Main.java:3)';
    assert.deepStrictEqual((await engine.recall({ text: otherNpe, proactive: true })).map(r => r.memory.id), []);
    // Another module under the same code: the module is a detail the sentence must carry.
    const otherModule = "src/forms.ts(1,19): error TS2307: Cannot find module 'lodash' or its corresponding type declarations.";
    assert.deepStrictEqual((await engine.recall({ text: otherModule, proactive: true })).map(r => r.memory.id), []);
  });

  it('on the labelled set\'s train split: key-line lessons found unasked for at least 0.9 of raw outputs, summaries for 0.4, near misses as quiet as before', async () => {
    const s = await scoreAgentPairs(tracesDir(), 'key line');
    assert.ok(s.train.pairs >= 100, `train pairs ${s.train.pairs}`);
    assert.ok(s.train.strongHit1 >= 0.9, `unasked hit@1 ${s.train.strongHit1.toFixed(2)}; train misses: ${s.misses.join('; ')}`);
    // "As quiet as before": the recall rules before defect 8 (42fe9a7) leave 30 of this split's 47 near misses (0.638)
    // quiet on the 140-trace corpus (bench/agent-recall.mjs --base 42fe9a7, same run: before 0.64, now 0.64;
    // it was 0.67 -> 0.71 at 130 traces: the ten live traces brought near misses of their own).
    // The floor guards that figure; raising it is issue 17's near-miss work, not a number to tune here.
    assert.ok(s.train.quiet >= 30 / 47, `near misses quiet ${s.train.quiet.toFixed(2)}; train misses: ${s.misses.join('; ')}`);
    const sum = await scoreAgentPairs(tracesDir(), 'summary');
    assert.ok(sum.train.strongHit1 >= 0.4, `summary unasked hit@1 ${sum.train.strongHit1.toFixed(2)}`);
    assert.ok(sum.train.quiet >= 0.95, `summary near misses quiet ${sum.train.quiet.toFixed(2)}; train misses: ${sum.misses.join('; ')}`);
  });
});
