// go test: "--- FAIL: TestName (0.00s)" heads a failure; the indented "file_test.go:7: message" below
// it is what the test reported (code FAIL: a test failure, not a compile error of the same tool). The "FAIL", "FAIL\tpkg\t0.01s" and "ok  pkg" lines after are a summary.
import { RANK } from './types';
import type { Matcher } from './scan';

const GO_FAIL_HEAD = /^\s*--- FAIL: (\S+)(?: \([\d.]+s\))?$/;
const GO_REPORT = /^\s+([^\s:]+_test\.go):(\d+): (\S.*)$/;

export const goTest: Matcher = {
  name: 'gotest',
  match({ i, t }, s) {
    const head = GO_FAIL_HEAD.exec(t);
    if (!head) return false;
    for (let k = i + 1; k < s.lines.length && k <= i + 4; k++) {
      const m = GO_REPORT.exec(s.lines[k]);
      if (!m) continue;
      s.push(s.make(k, s.programTool ?? 'go', RANK.test, { code: 'FAIL', message: `${m[3].trim()}\ntest: ${head[1]}`, file: m[1], line: +m[2] }, i));
      return k;
    }
    return true;
  },
};
