// gcc/g++/clang: "file:line[:col]: error: ..." and the driver's own "gcc: fatal error: ..." (no
// location; ranked just below a located error, which is the more useful one when both appear).
import { RANK } from './types';
import type { Matcher } from './scan';

const GCC = /^(\S[^:\n]*?):(\d+):(?:(\d+):)? (fatal error|error): (.*)$/;
const GCC_DRIVER = /^(?:\S*\/)?(?:gcc|g\+\+|cc|c\+\+|clang\+?\+?|cc1(?:plus)?)(?:-\d+)?: (fatal error|error): (.*)$/;

export const gcc: Matcher = {
  name: 'gcc',
  match({ i, t }, s) {
    let m: RegExpExecArray | null;
    if ((m = GCC.exec(t))) {
      s.push(s.make(i, 'gcc', RANK.compiler, { message: m[5], file: m[1], line: +m[2], column: m[3] ? +m[3] : undefined }));
      return true;
    }
    if ((m = GCC_DRIVER.exec(t))) {
      s.push(s.make(i, 'gcc', RANK.compiler + 5, { message: m[2] }));
      return true;
    }
    return false;
  },
};
