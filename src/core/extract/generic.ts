// The last resort: "ERROR: x", "[error] x", "FATAL: x" from any tool. Ranked below every tool-specific
// error, so it only wins when nothing better was found.
import { RANK } from './types';
import type { Matcher } from './scan';

const GENERIC = /^\s*(?:\[?(?:ERROR|FATAL|error|fatal|Error)\]?[:!]\s+)(.+)$/;

export const generic: Matcher = {
  name: 'generic',
  match({ i, raw, t }, s) {
    if (!GENERIC.test(raw)) return false;
    s.push(s.make(i, 'generic', RANK.generic, { message: t }));
    return true;
  },
};
