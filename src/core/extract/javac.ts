// javac: "File.java:12: error: message", with the missing symbol named a few lines below.
import { RANK } from './types';
import type { Matcher } from './scan';

const JAVAC = /^(\S[^:\n]*?\.java):(\d+): error: (.*)$/;

export const javac: Matcher = {
  name: 'javac',
  match({ i, t }, s) {
    const m = JAVAC.exec(t);
    if (!m) return false;
    s.push(s.make(i, 'javac', RANK.compiler, { message: withJavaSymbol(s.lines, i, m[3]), file: m[1], line: +m[2] }));
    return true;
  },
};

/** javac prints "symbol: variable x" two lines below "cannot find symbol"; it names what is missing. */
function withJavaSymbol(lines: string[], i: number, msg: string): string {
  if (!/^cannot find symbol|^package .* does not exist/.test(msg)) return msg;
  for (let k = i + 1; k < lines.length && k <= i + 4; k++) {
    const m = /^\s+symbol:\s+(.*)$/.exec(lines[k]);
    if (m) return `${msg}\nsymbol: ${m[1].trim()}`;
  }
  return msg;
}
