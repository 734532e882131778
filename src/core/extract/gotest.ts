// Go at run time and under test. go test: "--- FAIL: TestName (0.00s)" heads a failure; the indented "file_test.go:7: message" below
// it is what the test reported (code FAIL: a test failure, not a compile error of the same tool). The "FAIL", "FAIL\tpkg\t0.01s" and "ok  pkg" lines after are a summary.
import { RANK } from './types';
import type { Matcher } from './scan';

const GO_PANIC = /^panic: (.+?)(?: \[recovered\])?$/;
const GO_FRAME_FILE = /^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;
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

/** A Go program's "panic: message": the runtime error, located at the first frame's file under `goroutine N [running]:`. */
export const goPanic: Matcher = {
  name: 'gopanic',
  match({ i, t }, s) {
    const m = GO_PANIC.exec(t);
    if (!m) return false;
    const frames: string[] = [];
    let file: string | undefined, line: number | undefined;
    for (let k = i + 1; k < s.lines.length && k <= i + 24; k++) {
      const f = GO_FRAME_FILE.exec(s.lines[k]);
      if (f) { frames.push(s.lines[k].trim()); if (!file) { file = f[1].replace(/^.*\//, ''); line = +f[2]; } }
    }
    s.push(s.make(i, s.programTool ?? 'go', RANK.runtime, { code: 'panic', message: m[1].replace(/^runtime error: /, ''), stack: frames, file, line }));
    return true;
  },
};
