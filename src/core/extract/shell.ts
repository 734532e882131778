// Shells and the core utilities: zsh's "zsh: command not found: x", bash/sh/dash's "bash: line 3: x:
// ...", a script's own "deploy.sh: line 3: X: unbound variable", and coreutils' "cp: cannot stat 'x':
// No such file or directory". The code is the errno-like family ('ENOENT', 'command-not-found', ...).
import { RANK } from './types';
import type { Matcher } from './scan';

const SHELL = /^(?:\/[\w/]*\/)?(bash|sh|zsh|dash|ksh|fish)(?:: line (\d+))?: (?:(\d+): )?(.*)$/;
// "deploy.sh: line 3: X: unbound variable" (bash) and "build.sh: 2: Syntax error" (dash)
const SCRIPT = /^([\w.~/-]+): (?:line (\d+)|(\d+)): (.*)$/;
const SHELL_PHRASES = /command not found|not found$|no such file or directory|permission denied|is a directory|syntax error|unbound variable|bad substitution|ambiguous redirect|too many arguments|unary operator expected|binary operator expected|integer expression expected|bad interpreter|cannot execute|required file not found|unexpected end of file/i;
const ZSH_NOT_FOUND = /^zsh: (command not found|no such file or directory|permission denied): (.*)$/;
const COREUTILS = /^([\w.+-]+): (?:cannot \w+ )?([^\n]*?): (No such file or directory|Permission denied|Is a directory|Not a directory|File exists)$/;

/** The shells' own messages; a "x: line n: ..." line whose text is not a shell phrase falls through. */
export const shell: Matcher = {
  name: 'shell',
  match({ i, raw, t }, s) {
    let m: RegExpExecArray | null;
    if ((m = ZSH_NOT_FOUND.exec(t))) {
      s.push(s.make(i, 'shell', RANK.shell, { message: `${m[2]}: ${m[1]}`, code: shellCode(m[1]) }));
      return true;
    }
    if (((m = SHELL.exec(t)) || (m = SCRIPT.exec(t))) && !raw.startsWith(' ')) {
      const body = m[4];
      if (SHELL_PHRASES.test(body)) {
        const script = /^(?:bash|sh|zsh|dash|ksh|fish)$/.test(m[1].split('/').pop() ?? '') ? undefined : m[1];
        s.push(s.make(i, 'shell', RANK.shell, { message: body, code: shellCode(body) ?? shellCode2(body), file: script, line: m[2] ? +m[2] : m[3] ? +m[3] : undefined }));
        return true;
      }
    }
    return false;
  },
};

/** "cp: cannot stat 'x': No such file or directory" and the like. */
export const coreutils: Matcher = {
  name: 'coreutils',
  match({ i, t }, s) {
    const m = COREUTILS.exec(t);
    if (!m) return false;
    s.push(s.make(i, 'shell', RANK.shell, { message: t, code: shellCode(m[3]) }));
    return true;
  },
};

function shellCode(s: string): string | undefined {
  const l = s.toLowerCase();
  if (l.includes('command not found') || /(?:^|: )not found$/.test(l)) return 'command-not-found';
  if (l.includes('no such file or directory')) return 'ENOENT';
  if (l.includes('permission denied')) return 'EACCES';
  if (l.includes('is a directory')) return 'EISDIR';
  if (l.includes('not a directory')) return 'ENOTDIR';
  return undefined;
}

function shellCode2(s: string): string | undefined {
  if (/syntax error/i.test(s)) return 'syntax';
  if (/cannot execute|required file not found/.test(s)) return 'ENOEXEC';
  if (/unbound variable/.test(s)) return 'unbound-variable';
  if (/bad substitution/i.test(s)) return 'bad-substitution';
  if (/bad interpreter/.test(s)) return 'bad-interpreter';
  return undefined;
}
