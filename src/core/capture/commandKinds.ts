// What kind of command a shell line is, beyond "does it change the environment" (commandLines.ts): the
// parts of a `;`/`&&`/`|` list and which of them failed, read-only commands that look at things and so
// can never be an attempt worth an episode, runs of one test suite by different command lines, and
// whether a later command belongs to a terminal attempt at all. The tracker decides with these what
// opens an episode, what is one of its steps and what closes it; CommandErrors names the failing command.
import { commandBody, errorAnchors, isFixCommand } from './commandLines';

type Operator = '' | ';' | '&&' | '||' | '|' | '&';
export interface Segment { text: string; /** The operator before it ('' for the first). */ op: Operator }

/** Splits a shell line at `;`, `&&`, `||`, `|`, `&` and newlines outside quotes and `$( )` groups. */
export function commandSegments(line: string): Segment[] {
  const out: Segment[] = [];
  let cur = '';
  let op: Operator = '';
  let quote: string | undefined;
  let depth = 0;
  const push = (next: Operator) => {
    if (cur.trim()) out.push({ text: cur.trim(), op });
    cur = '';
    op = next;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\' && i + 1 < line.length) { cur += c + line[++i]; continue; }
    if (c === "'" || c === '"' || c === '`') { quote = c; cur += c; continue; }
    if (c === '(') { depth++; cur += c; continue; }
    if (c === ')' && depth > 0) { depth--; cur += c; continue; }
    if (depth === 0) {
      const two = line.slice(i, i + 2);
      if (two === '&&' || two === '||') { push(two); i++; continue; }
      if (c === ';' || c === '\n') { push(';'); continue; }
      if (c === '|') { push('|'); continue; }
      // `2>&1`, `&>file` and `>&2` are redirections, not a background job.
      if (c === '&' && line[i - 1] !== '>' && line[i + 1] !== '>') { push('&'); continue; }
    }
    cur += c;
  }
  push('');
  return out;
}

/**
 * The command whose failure a list's exit code reports: the last one that ran. For `;`, `|` and `||`
 * that is the last part; for `a && b` it is `b` unless `a` failed, which the exit code cannot tell, and
 * the later part is what a user who chains them is waiting for.
 */
export function failingSegment(line: string): string {
  const parts = commandSegments(line);
  return parts.length ? parts[parts.length - 1].text : line.trim();
}

/** The program a segment runs, without env assignments, `sudo` or its path (`.venv/bin/pip` → `pip`). */
export function programOf(segment: string): string {
  const first = commandBody(segment).split(/\s+/)[0] ?? '';
  return first.replace(/^.*[\\/]/, '');
}

const READ_ONLY_PROGRAMS = new Set([
  'echo', 'printf', 'which', 'type', 'whereis', 'ls', 'll', 'la', 'dir', 'cat', 'bat', 'less', 'more', 'head', 'tail',
  'wc', 'pwd', 'env', 'printenv', 'alias', 'history', 'date', 'whoami', 'id', 'hostname', 'uname', 'df', 'du', 'free',
  'ps', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'fd', 'tree', 'stat', 'file', 'realpath', 'readlink', 'dirname',
  'basename', 'diff', 'cmp', 'jq', 'cd', 'clear', 'true', 'man', 'help', 'sleep', 'test', '[', 'lsof', 'nproc',
]);
const READ_ONLY_GIT = /^(?:status|log|diff|show|rev-parse|blame|grep|ls-files|ls-tree|describe|shortlog|reflog|remote(?:\s+-v)?$|branch(?:\s+(?:-a|-r|-v|-vv|--list|--show-current))*$|tag$|config\s+(?:--get|--list|-l)\b)/;
const READ_ONLY_PACKAGE = /^(?:npm|pnpm|yarn)\s+(?:ls|list|view|info|outdated|why|explain|config\s+(?:get|list))\b|^(?:pip3?|python3?\s+-m\s+pip)\s+(?:list|show|freeze)\b|^cargo\s+(?:tree|metadata)\b|^go\s+(?:env|list|version)\b/;

/** Writes a file: an output redirection to something other than /dev/null, or `tee`. */
function writesFile(segment: string): boolean {
  const unquoted = segment.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '""');
  return /(?:^|[^0-9&>])>{1,2}\s*(?!&|\/dev\/null\b)[^\s|;&]/.test(unquoted) || /(?:^|\s)tee(?:\s|$)/.test(unquoted);
}

function readOnlySegment(segment: string): boolean {
  if (writesFile(segment)) return false;
  const body = commandBody(segment);
  const tokens = body.split(/\s+/);
  const program = programOf(segment);
  // `node --version`, `tsc -v`, `python --help`: asking a tool about itself.
  if (tokens.length === 2 && /^(?:--version|-v|-V|--help|-h|version)$/.test(tokens[1])) return true;
  if (program === 'git') return READ_ONLY_GIT.test(tokens.slice(1).join(' '));
  if (program === 'command') return /^-[vV]$/.test(tokens[1] ?? '');
  if (program === 'find') return !/\s-(?:delete|exec|execdir|ok|fprint\w*)\b/.test(body);
  if (program === 'sed' || program === 'awk' || program === 'perl') return program === 'sed' ? !/\s-i/.test(body) : false;
  if (READ_ONLY_PACKAGE.test(body)) return true;
  return READ_ONLY_PROGRAMS.has(program);
}

