import * as assert from 'assert';
import { MAX_LINE_BYTES, parseImportLine, toExportLine } from '../../src/core/importFormat';
import { mean } from '../../src/core/trust';

const NOW = Date.UTC(2026, 5, 1);
const ok = (line: string, trusted = false) => {
  const r = parseImportLine(line, 1, NOW, { trusted });
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r.memory;
};
const err = (line: string) => {
  const r = parseImportLine(line, 1, NOW);
  assert.ok(!r.ok, `expected an error for ${line.slice(0, 80)}`);
  return r.error;
};

describe('import format', () => {
  it('parses a lesson: raw error text kept, normalised key computed, id kept', () => {
    const m = ok(JSON.stringify({
      kind: 'lesson', id: 'L-1', errorSignature: "src/a.ts(1,1): error TS2322: Type 'string' is not assignable to type 'number'.",
      rootCause: 'strings from the form', fixApproach: 'Number()', scope: ['packages/web/**'], stack: ['typescript'],
      errorCategory: 'type', tags: ['forms'], createdAt: '2026-01-02T03:04:05Z',
    }));
    assert.strictEqual(m.kind, 'lesson');
    if (m.kind !== 'lesson') return;
    assert.strictEqual(m.id, 'L-1');
    assert.ok(m.errorText.includes("Type 'string'"));
    assert.ok(m.errorSignature.includes('TS2322') && !m.errorSignature.includes("'string'"), m.errorSignature);
    assert.deepStrictEqual(m.scope, ['packages/web/**']);
    assert.strictEqual(m.createdAt, Date.parse('2026-01-02T03:04:05Z'));
    assert.strictEqual(m.source, 'imported');
  });

  it('turns a numeric confidence into a weak Beta with that mean', () => {
    const m = ok(JSON.stringify({ errorSignature: 'x failed', rootCause: 'y', confidence: 0.4 }));
    assert.ok(Math.abs(mean(m.confidence) - 0.4) < 1e-9);
    assert.ok(m.confidence.alpha + m.confidence.beta <= 4, 'a number in a file is weak evidence');
  });

  it('never lets an untrusted line start above observation, or claim a long track record', () => {
    const m = ok(JSON.stringify({ errorSignature: 'x failed', rootCause: 'y', maturity: 'constraint', confidence: { alpha: 500, beta: 1 } }));
    assert.strictEqual(m.maturity, 'observation');
    assert.ok(m.confidence.alpha + m.confidence.beta <= 4);
    const t = ok(JSON.stringify({ errorSignature: 'x failed', rootCause: 'y', maturity: 'rule', confidence: { alpha: 5, beta: 1 } }), true);
    assert.strictEqual(t.maturity, 'rule');
    assert.deepStrictEqual(t.confidence, { alpha: 5, beta: 1 });
  });

  it('parses facts and episodes', () => {
    const f = ok(JSON.stringify({ kind: 'fact', content: 'We use pnpm', type: 'preference' }));
    assert.strictEqual(f.kind === 'fact' && f.type, 'preference');
    const e = ok(JSON.stringify({ kind: 'episode', trigger: 'npm test failed', outcome: 'success', steps: [{ action: 'ran', result: 'ok' }], startedAt: 5, endedAt: 25 }));
    assert.ok(e.kind === 'episode' && e.duration === 20 && e.steps.length === 1);
  });

  it('reports wrong types and missing fields, naming the field', () => {
    assert.match(err(JSON.stringify({ kind: 'lesson', errorSignature: 'e', rootCause: 5 })), /rootCause.*string/);
    assert.match(err(JSON.stringify({ kind: 'lesson', rootCause: 'r' })), /errorSignature/);
    assert.match(err(JSON.stringify({ kind: 'lesson', errorSignature: 'e', rootCause: 'r', scope: 'a', tags: [1] })), /tags/);
    assert.match(err(JSON.stringify({ kind: 'fact' })), /content/);
    assert.match(err(JSON.stringify({ kind: 'spell', content: 'x' })), /kind/);
    assert.match(err(JSON.stringify({ errorSignature: 'e', rootCause: 'r', confidence: 3 })), /confidence/);
    assert.match(err(JSON.stringify({ errorSignature: 'e', rootCause: 'r', createdAt: 'yesterday-ish' })), /createdAt/);
    assert.match(err(JSON.stringify({ errorSignature: 'e', rootCause: 'r', id: 'a b/c' })), /id/);
    assert.match(err('[1,2]'), /object/);
    assert.match(err('{"kind":'), /JSON/);
  });

  it('refuses prototype-polluting keys anywhere in the line', () => {
    assert.match(err('{"__proto__":{"polluted":true},"kind":"fact","content":"a"}'), /__proto__/);
    assert.match(err('{"kind":"fact","content":"a","owner":{"constructor":{"prototype":{"x":1}}}}'), /constructor/);
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses a line over 1 MB without parsing it', () => {
    const huge = JSON.stringify({ kind: 'fact', content: 'x'.repeat(MAX_LINE_BYTES + 10) });
    assert.match(err(huge), /larger than 1 MB/);
  });

  it('export lines parse back to the same memory (trusted round trip)', () => {
    const m = ok(JSON.stringify({
      kind: 'lesson', id: 'L-9', errorSignature: "error[E0382]: borrow of moved value: `v`", rootCause: 'moved into closure',
      fixApproach: 'clone first', scope: ['crates/**'], tags: ['rust'], confidence: { alpha: 3, beta: 2 }, maturity: 'pattern',
      importance: 0.7, check: { glob: 'crates/**/*.rs', pattern: 'move \\|' },
    }), true);
    const back = ok(toExportLine(m), true);
    assert.deepStrictEqual(back, m);
  });
});
