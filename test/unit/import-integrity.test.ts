// Issue 10, "data lost without a word" and "secrets in derived fields": an import never changes an id
// behind the user's back, never lets an untrusted file promote itself, never echoes raw input in its
// error reports, and no derived field (the signature key) keeps a secret in lower case.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { maskRecord } from '../../src/core/mask';
import { signatureKeyOf } from '../../src/core/recall';
import { normaliseSignature } from '../../src/core/signature';
import type { Lesson } from '../../src/core/types';
import { MemoryStore } from '../../src/store/memoryStore';
import { SECRET_CORPUS } from '../fixtures/secrets';

const lessonLine = (o: Record<string, unknown>) => JSON.stringify({
  kind: 'lesson', errorSignature: "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  rootCause: 'form values are strings', fixApproach: 'parse the value with Number() first', ...o,
});

describe('import integrity (ids, trust, error reports)', function () {
  this.timeout(30_000);
  let dir = '';
  let store: MemoryStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-integrity-'));
    store = await MemoryStore.open(dir, { vectors: false });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rejects ids that look like e-mail addresses, phone numbers or tokens BEFORE the duplicate check, and says so per line', async () => {
    const people = ['alice@corp.com', 'bob@corp.com', 'carol@corp.com', 'dave@corp.com', 'erin@corp.com'];
    const lines = [
      ...people.map((id, i) => JSON.stringify({ kind: 'fact', id, content: `note ${i}` })),
      JSON.stringify({ kind: 'fact', id: 'fact-plain-1', content: 'plain' }),
      JSON.stringify({ kind: 'fact', id: 'fact-plain-2', content: 'plain too', supersedes: 'frank@corp.com' }),
    ];
    const report = await store.importLines(lines);
    assert.strictEqual(report.imported, 1, 'only the neutral ids import');
    assert.deepStrictEqual(report.errors.map(e => e.line), [1, 2, 3, 4, 5, 7]);
    for (const e of report.errors) {
      assert.match(e.error, /personal data or a secret/);
      assert.ok(!/corp\.com/.test(e.error), `the report repeats the id: ${e.error}`);
    }
    // What the report says is what the store holds: no memory silently overwrote another.
    assert.strictEqual(store.list().length, report.imported);
    assert.ok(store.get('fact-plain-1'));
    await assert.rejects(store.record({ ...store.get('fact-plain-1')!, id: 'x-415-555-0132 alice@corp.com' }), /personal data or a secret/);
  });

  it('an untrusted file cannot promote itself: three copies claiming "rule" import as one observation with no invented evidence', async () => {
    const lines = [1, 2, 3].map(() => lessonLine({ maturity: 'rule', confidence: 0.99 }));
    lines.push(lessonLine({ maturity: 'rule', errorSignature: 'TypeError: x is not a function', evidence: ['ep-a', 'ep-b', 'ep-c'] }));
    const report = await store.importLines(lines);
    assert.strictEqual(report.imported, 2);
    assert.strictEqual(report.merged, 2);
    const lessons = store.list({ kinds: ['lesson'] }) as Lesson[];
    assert.strictEqual(lessons.length, 2);
    for (const l of lessons) {
      assert.strictEqual(l.maturity, 'observation', `${l.errorText} climbed to ${l.maturity}`);
      assert.deepStrictEqual(l.evidence, [], 'evidence from an untrusted file is not kept');
      for (const e of l.evidence) assert.ok(store.get(e), `evidence id ${e} is not a memory`);
    }
    assert.deepStrictEqual(report.notes?.map(n => n.line), [4], 'the dropped evidence is reported');
  });

  it('a trusted backup keeps its maturity and evidence, and a merge adds only evidence ids that exist', async () => {
    const ep = JSON.stringify({ kind: 'episode', id: 'ep-real', trigger: 'tsc failed', summary: 's', outcome: 'success' });
    const lines = [ep, lessonLine({ maturity: 'pattern', evidence: ['ep-real', 'ep-old'] }), lessonLine({ evidence: ['ep-real', 'ep-missing'] }), lessonLine({})];
    const report = await store.importLines(lines, { trusted: true });
    assert.strictEqual(report.imported, 2);
    const [l] = store.list({ kinds: ['lesson'] }) as Lesson[];
    assert.strictEqual(l.maturity, 'pattern');
    assert.deepStrictEqual(l.evidence, ['ep-real', 'ep-old'], 'no id of a merged line and no missing id was added');
  });

  it('a line that is not JSON is reported by number with a generic reason, never with its text', async () => {
    const pw = SECRET_CORPUS.find(s => s.kind === 'password')!.value;
    const bad = [`password=${pw}`, `{"kind":"fact","content":"${pw}"`, `{"kind":"fact", "content": ${pw}}`, '{"kind":"lesson","check":{"glob":"*","pattern":"pw=' + pw + '("},"errorSignature":"e","fixApproach":"f"}',
      JSON.stringify({ kind: 'fact', content: 'c', createdAt: `${pw} o'clock` })];
    const report = await store.importLines(bad);
    assert.deepStrictEqual(report.errors.map(e => e.line), [1, 2, 3, 4, 5]);
    for (const e of report.errors) {
      assert.ok(!e.error.includes(pw.slice(0, 6)) && !/password=/.test(e.error), `raw input echoed: ${e.error}`);
      assert.ok(e.error.length < 200, e.error);
    }
    // The reason is ours (position at most, as Node's message allows), whatever the engine says.
    for (const e of report.errors.slice(0, 3)) assert.match(e.error, /^not valid JSON(?: \((?:at character \d+|the line ends too early)\))?$/);
    assert.match(report.errors[3].error, /^"check" is not usable: invalid regular expression: Unterminated group$/);
    assert.strictEqual(report.errors[4].error, '"createdAt" is not a date');
  });

  it('mask, then validate, per line: a secret inside a scope glob skips that line by number and imports the rest', async () => {
    const token = SECRET_CORPUS.find(s => s.kind === 'github-token')!.value;
    const pw = 'Qv7!rTz9#kLm2$';
    const lines = [
      lessonLine({ id: 'ok-1', scope: ['deploy/**'] }),
      lessonLine({ id: 'bad-scope', scope: [`deploy/${token}/**`] }),
      lessonLine({ id: 'bad-check', check: { glob: `deploy/${token}/*.yml`, pattern: 'latest' } }),
      // Found only through another field (the key names it there): the store's masked-record check catches it.
      lessonLine({ id: 'bad-derived', rootCause: `DB_PASSWORD=${pw} in the deploy env`, scope: [`deploy/${pw}/**`] }),
      lessonLine({ id: 'ok-2', scope: ['src/**'] }),
    ];
    const report = await store.importLines(lines);
    assert.strictEqual(report.imported, 2);
    assert.deepStrictEqual(report.errors.map(e => e.line), [2, 3, 4]);
    assert.match(report.errors[0].error, /^"scope" entry 1 holds a secret or personal data/);
    assert.match(report.errors[1].error, /^"check\.glob" holds a secret or personal data/);
    assert.match(report.errors[2].error, /"scope" entry 1 is not a workspace glob.*; line skipped$/);
    for (const e of report.errors) assert.ok(!e.error.includes(token.slice(4, 12)) && !e.error.includes(pw), `input echoed: ${e.error}`);
    assert.deepStrictEqual(store.list().map(m => m.id).sort(), ['ok-1', 'ok-2']);
    // The skipped lines did not claim their ids: fixed, they import.
    const again = await store.importLines([lessonLine({ id: 'bad-scope', scope: ['deploy/**'] })]);
    assert.strictEqual(again.imported, 1, JSON.stringify(again.errors));
  });
});

