// The linker: "undefined reference to `x'", "multiple definition of", "cannot find -lx", and gcc's
// "collect2: error: ld returned 1 exit status", which only reports that the link failed (a wrapper).
import { RANK } from './types';
import type { Matcher } from './scan';

const LD_UNDEF = /^(?:(\S[^:\n]*?):)?(?:\([^)\n]*\):)? ?(undefined reference to [`'‘].*)$/;
const LD_OTHER = /^(?:\/\S*\/)?ld(?:\.\w+)?: (?:(\S[^:\n]*?): )?(.*(?:cannot find -l|multiple definition of|undefined reference to).*)$/;
const COLLECT2 = /^collect2: error: ld returned \d+ exit status$/;

export const ld: Matcher = {
  name: 'ld',
  match({ i, t }, s) {
    if (COLLECT2.test(t)) {
      s.push(s.make(i, 'ld', RANK.wrapper, { message: t, wrapper: true }));
      return true;
    }
    const m = LD_OTHER.exec(t) ?? LD_UNDEF.exec(t);
    if (!m) return false;
    // Keep "multiple definition of `x'" and drop the object-file offsets and "; first defined here".
    const at = m[2].search(/undefined reference to|multiple definition of|cannot find -l/);
    const msg = (at > 0 ? m[2].slice(at) : m[2]).replace(/;\s.*$/, '');
    const file = m[1] && !/(?:^|\/)ld$/.test(m[1]) && !/\.o$/.test(m[1]) ? m[1] : undefined;
    s.push(s.make(i, 'ld', RANK.compiler, { message: msg, file }));
    return true;
  },
};
