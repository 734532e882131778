// gcc/g++/clang: "file:line[:col]: error: ..." on a C-family file and the driver's own "gcc: fatal
// error: ..." (no location; ranked just below a located error, which is the more useful one when both
// appear). The same shape on another file (mypy's "app.py:3: error: ...") is not gcc's: extract/located.ts
// names its tool from the command that printed it.
import { RANK } from './types';
import type { Matcher } from './scan';

const GCC = /^(\S[^:\n]*?):(\d+):(?:(\d+):)? (fatal error|error): (.*)$/;
const GCC_DRIVER = /^(?:\S*\/)?(?:gcc|g\+\+|cc|c\+\+|clang\+?\+?|cc1(?:plus)?)(?:-\d+)?: (fatal error|error): (.*)$/;

/** Sources and headers a C or C++ compiler reads (and the linker-script and assembler files it is handed). */
const C_FAMILY = /\.(?:c|h|cc|cp|cpp|cxx|c\+\+|hh|hpp|hxx|h\+\+|ipp|tpp|inl|m|mm|i|ii|s|S|cu|cuh)$|(?:^|\/)<[\w-]+>$/;

export const gcc: Matcher = {
  name: 'gcc',
  match({ i, t }, s) {
    let m: RegExpExecArray | null;
    if ((m = GCC.exec(t)) && C_FAMILY.test(m[1])) {
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
