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
    s.push(s.make(i, 'rustc', RANK.compiler, { code: m[1], message: m[2], ...loc, rule: m[1] ? undefined : lintOf(s.lines, i) }));
    return true;
  },
};

/**
 * The lint a rustc or clippy error is, from the notes of its block: "`#[deny(unused_variables)]` on by
 * default", "`-D clippy::needless-return` implied by `-D warnings`", "add `#[allow(clippy::x)]`".
 */
function lintOf(lines: string[], i: number): string | undefined {
  for (let k = i + 1; k < lines.length && k <= i + 30; k++) {
    const l = lines[k];
    if (/^(?:error|warning)(?:\[|:)/.test(l)) return undefined;
    const m = /`#\[(?:deny|warn|forbid|allow)\(([\w:]+)\)\]`|`-[DW] ([\w:-]+)` implied by/.exec(l);
    if (m && (m[1] ?? m[2]) !== 'warnings') return (m[1] ?? m[2]).replace(/-/g, '_');
  }
  return undefined;
}

function rustLocation(lines: string[], i: number): { file?: string; line?: number; column?: number } | undefined {
  for (let k = i + 1; k < lines.length && k <= i + 3; k++) {
    const m = RUST_LOC.exec(lines[k]);
    if (m) return { file: m[1], line: +m[2], column: +m[3] };
  }
  return undefined;
}

// A Rust program's panic (`cargo run`, `cargo test`): "thread 'main' panicked at src/main.rs:4:21:" with
// the message on the lines below (Rust 1.73 on; newer ones print the thread id, `'main' (28882)`), or the
// older "thread 'main' panicked at 'msg', src/main.rs:4:21". Under libtest the thread is named for the
// test, which is what tells one failing test from another; `left:`/`right:` say what an assert_eq! saw.
const RUST_PANIC = /^thread '([^']{1,200})'(?: \(\d+\))? panicked at (?:'(.*)', )?([^\s:]+):(\d+):(\d+):?$/;
const PANIC_END = /^(?:note: |stack backtrace:|\s*\d+: |error: test failed|failures:|---- )/;

export const rustPanic: Matcher = {
  name: 'rustpanic',
  match({ i, t }, s) {
    const m = RUST_PANIC.exec(t);
    if (!m) return false;
    const [, thread, oldMessage, file, line, column] = m;
    const body: string[] = [];
    if (oldMessage !== undefined) body.push(oldMessage);
    let k = i + 1;
    for (; oldMessage === undefined && k < s.lines.length && k <= i + 12; k++) {
      const l = s.lines[k];
      if (!l.trim() || PANIC_END.test(l)) break;
      body.push(l.trim());
    }
    const [first = 'panicked', ...detail] = body;
    const extra = [...(thread !== 'main' ? [`test: ${thread}`] : []), ...detail.filter(d => /^(?:left|right): /.test(d))];
    // The Rust program printed it, whichever runner started it (cargo run, cargo test, the binary itself):
    // one tool, so a pasted panic and the one a run printed have one signature.
    s.push(s.make(i, 'rustc', thread === 'main' ? RANK.runtime : RANK.test, { code: 'panic', message: [first, ...extra].join('\n'), file, line: +line, column: +column }));
    return Math.max(i, k - 1);
  },
};
