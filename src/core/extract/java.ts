// The JVM at run time: 'Exception in thread "main" java.lang.X: message' and its "at ..." frames; the
// code is the exception's simple name, the location the innermost frame's "(File.java:n)".
import { RANK } from './types';
import type { Matcher } from './scan';

const JAVA_EXC = /^Exception in thread "[^"]*" ((?:[\w$]+\.)*[\w$]+)(?:: (.*))?$/;

export const java: Matcher = {
  name: 'java',
  match({ i, t }, s) {
    const m = JAVA_EXC.exec(t);
    if (!m) return false;
    const frames = s.frames(i + 1, /^\s+at /);
    const loc = frames.length ? /\(([^():]+):(\d+)\)$/.exec(frames[0]) : null;
    s.push(s.make(i, 'java', RANK.runtime, { code: m[1].split('.').pop(), message: m[2] ? `${m[1]}: ${m[2]}` : m[1], stack: frames, file: loc?.[1], line: loc ? +loc[2] : undefined }));
    return true;
  },
};