/**
 * A command that only looks (echo, which, ls, cat, pwd, env, type, command -v, git status/log/diff, …):
 * its failure is an answer ("not there"), not a problem to fix, so it never opens an episode.
 */
export function isReadOnlyCommand(line: string): boolean {
  const parts = commandSegments(line);
  return parts.length > 0 && parts.every(p => readOnlySegment(p.text));
}

export interface TestRun {
  /** Which kind of suite: the same suite run by different command lines ('js', 'python', 'cargo', 'go'). */
  suite: string;
  /** Paths and test names the run is limited to; empty = the whole suite. */
  filters: string[];
}

const PACKAGE_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const EXEC = new Set(['npx', 'pnpx', 'bunx']);
const JS_RUNNERS = new Set(['jest', 'vitest', 'mocha', 'ava', 'tap']);
const FILTER_FLAGS = new Set(['-t', '--testNamePattern', '-k', '--grep', '-g', '--run', '-run', '--test-name-pattern']);

/** Non-flag arguments and the values of name-filter flags (`-t name`, `-k expr`). */
function filtersOf(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') continue;
    const eq = /^(--?[\w-]+)=(.+)$/.exec(a);
    if (eq) { if (FILTER_FLAGS.has(eq[1])) out.push(unquote(eq[2])); continue; }
    if (a.startsWith('-')) { if (FILTER_FLAGS.has(a) && i + 1 < args.length) out.push(unquote(args[++i])); continue; }
    out.push(unquote(a));
  }
  return out.filter(Boolean);
}

function unquote(s: string): string {
  return s.replace(/^(['"])(.*)\1$/s, '$2');
}

/** A segment's words as the shell splits them (quotes kept together), without env assignments or `sudo`. */
function shellWords(segment: string): string[] {
  const words = [...segment.matchAll(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g)].map(m => m[0]);
  while (words.length > 1 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]) || words[0] === 'sudo')) words.shift();
  return words;
}

function testRunOf(segment: string): TestRun | undefined {
  const tokens = shellWords(segment);
  const program = programOf(segment);
  const rest = tokens.slice(1);
  if (PACKAGE_RUNNERS.has(program)) {
    let args = rest;
    if (args[0] === 'run' || args[0] === 'run-script') args = args.slice(1);
    if (args[0] === 'test' || args[0] === 't') return { suite: 'js', filters: filtersOf(args.slice(1)) };
    if (args[0] === 'exec' || args[0] === 'dlx') args = args.slice(1);
    if (args[0] && JS_RUNNERS.has(args[0])) return { suite: 'js', filters: filtersOf(args.slice(1).filter(a => a !== 'run')) };
    return undefined;
  }
  if (EXEC.has(program)) {
    const args = rest.filter(a => !/^--?(?:yes|y|no-install)$/.test(a));
    if (args[0] && JS_RUNNERS.has(args[0])) return { suite: 'js', filters: filtersOf(args.slice(1).filter((a, i) => !(i === 0 && (a === 'run' || a === 'watch')))) };
    if (args[0] === 'pytest') return { suite: 'python', filters: filtersOf(args.slice(1)) };
    return undefined;
  }
  if (JS_RUNNERS.has(program)) return { suite: 'js', filters: filtersOf(rest.filter((a, i) => !(i === 0 && (a === 'run' || a === 'watch')))) };
  if (program === 'node' && rest[0] === '--test') return { suite: 'js', filters: filtersOf(rest.slice(1)) };
  if (program === 'pytest' || program === 'py.test') return { suite: 'python', filters: filtersOf(rest) };
  if (/^python[\d.]*$|^py$/.test(program) && rest[0] === '-m' && rest[1] === 'pytest') return { suite: 'python', filters: filtersOf(rest.slice(2)) };
  if ((program === 'uv' || program === 'poetry' || program === 'pipenv' || program === 'pdm') && rest[0] === 'run') return testRunOf(rest.slice(1).join(' '));
  if (program === 'cargo' && rest[0] === 'test') return { suite: 'cargo', filters: filtersOf(rest.slice(1)) };
  if (program === 'go' && rest[0] === 'test') return { suite: 'go', filters: filtersOf(rest.slice(1)).filter(f => f !== './...') };
  return undefined;
}

/** The test suite a command runs (`npm test`, `npx jest path`, `vitest run …`, `python -m pytest path`), if any. */
export function testRun(line: string): TestRun | undefined {
  const parts = commandSegments(line);
  for (let i = parts.length - 1; i >= 0; i--) {
    const run = testRunOf(parts[i].text);
    if (run) return run;
  }
  return undefined;
}

/**
 * Does a run limited to `filters` cover the failure described by `failureText`? A whole-suite run does;
 * a limited one when one of its paths (by file name) or test names is in the failure.
 */
