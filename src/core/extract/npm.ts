// npm: a block of "npm ERR!" (npm 6-8) or "npm error" (npm 9+) lines folded into one error. A block
// that only says a lifecycle script failed (ELIFECYCLE) is a wrapper: the script's own error is the root.
import { RANK } from './types';
import type { Matcher, Scan } from './scan';

const NPM = /^npm (?:ERR!|error) ?(.*)$/;

export const npm: Matcher = {
  name: 'npm',
  match({ i, t }, s) {
    if (!NPM.test(t)) return false;
    return npmBlock(s, i);
  },
};

/** Folds an npm error block into one error: its code line plus the most telling message line; returns the block's last line. */
function npmBlock(s: Scan, i: number): number {
  let k = i;
  let code: string | undefined;
  const msgs: { text: string; at: number }[] = [];
  for (; k < s.lines.length; k++) {
    const m = NPM.exec(s.lines[k].trim());
    if (!m) break;
    const body = m[1].trim();
    const c = /^code (E[A-Z0-9]+)$/.exec(body);
    if (c) { code = code ?? c[1]; continue; }
    if (!body || /^(?:errno|syscall|path|A complete log|Log files|\s*\/|Please|While resolving|Found:|Could not resolve|Conflicting peer|Fix the upstream|this command with|to accept|See \/|For a full report|code \d+|signal|command (?:sh|failed)|\S+@\S+ \S+$)/.test(body) || /^[\s│]/.test(m[1]) || /^(?:node_modules\/|peer |dev |node_modules)/.test(body)) continue;
    msgs.push({ text: body, at: k });
  }
  const lifecycle = code === 'ELIFECYCLE' || (!code && msgs.some(x => /^Lifecycle script .* failed|^Failed at the .* script|^(?:\S+@\S+ )?\S+: `.*`$|^Exit status \d+/.test(x.text)));
  const best = msgs.find(x => !/^Lifecycle script|^Failed at the|^Exit status|^(?:\S+@\S+ )?\S+: `.*`$|^This is probably not a problem with npm/.test(x.text)) ?? msgs[0];
  const message = best ? best.text : code ? `npm error code ${code}` : 'npm error';
  s.push(s.make(best?.at ?? i, 'npm', lifecycle ? RANK.wrapper : RANK.npm, { code: code ?? (lifecycle ? 'ELIFECYCLE' : undefined), message, wrapper: lifecycle }, i));
  return k - 1;
}
