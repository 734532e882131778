// Summary lines that only say something else failed (cargo's "could not compile", make's "*** Error",
// CI's "exit code", "N errors generated", tsc's "Found N errors"). They are kept, flagged as wrappers,
// so that a transcript with nothing else still yields an error, but they never win over a real one.
import { RANK } from './types';
import type { Matcher } from './scan';

const WRAPPERS: RegExp[] = [
  /^error: could not compile `[^`]+`/,
  /^error: aborting due to (?:\d+ |)previous errors?/,
  /^make(?:\[\d+\])?: \*\*\* .*Error \d+/,
  /^Error: Process completed with exit code \d+/,
  /^(?:error )?Command failed with exit code \d+/,
  /^\d+ errors? generated\.$/,
  /^Found \d+ errors?(?: in \d+ files?)?\.?$/,
  /^compilation terminated\.$/,
  /^\d+ errors?$/,
];

export const wrappers: Matcher = {
  name: 'wrapper',
  match({ i, t }, s) {
    if (!WRAPPERS.some(w => w.test(t))) return false;
    s.push(s.make(i, wrapperTool(t), RANK.wrapper, { message: t, wrapper: true }));
    return true;
  },
};

function wrapperTool(t: string): string {
  if (t.startsWith('error: could not compile') || t.startsWith('error: aborting')) return 'rustc';
  if (t.startsWith('make')) return 'make';
  if (/^Found \d+ error/.test(t)) return 'tsc';
  if (/errors? generated|compilation terminated/.test(t)) return 'gcc';
  return 'generic';
}