describe('derived fields are computed from masked text', () => {
  const shaped = SECRET_CORPUS.filter(s => !['email', 'phone', 'rrn', 'card', 'home'].includes(s.kind) && !s.value.includes('\n'));

  it('no signature key holds a secret, in any letter case', () => {
    assert.ok(shaped.length > 40, 'corpus present');
    for (const s of shaped) {
      const raw = `Error: request failed: ${s.context.split('\n')[0]}`;
      for (const key of [normaliseSignature(raw).key, signatureKeyOf(raw) ?? '', normaliseSignature(s.context.split('\n')[0], 'node').key]) {
        const probe = s.value.slice(0, 16).toLowerCase();
        if (s.context.split('\n')[0].includes(s.value)) assert.ok(!key.toLowerCase().includes(probe), `${s.kind} in key ${key}`);
      }
    }
  });

  it('maskRecord also removes a lower-cased copy a caller derived from the raw text', () => {
    const aws = SECRET_CORPUS.find(s => s.kind === 'aws-access-key')!;
    const lesson = { errorText: `InvalidAccessKeyId: ${aws.context}`, errorSignature: `node:-:${aws.context.toLowerCase()}`, tags: [aws.value.toLowerCase()] };
    const out = maskRecord(lesson);
    assert.ok(!JSON.stringify(out).toLowerCase().includes(aws.value.toLowerCase()), JSON.stringify(out));
    assert.match(out.errorSignature, /«secret:aws-access-key»/);
    assert.ok(lesson.errorSignature.includes(aws.value.toLowerCase()), 'input not mutated');
  });
});
