// The last resort: "ERROR: x", "[error] x", "FATAL: x", yarn's "error Command …" from any tool, and a
// line its logger marked as an error (Maven's `[ERROR] x`, the marker already taken off by Scan). Ranked
// below every tool-specific error, so it only wins when nothing better was found; named for the program
// that printed it when the command says (git's "fatal: …", pip's "error: …"), never guessed. A line that
// tells the reader where to look or how to rerun ("-> [Help 1]", "Re-run Maven using the -X switch",
// "info Visit https://…") is help, never the error, whatever level it was logged at.
import { RANK } from './types';
import type { Matcher } from './scan';

const GENERIC = /^\s*(?:\[?(?:ERROR|FATAL|error|fatal|Error)\]?[:!]\s+)(.+)$/;
/** A severity word without a colon, as yarn and others print it: "error Command "build" not found.". */
const BARE_SEVERITY = /^(?:error|ERROR) (?=["'`A-Z])(.+)$/;

/** Where to look or what to run next: said around an error, never the error. */
export const HELP_LINE = /^(?:->\s*\[Help \d+\]|\[Help \d+\]|To see the full|Re-?run (?:\S+ )?(?:with|using)\b|For more information|Please refer to|(?:info |hint: |help: |note: )|See (?:the )?(?:log|output|above|https?:)|Visit https?:|Run with --)/i;

export const generic: Matcher = {
  name: 'generic',
  match({ i, raw, t }, s) {
    if (GENERIC.test(raw) || BARE_SEVERITY.test(raw)) {
      s.push(s.make(i, s.programTool ?? 'generic', RANK.generic, { message: t }));
      return true;
    }
    if (s.loggedErrors.has(i) && !HELP_LINE.test(t) && /[\p{L}]/u.test(t)) {
      s.push(s.make(i, s.programTool ?? 'generic', RANK.generic, { message: t }));
      return true;
    }
    return false;
  },
};
