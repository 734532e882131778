// pytest: a failure's block of "E   ..." lines (the first states it: an exception, an assert, a missing
// fixture) and the short summary's "FAILED path::test - message" (ranked below the E block it repeats).
import { RANK } from './types';
import { withTest } from './testRunner';
import type { Matcher } from './scan';

const PYTEST_E = /^E\s{2,}(.*)$/;
const PYTEST_FAILED = /^FAILED (\S+?)(?: - (.*))?$/;

export const pytest: Matcher = {
  name: 'pytest',
  match({ i, raw, t }, s) {
    let m: RegExpExecArray | null;
    if ((m = PYTEST_E.exec(raw))) {
      // pytest prints a failure as a block of "E   ..." lines; the first one states it.
      if (i > 0 && PYTEST_E.test(s.lines[i - 1])) return true;
      const body = m[1].trim();
      const e = /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))(?:: (.*))?$/.exec(body);
      if (e) s.push(s.make(i, 'python', RANK.runtime, { code: e[1].split('.').pop(), message: withTest(s.lines, body, i) }));
      else if (/^assert\b/.test(body)) s.push(s.make(i, 'pytest', RANK.test, { code: 'AssertionError', message: withTest(s.lines, body, i) }));
      else if (/^fixture '.*' not found$/.test(body)) s.push(s.make(i, 'pytest', RANK.test - 5, { code: 'fixture-not-found', message: body, ...pytestLocation(s.lines, i) }));
      else s.push(s.make(i, 'pytest', RANK.test, { message: body }));
      return true;
    }
    if ((m = PYTEST_FAILED.exec(t))) {
      s.push(s.make(i, 'pytest', RANK.test + 5, { message: m[2] ? m[2] : `FAILED ${m[1]}`, file: m[1].split('::')[0] }));
      return true;
    }
    return false;
  },
};

/** pytest names the test location on a "file /path, line N" line above the E block. */
function pytestLocation(lines: string[], i: number): { file?: string; line?: number } {
  for (let k = i - 1; k >= 0 && k >= i - 12; k--) {
    const m = /^file (.+), line (\d+)$/.exec(lines[k]);
    if (m) return { file: m[1], line: +m[2] };
  }
  return {};
}
