// Node.js (and JavaScript test runners): "TypeError: x" / "Error [ERR_X]: y" / REPL "Uncaught ..." with
// its "at ..." frames. The code is the most telling one present: the bracketed code, an errno in the
// message, the error's printed `code:` property, else the class. A bare exception line without frames
// is Python's when the name or the file at hand says so; an indented one is usually a log line.
import { RANK } from './types';
import { inTestRunner, withTest } from './testRunner';
import type { Matcher } from './scan';

const NODE_ERR = /^\s*(?:Uncaught )?((?:[A-Z]\w*)?(?:Error|Exception))(?: \[([A-Z][A-Z0-9_]+)\])?: (.*)$/;
const NODE_THROW_BARE = /^\s*(?:Uncaught )?((?:[A-Z]\w*)?Error)(?: \[([A-Z][A-Z0-9_]+)\])?$/;
const NODE_FRAME = /^\s+at (?:.*?\(([^()\n]+?):(\d+):(\d+)\)|([^\s()][^()\n]*?):(\d+):(\d+))$/;
const NODE_LOC_HEADER = /^((?:file:\/\/)?\/[^:\n]+|[A-Za-z]:\\[^:\n]+):(\d+)$/;
const NODE_CODE_PROP = /^\s*code: '([A-Z][A-Z0-9_]+)',?$/;

export const node: Matcher = {
  name: 'node',
  match({ i, raw: line, t }, s) {
    const m = NODE_ERR.exec(line) ?? NODE_THROW_BARE.exec(line);
    if (!m) return false;
    const indented = /^\s/.test(line);
    const frames = s.frames(i + 1, /^\s+at /);
    const looksPython = /^(ModuleNotFoundError|ImportError|IndentationError|NameError|KeyError|AttributeError|ValueError|ZeroDivisionError|FileNotFoundError|IndexError|TabError|UnboundLocalError|RecursionError)$/.test(m[1]);
    if (!frames.length && (looksPython || /\.pyi?$/.test(s.opts.file ?? ''))) {
      s.push(s.make(i, 'python', RANK.runtime + 5, { code: m[1], message: t }));
      return true;
    }
    // An indented "Error: x" without frames is usually a log line, not the error itself.
    if (indented && !frames.length && !/^\s+(?:AssertionError|TypeError|ReferenceError|SyntaxError|RangeError|Error \[)/.test(line)) {
      s.push(s.make(i, 'generic', RANK.generic, { message: t }));
      return true;
    }
    const propCode = nodeCodeProp(s.lines, i + 1);
    // "listen EADDRINUSE: ...", "ENOENT: no such file": the errno code is the useful one.
    const msgCode = /(?:^|\s)(E[A-Z]{3,}):/.exec(m[3] ?? '')?.[1];
    const code = m[2] ?? msgCode ?? propCode ?? m[1];
    const loc = nodeLocation(s.lines, i, frames);
    const inTest = inTestRunner(s.lines, i);
    const message = t.replace(/^Uncaught /, '');
    s.push(s.make(i, inTest ?? 'node', inTest ? RANK.test : RANK.runtime, { code, message: inTest ? withTest(s.lines, message, i) : message, stack: frames, ...loc }));
    return true;
  },
};

/** Node prints the error's own properties after the frames: `{ code: 'MODULE_NOT_FOUND', ... }`. */
function nodeCodeProp(lines: string[], from: number): string | undefined {
  for (let k = from; k < lines.length && k < from + 60; k++) {
    const l = lines[k];
    const m = NODE_CODE_PROP.exec(l);
    if (m) return m[1];
    if (/^Node\.js v\d/.test(l) || (k > from && NODE_ERR.test(l) && !/^\s/.test(l))) return undefined;
  }
  return undefined;
}

function nodeLocation(lines: string[], i: number, frames: string[]): { file?: string; line?: number; column?: number } {
  // Node prints "file:line" above the offending source line and the caret when it can.
  for (let k = i - 1; k >= 0 && k >= i - 6; k--) {
    const m = NODE_LOC_HEADER.exec(lines[k].trim());
    if (m) return { file: m[1], line: +m[2] };
  }
  for (const fr of frames) {
    if (/\(node:|^at node:|\bnode:internal|node_modules/.test(fr)) continue;
    const m = NODE_FRAME.exec('    ' + fr);
    if (m) return m[1] ? { file: m[1], line: +m[2], column: +m[3] } : { file: m[4], line: +m[5], column: +m[6] };
  }
  return {};
}
