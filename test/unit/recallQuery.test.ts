// What a recall query is about: its errors' signatures, never a summary line beside them (issue 17, class 2:
// "1 error" kept as a query's signature matched a lesson keyed by the same count, for any javac error).
import * as assert from 'assert';
import { querySignatures } from '../../src/core/recallQuery';
import { normaliseSignature, signatureOf } from '../../src/core/signature';
import { fixture, runFixture } from '../fixtures/tool-output';

describe('recall query signatures', () => {
  it('javac\'s "1 error" is not a signature of a query that has the error itself', () => {
    const out = fixture('javac', 'javac-final-reassign', 'a');
    assert.match(out, /^1 error$/m);
    const keys = [...querySignatures(out).keys()];
    assert.ok(keys.includes(signatureOf(out)!.key));
    assert.ok(!keys.includes(normaliseSignature('1 error', 'javac').key) && !keys.some(k => /:\d+ errors?$|<n> error$/.test(k)), keys.join(' | '));
  });

  it('mypy\'s "Found 2 errors" neither; a summary alone is still what the query is about', () => {
    const keys = [...querySignatures(runFixture('mypy-incompatible').text).keys()];
    assert.ok(!keys.some(k => /found <n> error/.test(k)), keys.join(' | '));
    assert.strictEqual(querySignatures('Found 1 error in 1 file (checked 1 source file)').size, 1);
  });
});