export function testsCover(run: TestRun, failureText: string): boolean {
  if (!run.filters.length) return true;
  const text = failureText.toLowerCase();
  return run.filters.some(f => {
    const parts = f.toLowerCase().split('::').filter(Boolean);
    return parts.some(p => {
      const base = p.replace(/^.*[\\/]/, '');
      const stem = base.replace(/\.(?:[cm]?[jt]sx?|py)$/, '');
      return (base.length >= 3 && text.includes(base)) || (stem.length >= 3 && text.includes(stem));
    });
  });
}

/** What a terminal attempt offers for tying a later command to it (a TrackedEpisode has all of it). */
export interface AttemptContext {
  readonly source: 'diagnostics' | 'terminal';
  readonly command?: { readonly line: string; readonly output?: string };
  readonly error?: { readonly message: string; readonly family: string; readonly code?: string };
  readonly files: readonly string[];
}

/** Programs that run something named by their next argument: `node x.js` and `node y.js` are different work. */
const LAUNCHERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'npx', 'pnpx', 'bunx', 'node', 'deno', 'python', 'python3', 'py', 'bash', 'sh', 'zsh', 'uv', 'poetry', 'pipenv', 'pdm', 'ruby', 'php', 'java']);

/** What a segment runs, for "the same work": `npm run build` → `npm build`, `node check.js --fast` → `node check.js`. */
function workOf(segment: string): string | undefined {
  const program = programOf(segment);
  if (!program || program === 'cd' || readOnlySegment(segment)) return undefined;
  if (!LAUNCHERS.has(program)) return program;
  const args = commandBody(segment).split(/\s+/).slice(1).filter(a => !a.startsWith('-') && a !== 'run' && a !== 'run-script' && a !== 'exec');
  return args[0] ? `${program} ${args[0].replace(/^\.\//, '')}` : program;
}

/**
 * Is `line` part of the terminal attempt `t` (a failing command and what was tried after it)? An
 * install or other environment change, the same work again in another form, the same test suite, or a
 * command that names a file or module of the error. Anything else (the user moved on to other work)
 * is neither a step of the attempt nor a sign that it is still going on.
 */
export function relatedToAttempt(t: AttemptContext, line: string): boolean {
  if (isFixCommand(line)) return true;
  const parts = commandSegments(line);
  if (parts.some(p => writesFile(p.text))) return true;
  const own = t.command?.line ?? '';
  const work = new Set(commandSegments(own).map(p => workOf(p.text)).filter((w): w is string => !!w));
  if (parts.some(p => { const w = workOf(p.text); return w !== undefined && work.has(w); })) return true;
  const mine = testRun(own);
  const theirs = testRun(line);
  if (mine && theirs && mine.suite === theirs.suite) return true;
  const anchors = errorAnchors(t);
  const words = commandBody(line).toLowerCase().split(/[\s=:'"]+/).map(w => w.replace(/^[./]+/, ''));
  return words.some(w => w.length > 2 && (anchors.has(w) || anchors.has(w.split('/').pop()!)));
}

/** git operations that stop half-way on a conflict and are finished by another command than a re-run. */
const STOPPING_GIT = /^(merge|pull|rebase|cherry-pick|revert|am|stash\s+(?:pop|apply))\b/;

/**
 * Does `line`, which passed, finish the operation `failed` stopped in (a merge or rebase that stopped on a
 * conflict)? A stopped merge is not run again: it is concluded by `git commit` (or `git merge
 * --continue`), a rebase by `git rebase --continue`; that passing command is the stopped one's success.
 */
export function concludesStopped(failed: string, line: string): boolean {
  const op = (text: string) => commandSegments(text).map(p => shellWords(p.text)).find(w => programOf(w.join(' ')) === 'git');
  const f = op(failed);
  const stopped = f ? STOPPING_GIT.exec(f.slice(1).join(' '))?.[1].split(/\s+/)[0] : undefined;
  if (!stopped) return false;
  return commandSegments(line).some(p => {
    const w = shellWords(p.text);
    if (programOf(p.text) !== 'git') return false;
    const sub = w[1] ?? '';
    if (w.includes('--continue')) return sub === stopped || (stopped === 'pull' && (sub === 'rebase' || sub === 'merge'));
    // A commit finishes a stopped merge, pull, cherry-pick or revert (a rebase or am goes on with --continue).
    return sub === 'commit' && !w.includes('--amend') && stopped !== 'rebase' && stopped !== 'am';
  });
}

/** git subcommands that rewrite the working tree's files themselves. */
const WORKTREE_GIT = /^(?:stash(?:\s+(?:push|save|pop|apply|drop))?|checkout|switch|restore|reset|pull|merge|rebase|cherry-pick|revert|am|apply)(?:\s|$)/;

/**
 * Does this command rewrite the working tree's files (`git stash`, `git checkout -- x`, `git pull`)? The
 * files it writes are its doing, as a build's output is the build's: never an edit of the user's.
 */
export function rewritesWorktree(line: string): boolean {
  return commandSegments(line).some(p => programOf(p.text) === 'git' && WORKTREE_GIT.test(shellWords(p.text).slice(1).join(' ')));
}
