// Python: a "Traceback (most recent call last):" header opens a traceback, and the exception line at
// column 0 closes it ("KeyError: 'k'"), or follows a SyntaxError's `File "x", line n` + caret block.
// Two matchers because they sit at two places in the order (see matchers.ts); the open traceback is
// kept on the scan (Scan.pyTraceback).
import { MAX_FRAMES, RANK } from './types';
import type { Matcher } from './scan';

const PY_TRACEBACK = /^Traceback \(most recent call last\):$/;
const PY_FRAME = /^\s*File "([^"\n]+)", line (\d+)(?:, in (.*))?$/;
const PY_EXC = /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration)|KeyError|StopIteration)(?:: (.*))?$/;

/** Remembers where a traceback starts; the header itself is not an error. */
export const pythonTraceback: Matcher = {
  name: 'python',
  match({ i, t }, s) {
    if (!PY_TRACEBACK.test(t)) return false;
    s.pyTraceback = i;
    return true;
  },
};

/** The exception line that ends a traceback (or a SyntaxError block), with the traceback's frames. */
export const pythonException: Matcher = {
  name: 'python',
  match({ i, raw, t }, s) {
    const m = PY_EXC.exec(t);
    if (!m || raw.startsWith(' ') || !(s.pyTraceback >= 0 || pySyntaxContext(s.lines, i))) return false;
    const open = s.pyTraceback;
    const frames = open >= 0 ? pyFrames(s.lines, open + 1, i) : pyFrames(s.lines, Math.max(0, i - 6), i);
    const last = lastPyFrame(frames);
    s.push(s.make(i, 'python', RANK.runtime, { code: m[1].split('.').pop(), message: t, stack: frames, ...last }, open >= 0 ? open : undefined));
    s.pyTraceback = -1;
    return true;
  },
};

function pyFrames(lines: string[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let k = from; k < to; k++) {
    const l = lines[k];
    if (PY_FRAME.test(l)) out.push(l.trim());
  }
  return out.length > MAX_FRAMES ? [...out.slice(0, 5), ...out.slice(-(MAX_FRAMES - 5))] : out;
}

/** A SyntaxError without traceback follows `File "x", line n` + source + caret. */
function pySyntaxContext(lines: string[], i: number): boolean {
  for (let k = i - 1; k >= 0 && k >= i - 6; k--) if (PY_FRAME.test(lines[k])) return true;
  return /^(?:\w+\.)*\w*(?:Error|Exception)(?::|$)/.test(lines[i]) && /^(ModuleNotFoundError|ImportError|IndentationError|TabError)/.test(lines[i]);
}

function lastPyFrame(frames: string[]): { file?: string; line?: number } {
  for (let k = frames.length - 1; k >= 0; k--) {
    const m = PY_FRAME.exec(frames[k]);
    if (m) return { file: m[1], line: +m[2] };
  }
  return {};
}
