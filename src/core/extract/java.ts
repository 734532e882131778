// The JVM at run time: 'Exception in thread "main" java.lang.X: message' and its "at ..." frames; the
// code is the exception's simple name, the location the innermost frame's "(File.java:n)".
import { RANK } from './types';
import type { Matcher } from './scan';

const JAVA_EXC = /^Exception in thread "[^"]*" ((?:[\w$]+\.)*[\w$]+)(?:: (.*))?$/;

/**
 * A thrown exception printed on its own, by its qualified name, with its "at …" frames below: a test
 * runner's report (`org.opentest4j.AssertionFailedError: expected: <9000> but was: <1000>` under Surefire),
 * Kotlin's or Scala's uncaught exception. The frames are what makes it a throw rather than a log line.
 */
const QUALIFIED_EXC = /^((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception|Failure|Throwable))(?:: (.*))?$/;

export const java: Matcher = {
  name: 'java',
  match({ i, t }, s) {
    const m = JAVA_EXC.exec(t) ?? QUALIFIED_EXC.exec(t);
    if (!m) return false;
    const frames = s.frames(i + 1, /^\s+at /);
    if (!frames.length && !t.startsWith('Exception in thread')) return false;
    // The project's own frame says where: the runtime's and the test framework's frames come first.
    const own = frames.find(f => !LIBRARY_FRAME.test(f)) ?? frames[0];
    const loc = own ? /\(([^():]+):(\d+)\)$/.exec(own) : null;
    const message = m[2] ? `${m[1]}: ${m[2]}` : m[1];
    const test = failingTestAbove(s.lines, i);
    s.push(s.make(i, 'java', RANK.runtime, { code: m[1].split('.').pop(), message: test ? `${message}\ntest: ${test}` : message, stack: frames, file: loc?.[1], line: loc ? +loc[2] : undefined }));
    return true;
  },
};

const LIBRARY_FRAME = /^at (?:java|javax|jdk|sun|kotlin|kotlinx|scala|org\.junit|junit|org\.opentest4j|org\.apache\.maven|org\.gradle|org\.testng)\./;

/** The test whose failure this exception is: Surefire's "pkg.Class.method -- Time elapsed … <<< FAILURE!" head just above it. */
function failingTestAbove(lines: string[], i: number): string | undefined {
  for (let k = i - 1; k >= 0 && k >= i - 3; k--) {
    const m = /^([\w$.]+)\.([\w$]+) -- Time elapsed: .* <<< (?:FAILURE|ERROR)!$/.exec(lines[k].trim());
    if (m) return `${m[1].split('.').pop()}.${m[2]}`;
  }
  return undefined;
}
