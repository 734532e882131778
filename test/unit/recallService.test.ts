// The one recall service (core/recallService.ts) and the agent answer over it: the stale check runs in
// rank order inside recall (a stale memory frees its place for the next one), the personal store is
// merged and marked, the editor's surfaces can skip the file lookups, and a model embeds the error, not
// the raw output.
import * as assert from 'assert';
import { Bm25Index } from '../../src/core/lexical';
import { memoryText } from '../../src/core/memoryText';
import { indexSignature, RecallEngine, signatureKeyOf } from '../../src/core/recall';
import { answerAgent } from '../../src/core/recall/agentAnswer';
import { embeddingText } from '../../src/core/recallQuery';
import { RecallService, type RecallSource } from '../../src/core/recallService';
import { MemoryState } from '../../src/core/reduce';
import type { Memory } from '../../src/core/types';
import { aLesson } from './memories';

const ERROR = "src/app.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.";

/** A RecallSource over the in-memory indexes, as MemoryStore is one (and a team server's would be). */
function source(memories: Memory[]): RecallSource {
  const state = new MemoryState();
  const lexical = new Bm25Index();
  const bySignature = new Map<string, Set<string>>();
  for (const m of memories) {
    state.apply({ type: 'recorded', id: m.id, at: 0, memory: m });
    lexical.add(m.id, memoryText(m));
    indexSignature(bySignature, m);
  }
  const engine = new RecallEngine({ state, lexical, bySignature });
  return { recall: q => engine.recall(q) };
}

const lessons = (n: number, over: Partial<Memory> = {}) => [...Array(n)].map((_, i) => aLesson({
  id: `l${i}`, errorText: ERROR, errorSignature: signatureKeyOf(ERROR)!, rootCause: `cause ${i}`, fixApproach: `fix ${i}`, importance: 0.9 - i * 0.05, ...over,
} as Partial<Memory> as never));

describe('recall service', () => {
  it('leaves stale memories out inside recall, so k is filled with fresh ones', async () => {
    const checked: string[] = [];
    const service = new RecallService({
      workspace: async () => source(lessons(6)),
      isStale: m => { checked.push(m.id); return m.id === 'l0' || m.id === 'l1' ? 'src/gone.ts no longer exists' : undefined; },
    });
    const ids = (await service.recall({ text: ERROR, k: 3 })).map(r => r.memory.id);
    assert.deepStrictEqual(ids, ['l2', 'l3', 'l4'], 'three fresh ones, not one fresh of the top three');
    assert.ok(!checked.includes('l5'), 'no check past the k that were needed');
    const unchecked = (await service.recall({ text: ERROR, k: 3 }, { checkStale: false })).map(r => r.memory.id);
    assert.deepStrictEqual(unchecked, ['l0', 'l1', 'l2']);
  });

  it('merges the personal store, marked, and goes on without it when it fails', async () => {
    const warned: string[] = [];
    const personal = [aLesson({ id: 'mine', owner: { scope: 'personal' }, errorText: ERROR, errorSignature: signatureKeyOf(ERROR)!, rootCause: 'mine', fixApproach: 'mine' })];
    const on = new RecallService({ workspace: async () => source(lessons(1)), personal: async () => source(personal) });
    const r = await on.recall({ text: ERROR });
    assert.deepStrictEqual(r.map(x => x.memory.id).sort(), ['l0', 'mine']);
    assert.ok(r.find(x => x.memory.id === 'mine')!.reasons.some(x => x.kind === 'personal'));
    const broken = new RecallService({ workspace: async () => source(lessons(1)), personal: async () => { throw new Error('locked'); }, warn: m => warned.push(m) });
    assert.deepStrictEqual((await broken.recall({ text: ERROR })).map(x => x.memory.id), ['l0']);
    assert.match(warned.join(), /personal store unavailable: locked/);
  });

  it('answers an agent with the gate unless all, the k cap, and a note when the query was trimmed', async () => {
    const service = new RecallService({ workspace: async () => source(lessons(14)) });
    const ctx = { workspace: 'w', nonce: () => 'n-1', relative: (f: string) => f };
    const a = await answerAgent(service, { query: ERROR, k: 50 }, ctx);
    assert.strictEqual(a.results.length, 10, `at most 10 whatever k asks: ${a.results.length}\n${a.text}`);
    assert.match(a.text, /BEGIN ENGRAM MEMORY DATA n-1/);
    const long = await answerAgent(service, { query: 'x\n'.repeat(40_000) + ERROR }, ctx);
    assert.match(long.text, /its start and end were used/);
    assert.ok(long.results.some(r => r.memory.id === 'l0'), 'the error at the end is kept');
    const weak = await answerAgent(service, { query: 'cause fix' }, ctx);
    assert.match(weak.text, /Nothing passed the strong-evidence gate/);
    await assert.rejects(answerAgent(service, { query: 7 }, ctx), /"query" must be a string/);
  });

  it('a model embeds the extracted error text, not the raw output', () => {
    const raw = `\u001b[31m> app@1.0.0 build\n> tsc\u001b[0m\n\n${ERROR}\n\nFound 1 error in src/app.ts:3\n`;
    const t = embeddingText(raw);
    assert.ok(!t.includes('\u001b') && !t.includes('> tsc'), t);
    assert.match(t, /Type 'string' is not assignable to type 'number'/);
    assert.strictEqual(embeddingText('why does the cart total skip tax?'), 'why does the cart total skip tax?');
  });
});
