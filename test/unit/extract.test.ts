// What holds across tools: every recorded output yields a root error, noise does not change it, and
// the fallbacks (editor hints, the file at hand, generic lines). Each tool's own cases are in
// test/unit/extract/<tool>.test.ts, beside its matcher in src/core/extract/<tool>.ts.
import * as assert from 'assert';
import { primaryError } from '../../src/core/extract';
import { fixture, readFixtures } from '../fixtures/tool-output';

describe('extract: real tool output', () => {
  it('finds an error in every recorded output, and it is never only the wrapper', () => {
    const all = readFixtures();
    assert.ok(all.length >= 300, `fixtures: ${all.length}`);
    for (const f of all) {
      const e = primaryError(f.text);
      assert.ok(e, `${f.name}: nothing found`);
      assert.ok(!e.wrapper, `${f.name}: picked wrapper "${e.message}"`);
      assert.notStrictEqual(e.tool, 'generic', `${f.name}: fell back to generic for "${e.message}"`);
    }
  });

  it('in a noisy transcript (npm run / make / cargo + progress + ELIFECYCLE) the root error is the one from the plain run', () => {
    for (const f of readFixtures().filter(x => x.variant === 'noisy')) {
      const plain = primaryError(fixture(f.tool, f.id, 'b'));
      const noisy = primaryError(f.text);
      assert.ok(plain && noisy, f.name);
      assert.strictEqual(noisy.message, plain.message, f.name);
      assert.strictEqual(noisy.code, plain.code, f.name);
    }
  });
});

describe('extract: formats without recorded fixtures', () => {
  it('editor diagnostics without a prefix use the source/code hint', () => {
    const e = primaryError("Type 'number' is not assignable to type 'string'.", { source: 'ts', code: 2322 })!;
    assert.deepStrictEqual([e.tool, e.code, e.message], ['tsc', 'TS2322', "Type 'number' is not assignable to type 'string'."]);
    const guessed = primaryError("Cannot find module 'zod' or its corresponding type declarations.")!;
    assert.deepStrictEqual([guessed.tool, guessed.code], ['tsc', 'TS2307']);
  });

  it('a bare exception line is Python when the file at hand is a .py file, Node otherwise', () => {
    const line = 'TypeError: can only concatenate str (not "int") to str';
    assert.strictEqual(primaryError(line, { file: 'app/main.py' })?.tool, 'python');
    assert.strictEqual(primaryError(line)?.tool, 'node');
  });

  it('generic fallback', () => {
    const g = primaryError('[12:00:01] starting\nFATAL: database "app" does not exist\n')!;
    assert.deepStrictEqual([g.tool, g.message], ['generic', 'FATAL: database "app" does not exist']);
  });
});
