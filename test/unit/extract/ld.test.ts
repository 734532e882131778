import * as assert from 'assert';
import { extractErrors } from '../../../src/core/extract';
import { fixture } from '../../fixtures/tool-output';
import { describeRealOutput } from './realOutput';

describeRealOutput('ld', {
  'ld-missing-libm.a': { tool: 'ld', message: /^undefined reference to `sqrt'$/, file: 'sim.c' },
  'ld-multiple-definition.a': { tool: 'ld', message: /^multiple definition of `score'$/ },
});

describe('extract: ld', () => {
  it('reports the linker wrapper and the rustc/cargo summary as wrappers, after the real errors', () => {
    const errs = extractErrors(fixture('ld', 'ld-missing-libm', 'b'));
    assert.deepStrictEqual(errs.map(e => [e.message, !!e.wrapper]), [
      ["undefined reference to `pow'", false],
      ["undefined reference to `floor'", false],
      ['collect2: error: ld returned 1 exit status', true],
    ]);
  });
});
