// mocha: a failure is listed as "  1) suite / test:" with the assertion error on the lines below. The
// head itself is skipped; the error line below it is matched by the node matcher, which names mocha
// as the tool when it sees this head above it (testRunner.inTestRunner).
import { MOCHA_FAIL_HEAD } from './testRunner';
import type { Matcher } from './scan';

export const mocha: Matcher = {
  name: 'mocha',
  match({ raw }) {
    return MOCHA_FAIL_HEAD.test(raw) && /^\s{2}\d+\) /.test(raw);
  },
};
