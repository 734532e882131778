// jest: "● suite › test" followed by the failure's first line (an Error line under the head is the node
// matcher's, which names jest as the tool). Vitest's "FAIL file > test" heads have no matcher of their
// own: the error under them is the node matcher's, which names vitest (testRunner.inTestRunner).
import { RANK } from './types';
import { JEST_FAIL_HEAD, withTest } from './testRunner';
import type { Matcher } from './scan';

export const jest: Matcher = {
  name: 'jest',
  match({ i, raw }, s) {
    if (!JEST_FAIL_HEAD.test(raw)) return false;
    const body = jestBody(s.lines, i);
    if (body) s.push(s.make(i, 'jest', RANK.test, { message: withTest(s.lines, body, i), code: /Cannot find module/.test(body) ? 'MODULE_NOT_FOUND' : undefined }));
    return true;
  },
};

function jestBody(lines: string[], i: number): string | undefined {
  for (let k = i + 1; k < lines.length && k <= i + 6; k++) {
    const t = lines[k].trim();
    if (t) return t;
  }
  return undefined;
}
