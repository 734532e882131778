// The details a signature normalises away, read from real tool output (test/fixtures/tool-output and the
// outputs recorded in the train traces): whatever quotes the tool prints them in, and only the ones that
// decide whether an old fix applies. A near miss (another member, type, module) is told apart; the same
// error in another function or on another class is not.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { compareDetails, errorDetails } from '../../src/core/errorDetails';
import { fixture, fixtureRoot, runFixture } from '../fixtures/tool-output';

/** The output of a train trace's first failing command (real output, recorded by make-traces.mjs). */
function traceOutput(name: string): string {
  const file = join(fixtureRoot(), '..', 'traces', `${name}.jsonl`);
  for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
    const e = JSON.parse(line) as { type: string; exitCode?: number; output?: string };
    if (e.type === 'command' && e.exitCode) return e.output ?? '';
  }
  throw new Error(`${name}: no failing command`);
}

const read = (raw: string) => errorDetails(raw).map(d => `${d.kind}:${d.value}`);
const same = (a: string, b: string) => compareDetails(errorDetails(b), errorDetails(a))?.same;

describe('error details in any quote style', () => {
  it('mypy and pyright: the types of a mismatch, in double quotes (one value may hold single quotes)', () => {
    assert.deepStrictEqual(read(runFixture('mypy-incompatible').text), ['type:Optional[int] → int', 'type:str → int']);
    assert.deepStrictEqual(read(runFixture('pyright-inventory').text), ['type:int | None → int', "type:Literal['none'] → int"]);
    assert.deepStrictEqual(read(traceOutput('mypy-return-value-summary')), ['type:str → int']);
    assert.deepStrictEqual(read(traceOutput('mypy-invariant-list-notes')), ['type:List[int] → List[float]']);
  });

  it('mypy: other types are a near miss; the same types passed to another function are the same problem', () => {
    const out = traceOutput('mypy-invariant-list-notes');
    assert.strictEqual(same(out, out.replace('"List[int]"', '"str"')), false);
    assert.strictEqual(same(out, out.replace('"mean"', '"total"')), true);
    const ret = traceOutput('mypy-return-value-summary');
    assert.strictEqual(same(ret, ret.replace('got "str"', 'got "float"')), false);
  });

  it('pylint: the missing member, whatever class holds it', () => {
    const out = traceOutput('pylint-no-member-score');
    assert.deepStrictEqual(read(out), ['symbol:prot']);
    assert.strictEqual(same(out, out.replace("'prot'", "'hots'")), false);
    assert.strictEqual(same(out, out.replace("'Config'", "'Client'")), true);
  });

  it('pytest: the fixture that is not found', () => {
    const a = fixture('pytest', 'pytest-fixture-not-found', 'a');
    assert.deepStrictEqual(read(a), ['symbol:db_session']);
    assert.strictEqual(same(a, fixture('pytest', 'pytest-fixture-not-found', 'b')), false);
  });

  it('modules: pyright\'s "x", flake8\'s and Go\'s unused imports, and Go\'s unquoted package path', () => {
    assert.deepStrictEqual(read('  /workspace/app.py:1:6 - error: Import "utils.textutil" could not be resolved (reportMissingImports)'), ['module:utils.textutil']);
    assert.deepStrictEqual(read(runFixture('flake8-unused-import').text), ['module:os']);
    assert.deepStrictEqual(read(runFixture('go-undefined-unused').text), ['module:os']);
    const go = runFixture('go-missing-module').text;
    assert.deepStrictEqual(read(go), ['module:example.com/missing/pkg']);
    assert.strictEqual(same(go, go.replaceAll('example.com/missing/pkg', 'github.com/google/uuid')), false);
  });

  it('a variable or a global that is missing is not a detail: its fix does not depend on which', () => {
    assert.deepStrictEqual(read(fixture('rustc', 'rust-value-out-of-scope', 'a')), []);
    assert.deepStrictEqual(read(fixture('ld', 'ld-missing-libm', 'a')), []);
  });
});
