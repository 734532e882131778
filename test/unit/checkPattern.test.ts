import * as assert from 'assert';
import { RE2JS } from 're2js';
import { checkMatches, compileCheck, MAX_SCAN_CHARS, validateCheck } from '../../src/core/checkPattern';
import { parseImportLine } from '../../src/core/importFormat';

const spans = (pattern: string, text: string, flags?: string) =>
  checkMatches({ pattern, flags }, text).map(h => text.slice(h.start, h.end));

describe('constraint checks: RE2, linear time', () => {
  // The patterns: seconds on a backtracking engine at 28 characters, exponential beyond. On RE2
  // the work is linear in the text by construction; what a test can check is that they run on RE2 and
  // give the right answer on the very inputs that froze the old engine.
  it('runs the catastrophic patterns of issue 10 on RE2, with the right answers', () => {
    for (const p of ['(x+x+)+y', '(a|a)*b', '\\s*x']) {
      const c = compileCheck(p);
      assert.ok(c.ok, p);
      assert.ok(c.ok && c.re instanceof RE2JS, `${p} is compiled by RE2`);
    }
    assert.deepStrictEqual(checkMatches({ pattern: '(x+x+)+y' }, 'x'.repeat(28)), []);
    assert.deepStrictEqual(spans('(x+x+)+y', `${'x'.repeat(28)}y`), [`${'x'.repeat(28)}y`]);
    assert.deepStrictEqual(checkMatches({ pattern: '(a|a)*b' }, 'a'.repeat(28)), []);
    assert.deepStrictEqual(spans('(a|a)*b', `${'a'.repeat(28)}b`), [`${'a'.repeat(28)}b`]);
    const spaces = ' '.repeat(40_000);
    assert.deepStrictEqual(checkMatches({ pattern: '\\s*x' }, spaces), []);
    assert.deepStrictEqual(checkMatches({ pattern: '\\s*x' }, `${spaces}x`), [{ start: 0, end: 40_001 }]);
    // Ten times the text for the quadratic one: still one answer, no hang (the old engine: ~70 s).
    assert.deepStrictEqual(checkMatches({ pattern: '\\s*x' }, ' '.repeat(400_000)), []);
  });

  it('refuses what RE2 cannot run, at creation and at import, saying why', () => {
    const cases: [string, RegExp][] = [
      ['(a)\\1', /backreference \(\\1\).*linear-time engine \(RE2\)/],
      ['(?<n>a)\\k<n>', /named backreference/],
      ['foo(?=bar)', /lookahead/],
      ['foo(?!bar)', /lookahead/],
      ['(?<=a)b', /lookbehind/],
      ['(?<!a)b', /lookbehind/],
    ];
    for (const [pattern, why] of cases) {
      assert.match(validateCheck({ glob: '**', pattern })!, why, pattern);
      const r = parseImportLine(JSON.stringify({ errorSignature: 'E1', fixApproach: 'f', check: { glob: '**', pattern } }), 1, 0);
      assert.ok(!r.ok && /"check" is not usable/.test(r.error) && why.test(r.error), pattern);
    }
    // RE2's own limits, without quoting the user's pattern back.
    const big = validateCheck({ glob: '**', pattern: 'a{1,5000}' })!;
    assert.match(big, /RE2.*invalid repeat count$/);
    assert.ok(!big.includes('5000'));
    // A "\1" inside a class or an escaped "\(?=" is not a backreference or a lookahead.
    assert.strictEqual(validateCheck({ glob: '**', pattern: '\\(?=x' }), undefined);
    assert.strictEqual(validateCheck({ glob: '**', pattern: '[(?=]x' }), undefined);
    // Invalid JavaScript, empty matches and bad flags are refused as before.
    assert.match(validateCheck({ glob: '**', pattern: '(' })!, /invalid regular expression/);
    assert.match(validateCheck({ glob: '**', pattern: 'x*' })!, /empty/);
    assert.match(validateCheck({ glob: '**', pattern: 'x', flags: 'g' })!, /flags/);
  });

  it('keeps the i, m, s and u semantics of JavaScript', () => {
    assert.deepStrictEqual(spans('todo', 'TODO Todo todo', 'i'), ['TODO', 'Todo', 'todo']);
    assert.deepStrictEqual(spans('^a$', 'b\na\nc'), []);
    assert.deepStrictEqual(spans('^a$', 'b\na\nc', 'm'), ['a']);
    assert.deepStrictEqual(spans('a.b', 'a\nb'), []);
    assert.deepStrictEqual(spans('a.b', 'a\nb', 's'), ['a\nb']);
    assert.deepStrictEqual(spans('\\u{1F600}', 'x😀y', 'u'), ['😀']);
    assert.deepStrictEqual(spans('(?<lib>lodash)', 'from "lodash"'), ['lodash']);
    assert.deepStrictEqual(spans('\\bconsole\\.log\\b', 'console.log(x); myconsole.logger'), ['console.log']);
  });

  it('reports offsets in the editor\'s units (UTF-16) after astral characters', () => {
    const text = '😀 TODO 😀 TODO';
    const hits = checkMatches({ pattern: 'TODO' }, text);
    assert.deepStrictEqual(hits.map(h => h.start), [3, 11]);
    assert.deepStrictEqual(hits.map(h => text.slice(h.start, h.end)), ['TODO', 'TODO']);
  });

  it('bounds the work per document: hits per check and text scanned', () => {
    assert.strictEqual(checkMatches({ pattern: 'a' }, 'a'.repeat(500)).length, 50);
    assert.strictEqual(checkMatches({ pattern: 'a' }, 'a'.repeat(500), 7).length, 7);
    assert.strictEqual(checkMatches({ pattern: 'needle' }, `needle${' '.repeat(MAX_SCAN_CHARS)}`).length, 0);
    assert.strictEqual(checkMatches({ pattern: 'needle' }, `needle${' '.repeat(MAX_SCAN_CHARS - 6)}`).length, 1);
  });
});
