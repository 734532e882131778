// rustc/cargo: "error[E0382]: message" with its "--> file:line:col" a line or two below. A bare
// "error: x" with neither code nor location is not claimed (many tools print that), so it falls through.
import { RANK } from './types';
import type { Matcher } from './scan';

const RUST_HEAD = /^error(?:\[(E\d{4})\])?: (.*)$/;
const RUST_LOC = /^\s*--> (.+?):(\d+):(\d+)$/;

export const rustc: Matcher = {
  name: 'rustc',
  match({ i, raw, t }, s) {
    const m = RUST_HEAD.exec(t);
    if (!m || !raw.startsWith('error')) return false;
    const loc = rustLocation(s.lines, i);
    if (!m[1] && !loc) return false;
    s.push(s.make(i, 'rustc', RANK.compiler, { code: m[1], message: m[2], ...loc }));
    return true;
  },
};

function rustLocation(lines: string[], i: number): { file?: string; line?: number; column?: number } | undefined {
  for (let k = i + 1; k < lines.length && k <= i + 3; k++) {
    const m = RUST_LOC.exec(lines[k]);
    if (m) return { file: m[1], line: +m[2], column: +m[3] };
  }
  return undefined;
}
