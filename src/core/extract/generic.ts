// The last resort: "ERROR: x", "[error] x", "FATAL: x" from any tool. Ranked below every tool-specific
// error, so it only wins when nothing better was found; named for the program that printed it when the
// command says (git's "fatal: …", pip's "error: …"), never guessed.
import { RANK } from './types';
import type { Matcher } from './scan';

const GENERIC = /^\s*(?:\[?(?:ERROR|FATAL|error|fatal|Error)\]?[:!]\s+)(.+)$/;

export const generic: Matcher = {
  name: 'generic',
  match({ i, raw, t }, s) {
    if (!GENERIC.test(raw)) return false;
    s.push(s.make(i, s.programTool ?? 'generic', RANK.generic, { message: t }));
    return true;
  },
};
