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
