// What the test runners print around a failure: the heads that name the failing test (mocha "1) name",
// jest "● name", vitest "FAIL file > name", pytest "____ name ____"), used to tell which runner an
// assertion error came from and to tell one failing test from another.

export const MOCHA_FAIL_HEAD = /^\s+(\d+)\) (.*)$/;
export const JEST_FAIL_HEAD = /^\s*● (.*)$/;
export const VITEST_FAIL_HEAD = /^\s*FAIL\s+\S+ > (.+)$/;

/** The runner whose failure head is just above line i, if any. */
export function inTestRunner(lines: string[], i: number): string | undefined {
  for (let k = i - 1; k >= 0 && k >= i - 8; k--) {
    const l = lines[k];
    if (MOCHA_FAIL_HEAD.test(l) && /^\s{2}\d+\) /.test(l)) return 'mocha';
    if (JEST_FAIL_HEAD.test(l)) return 'jest';
    if (VITEST_FAIL_HEAD.test(l)) return 'vitest';
  }
  return undefined;
}

/**
 * The failing test's name (jest "● name", vitest "FAIL file > name", mocha "1) name", pytest's
 * "____ name ____" header) and jest's Expected/Received lines, appended to a test failure's message:
 * they are what tells one failing test from another.
 */
export function withTest(lines: string[], message: string, i: number): string {
  let name: string | undefined;
  for (let k = i; k >= 0 && k >= i - 40 && !name; k--) {
    const l = lines[k];
    const m = (k >= i - 12 ? JEST_FAIL_HEAD.exec(l) ?? VITEST_FAIL_HEAD.exec(l) ?? /^\s{2}\d+\) (.+)$/.exec(l) : null) ?? /^_{3,} (.+?) _{3,}$/.exec(l);
    if (m && m[1].trim() !== message.trim()) name = m[1].trim().replace(/:$/, '');
  }
  const extra: string[] = [];
  if (name) extra.push(`test: ${name}`);
  for (let k = i + 1; k < lines.length && k <= i + 12; k++) {
    const m = /^\s*(Expected|Received)(?: value)?: (.+)$/.exec(lines[k]);
    if (m) extra.push(`${m[1]}: ${m[2].trim()}`);
  }
  return extra.length && !message.includes('\n') ? `${message}\n${extra.join('\n')}` : message;
}

// The lines in which a test runner names a failing test, whatever else it prints: libtest (cargo) "test
// a::b ... FAILED" and "---- a::b stdout ----", surefire's "[ERROR] pkg.Class.method -- Time elapsed ...
// <<< FAILURE!" head, its "[ERROR]   Class.method:12 message" summary and JUnit 4's "method(pkg.Class)",
// go's "--- FAIL: Name", pytest's "FAILED path::name", unittest's "FAIL: name (mod.Class.name)". A JVM test is named Class.method (no package): the
// head and the summary spell it with and without one.
const FAILING_TEST: { re: RegExp; name: (m: RegExpExecArray) => string }[] = [
  { re: /^test (\S{1,200}) \.\.\. FAILED$/, name: m => m[1] },
  { re: /^---- (\S{1,200}) stdout ----$/, name: m => m[1] },
  { re: /^\[ERROR\] ([\w$.]{1,200}\.[\w$]{1,200}) -- Time elapsed: .{1,40} <<< (?:FAILURE|ERROR)!$/, name: m => jvmTest(m[1]) },
  { re: /^\[ERROR\]\s+([\w$.]{1,200}\.[\w$]{1,200}):\d+ /, name: m => jvmTest(m[1]) },
  { re: /^\[ERROR\]\s+(\w{1,200})\(([\w$.]{1,200})\)/, name: m => jvmTest(`${m[2]}.${m[1]}`) },
  { re: /^--- FAIL: (\S{1,200})/, name: m => m[1] },
  { re: /^FAILED \S*?::(\S{1,200})/, name: m => m[1] },
  // Python's unittest: "FAIL: test_x (pkg.mod.Class.test_x)" (3.11 on; "(pkg.mod.Class)" before), and
  // "ERROR: …" for a test that raised.
  { re: /^(?:FAIL|ERROR): (\w{1,200}) \(([\w.]{1,300})\)$/, name: m => unittestName(m[1], m[2]) },
];

/** unittest's test as Class.method, whether the parenthesis ends with the method or with the class. */
function unittestName(method: string, path: string): string {
  const parts = path.split('.');
  if (parts[parts.length - 1] === method) parts.pop();
  return `${parts[parts.length - 1]}.${method}`;
}
const MAX_FAILING_TESTS = 12;

function jvmTest(qualified: string): string {
  return qualified.split('.').slice(-2).join('.');
}

/** The failing tests a run names, in order of first mention, bounded. */
export function failingTests(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const t = l.trimEnd();
    for (const p of FAILING_TEST) {
      const m = p.re.exec(t);
      if (!m) continue;
      const name = p.name(m);
      if (!out.includes(name)) out.push(name);
      break;
    }
    if (out.length >= MAX_FAILING_TESTS) break;
  }
  return out;
}
