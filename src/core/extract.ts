// Finds the errors in raw tool output (terminal transcripts, build logs, diagnostics) and picks the
// root one. Output is bounded first and matched line by line with anchored, backtracking-safe
// regexes, so a hostile or huge transcript costs linear time.
import { boundText, boundedLines, sanitizeText } from './text';

export interface ExtractedError {
  tool: string; // 'tsc' | 'node' | 'npm' | 'python' | 'rustc' | 'gcc' | 'ld' | 'javac' | 'java' | 'shell' | 'mocha' | 'jest' | 'pytest' | 'generic'
  code?: string; // 'TS2322', 'E0382', 'ENOENT', 'ModuleNotFoundError', ...
  message: string; // the error line as printed (location prefix removed), trimmed
  file?: string;
  line?: number;
  column?: number;
  stack: string[]; // frames, trimmed, at most MAX_FRAMES
  excerpt: string; // a few lines of context (unmasked: mask before persisting)
  /** Set on lines that only report that something else failed (npm ELIFECYCLE, collect2, cargo). */
  wrapper?: boolean;
}

export interface ExtractOptions {
  /** Diagnostic source or tool hint when the text has no prefix of its own ('ts', 'tsc', 'python', 'rustc'...). */
  source?: string;
  /** Diagnostic code from the editor (2322 or 'TS2322'). */
  code?: string | number;
  /** Input cap; head and tail are kept. */
  maxBytes?: number;
  /** Stop after this many errors. */
  limit?: number;
  /** The file at hand, when known: disambiguates bare lines ("TypeError: ..." in a .py file is Python). */
  file?: string;
}

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const MAX_FRAMES = 20;
const EXCERPT_BEFORE = 2;
const EXCERPT_AFTER = 4;

/** Lower ranks are more likely the root cause; wrappers and guesses rank last. */
const RANK = { compiler: 10, runtime: 10, npm: 15, shell: 20, test: 30, generic: 80, wrapper: 90 } as const;

interface Found extends ExtractedError {
  rank: number;
  at: number; // line index
}

// ---- line patterns (anchored; every quantified class is followed by a literal it cannot contain) ----
const TSC_PAREN = /^(\S[^()\n]*?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const TSC_PRETTY = /^(\S[^\n]*?):(\d+):(\d+) - error (TS\d+): (.*)$/;
const TSC_BARE = /^error (TS\d+): (.*)$/;
const RUST_HEAD = /^error(?:\[(E\d{4})\])?: (.*)$/;
const RUST_LOC = /^\s*--> (.+?):(\d+):(\d+)$/;
const GCC = /^(\S[^:\n]*?):(\d+):(?:(\d+):)? (fatal error|error): (.*)$/;
const GCC_DRIVER = /^(?:\S*\/)?(?:gcc|g\+\+|cc|c\+\+|clang\+?\+?|cc1(?:plus)?)(?:-\d+)?: (fatal error|error): (.*)$/;
const JAVAC = /^(\S[^:\n]*?\.java):(\d+): error: (.*)$/;
const JAVA_EXC = /^Exception in thread "[^"]*" ((?:[\w$]+\.)*[\w$]+)(?:: (.*))?$/;
const LD_UNDEF = /^(?:(\S[^:\n]*?):)?(?:\([^)\n]*\):)? ?(undefined reference to [`'‘].*)$/;
const LD_OTHER = /^(?:\/\S*\/)?ld(?:\.\w+)?: (?:(\S[^:\n]*?): )?(.*(?:cannot find -l|multiple definition of|undefined reference to).*)$/;
const COLLECT2 = /^collect2: error: ld returned \d+ exit status$/;
const NPM = /^npm (?:ERR!|error) ?(.*)$/;
const PY_TRACEBACK = /^Traceback \(most recent call last\):$/;
const PY_FRAME = /^\s*File "([^"\n]+)", line (\d+)(?:, in (.*))?$/;
const PY_EXC = /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration)|KeyError|StopIteration)(?:: (.*))?$/;
const NODE_ERR = /^\s*(?:Uncaught )?((?:[A-Z]\w*)?(?:Error|Exception))(?: \[([A-Z][A-Z0-9_]+)\])?: (.*)$/;
const NODE_THROW_BARE = /^\s*(?:Uncaught )?((?:[A-Z]\w*)?Error)(?: \[([A-Z][A-Z0-9_]+)\])?$/;
const NODE_FRAME = /^\s+at (?:.*?\(([^()\n]+?):(\d+):(\d+)\)|([^\s()][^()\n]*?):(\d+):(\d+))$/;
const NODE_LOC_HEADER = /^((?:file:\/\/)?\/[^:\n]+|[A-Za-z]:\\[^:\n]+):(\d+)$/;
const NODE_CODE_PROP = /^\s*code: '([A-Z][A-Z0-9_]+)',?$/;
const SHELL = /^(?:\/[\w/]*\/)?(bash|sh|zsh|dash|ksh|fish)(?:: line (\d+))?: (?:(\d+): )?(.*)$/;
// "deploy.sh: line 3: X: unbound variable" (bash) and "build.sh: 2: Syntax error" (dash)
const SCRIPT = /^([\w.~/-]+): (?:line (\d+)|(\d+)): (.*)$/;
const SHELL_PHRASES = /command not found|not found$|no such file or directory|permission denied|is a directory|syntax error|unbound variable|bad substitution|ambiguous redirect|too many arguments|unary operator expected|binary operator expected|integer expression expected|bad interpreter|cannot execute|required file not found|unexpected end of file/i;
const ZSH_NOT_FOUND = /^zsh: (command not found|no such file or directory|permission denied): (.*)$/;
const COREUTILS = /^([\w.+-]+): (?:cannot \w+ )?([^\n]*?): (No such file or directory|Permission denied|Is a directory|Not a directory|File exists)$/;
const MOCHA_FAIL_HEAD = /^\s+(\d+)\) (.*)$/;
const JEST_FAIL_HEAD = /^\s*● (.*)$/;
const VITEST_FAIL_HEAD = /^\s*FAIL\s+\S+ > (.+)$/;
const PYTEST_E = /^E\s{2,}(.*)$/;
const PYTEST_FAILED = /^FAILED (\S+?)(?: - (.*))?$/;
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
// Cheap gate before the per-format patterns: a line that contains none of these cannot start an
// error, so the long tail of build noise costs one scan per line.
const MAY_START = /rror|ERR|atal|FATAL|xception|Traceback|Warning|Interrupt|Exit|Iteration|undefined reference|multiple definition|cannot find|not found|No such file|denied|Is a directory|Not a directory|File exists|unbound|ubstitution|redirect|arguments|expected|cannot execute|interpreter|terminated|FAILED|●|^E\s|^npm |^\s+\d+\) /;
const GENERIC = /^\s*(?:\[?(?:ERROR|FATAL|error|fatal|Error)\]?[:!]\s+)(.+)$/;

/** Extracts every recognisable error from raw output, in order of appearance (wrappers included, flagged). */
export function extractErrors(raw: string, opts: ExtractOptions = {}): ExtractedError[] {
  return scan(raw, opts).map(strip);
}

/** The root error: the best-ranked error, earliest first among equals; wrappers only when nothing else matched. */
export function primaryError(raw: string, opts: ExtractOptions = {}): ExtractedError | undefined {
  const found = scan(raw, opts);
  let best: Found | undefined;
  for (const f of found) if (!best || f.rank < best.rank) best = f;
  return best && strip(best);
}

function strip(f: Found): ExtractedError {
  const { rank: _rank, at: _at, ...rest } = f;
  return rest;
}

function scan(raw: string, opts: ExtractOptions): Found[] {
  const text = sanitizeText(boundText(raw ?? '', opts.maxBytes ?? DEFAULT_MAX_BYTES));
  const lines = boundedLines(text);
  const out: Found[] = [];
  const seen = new Set<string>();
  const limit = opts.limit ?? 200;
  const push = (f: Found) => {
    const key = `${f.tool}|${f.code ?? ''}|${f.message}|${f.file ?? ''}|${f.line ?? ''}`;
    if (seen.has(key) || out.length >= limit) return;
    seen.add(key);
    out.push(f);
  };
  const ctx = new Scanner(lines);
  let inPyTraceback = -1; // line index of the last "Traceback" header still open

  for (let i = 0; i < lines.length && out.length < limit; i++) {
    const line = lines[i];
    const t = line.trim();
    if (!t || !MAY_START.test(line)) continue;
    let m: RegExpExecArray | null;

    if (PY_TRACEBACK.test(t)) { inPyTraceback = i; continue; }

    if ((m = TSC_PAREN.exec(t)) || (m = TSC_PRETTY.exec(t))) {
      push(ctx.make(i, 'tsc', RANK.compiler, { code: m[4], message: ctx.withIndented(i, m[5]), file: m[1], line: +m[2], column: +m[3] }));
      continue;
    }
    if ((m = TSC_BARE.exec(t))) {
      push(ctx.make(i, 'tsc', RANK.compiler, { code: m[1], message: m[2] }));
      continue;
    }
    if ((m = JAVAC.exec(t))) {
      push(ctx.make(i, 'javac', RANK.compiler, { message: ctx.withJavaSymbol(i, m[3]), file: m[1], line: +m[2] }));
      continue;
    }
    if ((m = GCC.exec(t))) {
      push(ctx.make(i, 'gcc', RANK.compiler, { message: m[5], file: m[1], line: +m[2], column: m[3] ? +m[3] : undefined }));
      continue;
    }
    if ((m = GCC_DRIVER.exec(t))) {
      push(ctx.make(i, 'gcc', RANK.compiler + 5, { message: m[2] }));
      continue;
    }
    if (COLLECT2.test(t)) {
      push(ctx.make(i, 'ld', RANK.wrapper, { message: t, wrapper: true }));
      continue;
    }
    if ((m = LD_OTHER.exec(t)) || (m = LD_UNDEF.exec(t))) {
      // Keep "multiple definition of `x'" and drop the object-file offsets and "; first defined here".
      const at = m[2].search(/undefined reference to|multiple definition of|cannot find -l/);
      const msg = (at > 0 ? m[2].slice(at) : m[2]).replace(/;\s.*$/, '');
      const file = m[1] && !/(?:^|\/)ld$/.test(m[1]) && !/\.o$/.test(m[1]) ? m[1] : undefined;
      push(ctx.make(i, 'ld', RANK.compiler, { message: msg, file }));
      continue;
    }
    if (WRAPPERS.some(w => w.test(t))) {
      push(ctx.make(i, wrapperTool(t), RANK.wrapper, { message: t, wrapper: true }));
      continue;
    }
    if ((m = RUST_HEAD.exec(t)) && line.startsWith('error')) {
      const loc = ctx.rustLocation(i);
      if (m[1] || loc) {
        push(ctx.make(i, 'rustc', RANK.compiler, { code: m[1], message: m[2], ...loc }));
        continue;
      }
    }
    if ((m = NPM.exec(t))) {
      i = ctx.npmBlock(i, push);
      continue;
    }
    if ((m = JAVA_EXC.exec(t))) {
      const frames = ctx.frames(i + 1, /^\s+at /);
      const loc = frames.length ? /\(([^():]+):(\d+)\)$/.exec(frames[0]) : null;
      push(ctx.make(i, 'java', RANK.runtime, { code: m[1].split('.').pop(), message: m[2] ? `${m[1]}: ${m[2]}` : m[1], stack: frames, file: loc?.[1], line: loc ? +loc[2] : undefined }));
      continue;
    }
    if ((m = ZSH_NOT_FOUND.exec(t))) {
      push(ctx.make(i, 'shell', RANK.shell, { message: `${m[2]}: ${m[1]}`, code: shellCode(m[1]) }));
      continue;
    }
    if (((m = SHELL.exec(t)) || (m = SCRIPT.exec(t))) && !line.startsWith(' ')) {
      const body = m[4];
      if (SHELL_PHRASES.test(body)) {
        const script = /^(?:bash|sh|zsh|dash|ksh|fish)$/.test(m[1].split('/').pop() ?? '') ? undefined : m[1];
        push(ctx.make(i, 'shell', RANK.shell, { message: body, code: shellCode(body) ?? shellCode2(body), file: script, line: m[2] ? +m[2] : m[3] ? +m[3] : undefined }));
        continue;
      }
    }

    // Python: an exception line at column 0 closes a traceback (or follows a SyntaxError caret block).
    if ((m = PY_EXC.exec(t)) && !line.startsWith(' ') && (inPyTraceback >= 0 || ctx.pySyntaxContext(i))) {
      const frames = inPyTraceback >= 0 ? ctx.pyFrames(inPyTraceback + 1, i) : ctx.pyFrames(Math.max(0, i - 6), i);
      const last = lastPyFrame(frames);
      push(ctx.make(i, 'python', RANK.runtime, { code: m[1].split('.').pop(), message: t, stack: frames, ...last }, inPyTraceback >= 0 ? inPyTraceback : undefined));
      inPyTraceback = -1;
      continue;
    }
    if ((m = PYTEST_E.exec(line))) {
      // pytest prints a failure as a block of "E   ..." lines; the first one states it.
      if (i > 0 && PYTEST_E.test(lines[i - 1])) continue;
      const body = m[1].trim();
      const e = /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))(?:: (.*))?$/.exec(body);
      if (e) push(ctx.make(i, 'python', RANK.runtime, { code: e[1].split('.').pop(), message: ctx.withTest(body, i) }));
      else if (/^assert\b/.test(body)) push(ctx.make(i, 'pytest', RANK.test, { code: 'AssertionError', message: ctx.withTest(body, i) }));
      else if (/^fixture '.*' not found$/.test(body)) push(ctx.make(i, 'pytest', RANK.test - 5, { code: 'fixture-not-found', message: body, ...ctx.pytestLocation(i) }));
      else push(ctx.make(i, 'pytest', RANK.test, { message: body }));
      continue;
    }
    if ((m = PYTEST_FAILED.exec(t))) {
      push(ctx.make(i, 'pytest', RANK.test + 5, { message: m[2] ? m[2] : `FAILED ${m[1]}`, file: m[1].split('::')[0] }));
      continue;
    }

    if ((m = NODE_ERR.exec(line)) || (m = NODE_THROW_BARE.exec(line))) {
      const indented = /^\s/.test(line);
      const frames = ctx.frames(i + 1, /^\s+at /);
      const looksPython = /^(ModuleNotFoundError|ImportError|IndentationError|NameError|KeyError|AttributeError|ValueError|ZeroDivisionError|FileNotFoundError|IndexError|TabError|UnboundLocalError|RecursionError)$/.test(m[1]);
      if (!frames.length && (looksPython || /\.pyi?$/.test(opts.file ?? ''))) {
        push(ctx.make(i, 'python', RANK.runtime + 5, { code: m[1], message: t }));
        continue;
      }
      // An indented "Error: x" without frames is usually a log line, not the error itself.
      if (indented && !frames.length && !/^\s+(?:AssertionError|TypeError|ReferenceError|SyntaxError|RangeError|Error \[)/.test(line)) {
        push(ctx.make(i, 'generic', RANK.generic, { message: t }));
        continue;
      }
      const propCode = ctx.nodeCodeProp(i + 1);
      // "listen EADDRINUSE: ...", "ENOENT: no such file": the errno code is the useful one.
      const msgCode = /(?:^|\s)(E[A-Z]{3,}):/.exec(m[3] ?? '')?.[1];
      const code = m[2] ?? msgCode ?? propCode ?? m[1];
      const loc = ctx.nodeLocation(i, frames);
      const inTest = ctx.inTestRunner(i);
      const message = t.replace(/^Uncaught /, '');
      push(ctx.make(i, inTest ?? 'node', inTest ? RANK.test : RANK.runtime, { code, message: inTest ? ctx.withTest(message, i) : message, stack: frames, ...loc }));
      continue;
    }
    if ((m = COREUTILS.exec(t))) {
      push(ctx.make(i, 'shell', RANK.shell, { message: t, code: shellCode(m[3]) }));
      continue;
    }
    if ((m = MOCHA_FAIL_HEAD.exec(line)) && ctx.isMochaFailure(i)) continue; // the error line below is matched itself
    if ((m = JEST_FAIL_HEAD.exec(line))) {
      const body = ctx.jestBody(i);
      if (body) push(ctx.make(i, 'jest', RANK.test, { message: ctx.withTest(body, i), code: /Cannot find module/.test(body) ? 'MODULE_NOT_FOUND' : undefined }));
      continue;
    }
    if ((m = GENERIC.exec(line))) {
      push(ctx.make(i, 'generic', RANK.generic, { message: t }));
      continue;
    }
  }

  // A diagnostic with a source/code hint is one message; trust the hint over a generic guess.
  if ((opts.source !== undefined || opts.code !== undefined) && !out.some(f => f.rank < RANK.generic)) {
    const hinted = fromHint(lines, opts);
    if (hinted) return [hinted];
  }
  if (!out.length) {
    const guessed = guessBare(lines);
    if (guessed) out.push(guessed);
  }
  return out;
}

function wrapperTool(t: string): string {
  if (t.startsWith('error: could not compile') || t.startsWith('error: aborting')) return 'rustc';
  if (t.startsWith('make')) return 'make';
  if (/^Found \d+ error/.test(t)) return 'tsc';
  if (/errors? generated|compilation terminated/.test(t)) return 'gcc';
  return 'generic';
}

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

function lastPyFrame(frames: string[]): { file?: string; line?: number } {
  for (let k = frames.length - 1; k >= 0; k--) {
    const m = PY_FRAME.exec(frames[k]);
    if (m) return { file: m[1], line: +m[2] };
  }
  return {};
}

// Diagnostics arrive without a "file(l,c): error TSxxxx" prefix; the editor gives source and code.
function fromHint(lines: string[], opts: ExtractOptions): Found | undefined {
  const message = lines.map(l => l.trim()).find(Boolean);
  if (!message) return undefined;
  const src = (opts.source ?? '').toLowerCase();
  const codeRaw = opts.code === undefined ? undefined : String(opts.code);
  let tool = 'generic';
  let code = codeRaw;
  if (src === 'ts' || src === 'tsc' || src === 'typescript' || src === 'js') {
    tool = 'tsc';
    if (code && /^\d+$/.test(code)) code = `TS${code}`;
  } else if (/^(rustc|rust-analyzer|rust)$/.test(src)) tool = 'rustc';
  else if (/^(python|pylance|pyright|mypy|pylint)$/.test(src)) tool = 'python';
  else if (/^(gcc|g\+\+|clang|cpptools|c\/c\+\+)$/.test(src)) tool = 'gcc';
  else if (/^(java|javac|jdt)$/.test(src)) tool = 'javac';
  else if (src) tool = src;
  if (!code) code = knownTscCode(message);
  return { tool, code, message, stack: [], excerpt: lines.slice(0, 6).join('\n').trim(), rank: RANK.compiler, at: 0 };
}

// Editor diagnostics and pasted messages often lack any prefix; recognise the common tsc ones by wording.
const TSC_PHRASES: [RegExp, string][] = [
  [/^Type '.*' is not assignable to type '.*'/, 'TS2322'],
  [/^Argument of type '.*' is not assignable to parameter of type/, 'TS2345'],
  [/^Cannot find module '.*' or its corresponding type declarations/, 'TS2307'],
  [/^Property '.*' does not exist on type '.*'/, 'TS2339'],
  [/^Cannot find name '.*'\.$/, 'TS2304'],
  [/^'.*' is possibly '(?:undefined|null)'/, 'TS18048'],
  [/^Object is possibly '(?:undefined|null)'/, 'TS2532'],
  [/^Property '.*' is missing in type '.*' but required in type/, 'TS2741'],
  [/^Could not find a declaration file for module/, 'TS7016'],
  [/^Parameter '.*' implicitly has an? '.*' type/, 'TS7006'],
  [/^Module '.*' has no exported member '.*'/, 'TS2305'],
  [/^Cannot find module '.*'\. Consider using '--resolveJsonModule'/, 'TS2732'],
  [/^Expected \d+ arguments?, but got \d+/, 'TS2554'],
  [/^Cannot redeclare block-scoped variable/, 'TS2451'],
  [/^Not all code paths return a value/, 'TS7030'],
  [/^Cannot assign to '.*' because it is a (?:read-only property|constant)/, 'TS2540'],
];

export function knownTscCode(message: string): string | undefined {
  for (const [re, code] of TSC_PHRASES) if (re.test(message)) return code;
  return undefined;
}

function guessBare(lines: string[]): Found | undefined {
  const first = lines.map(l => l.trim()).find(Boolean);
  if (!first) return undefined;
  const code = knownTscCode(first);
  if (code) return { tool: 'tsc', code, message: first, stack: [], excerpt: lines.slice(0, 6).join('\n').trim(), rank: RANK.compiler, at: 0 };
  return undefined;
}

/** Line-context helpers; every look-around is bounded by a small window. */
class Scanner {
  constructor(private readonly lines: string[]) {}

  make(i: number, tool: string, rank: number, f: Partial<ExtractedError> & { message: string }, from?: number): Found {
    const start = Math.max(0, Math.min(from ?? i, i) - EXCERPT_BEFORE);
    const excerpt = this.lines.slice(start, Math.min(this.lines.length, i + 1 + EXCERPT_AFTER)).join('\n').trim();
    const clean: Found = { tool, message: f.message.trim(), stack: f.stack ?? [], excerpt: excerpt.length > 4000 ? excerpt.slice(0, 4000) + '…' : excerpt, rank, at: i };
    if (f.code) clean.code = f.code;
    if (f.file) clean.file = f.file;
    if (f.line !== undefined && Number.isFinite(f.line)) clean.line = f.line;
    if (f.column !== undefined && Number.isFinite(f.column)) clean.column = f.column;
    if (f.wrapper) clean.wrapper = true;
    return clean;
  }

  /** tsc continues a message on indented lines ("  Type 'x' is not assignable..."): keep at most two. */
  withIndented(i: number, msg: string): string {
    const extra: string[] = [];
    for (let k = i + 1; k < this.lines.length && k <= i + 2; k++) {
      const l = this.lines[k];
      if (!/^\s{2,}\S/.test(l) || /^\s+\d+\s/.test(l)) break;
      extra.push(l.trim());
    }
    return extra.length ? `${msg}\n${extra.join('\n')}` : msg;
  }

  /** javac prints "symbol: variable x" two lines below "cannot find symbol"; it names what is missing. */
  withJavaSymbol(i: number, msg: string): string {
    if (!/^cannot find symbol|^package .* does not exist/.test(msg)) return msg;
    for (let k = i + 1; k < this.lines.length && k <= i + 4; k++) {
      const m = /^\s+symbol:\s+(.*)$/.exec(this.lines[k]);
      if (m) return `${msg}\nsymbol: ${m[1].trim()}`;
    }
    return msg;
  }

  rustLocation(i: number): { file?: string; line?: number; column?: number } | undefined {
    for (let k = i + 1; k < this.lines.length && k <= i + 3; k++) {
      const m = RUST_LOC.exec(this.lines[k]);
      if (m) return { file: m[1], line: +m[2], column: +m[3] };
    }
    return undefined;
  }

  frames(from: number, re: RegExp): string[] {
    const out: string[] = [];
    let k = from;
    // Node may continue the message first ("Did you mean to import ...", "Require stack:\n- /a.js").
    for (let skip = 0; skip < 6 && k < this.lines.length && !re.test(this.lines[k]); skip++, k++) {
      if (!/^(?:Did you mean|Require stack:|- \S|This file is being treated|To treat it as)/.test(this.lines[k].trim())) return out;
    }
    for (; k < this.lines.length && re.test(this.lines[k]); k++) {
      if (out.length < MAX_FRAMES) out.push(this.lines[k].trim());
    }
    return out;
  }

  pyFrames(from: number, to: number): string[] {
    const out: string[] = [];
    for (let k = from; k < to; k++) {
      const l = this.lines[k];
      if (PY_FRAME.test(l)) out.push(l.trim());
    }
    return out.length > MAX_FRAMES ? [...out.slice(0, 5), ...out.slice(-(MAX_FRAMES - 5))] : out;
  }

  /** A SyntaxError without traceback follows `File "x", line n` + source + caret. */
  pySyntaxContext(i: number): boolean {
    for (let k = i - 1; k >= 0 && k >= i - 6; k--) if (PY_FRAME.test(this.lines[k])) return true;
    return /^(?:\w+\.)*\w*(?:Error|Exception)(?::|$)/.test(this.lines[i]) && /^(ModuleNotFoundError|ImportError|IndentationError|TabError)/.test(this.lines[i]);
  }

  /** Node prints the error's own properties after the frames: `{ code: 'MODULE_NOT_FOUND', ... }`. */
  nodeCodeProp(from: number): string | undefined {
    for (let k = from; k < this.lines.length && k < from + 60; k++) {
      const l = this.lines[k];
      const m = NODE_CODE_PROP.exec(l);
      if (m) return m[1];
      if (/^Node\.js v\d/.test(l) || (k > from && NODE_ERR.test(l) && !/^\s/.test(l))) return undefined;
    }
    return undefined;
  }

  nodeLocation(i: number, frames: string[]): { file?: string; line?: number; column?: number } {
    // Node prints "file:line" above the offending source line and the caret when it can.
    for (let k = i - 1; k >= 0 && k >= i - 6; k--) {
      const m = NODE_LOC_HEADER.exec(this.lines[k].trim());
      if (m) return { file: m[1], line: +m[2] };
    }
    for (const fr of frames) {
      if (/\(node:|^at node:|\bnode:internal|node_modules/.test(fr)) continue;
      const m = NODE_FRAME.exec('    ' + fr);
      if (m) return m[1] ? { file: m[1], line: +m[2], column: +m[3] } : { file: m[4], line: +m[5], column: +m[6] };
    }
    return {};
  }

  /** pytest names the test location on a "file /path, line N" line above the E block. */
  pytestLocation(i: number): { file?: string; line?: number } {
    for (let k = i - 1; k >= 0 && k >= i - 12; k--) {
      const m = /^file (.+), line (\d+)$/.exec(this.lines[k]);
      if (m) return { file: m[1], line: +m[2] };
    }
    return {};
  }

  inTestRunner(i: number): string | undefined {
    for (let k = i - 1; k >= 0 && k >= i - 8; k--) {
      const l = this.lines[k];
      if (MOCHA_FAIL_HEAD.test(l) && /^\s{2}\d+\) /.test(l)) return 'mocha';
      if (JEST_FAIL_HEAD.test(l)) return 'jest';
      if (VITEST_FAIL_HEAD.test(l)) return 'vitest';
    }
    return undefined;
  }

  /**
   * The failing test's name (jest "● name", vitest "FAIL file > name", mocha "1) name", pytest's
   * "____ name ____" header) and jest's Expected/Received lines, appended to a test failure's message:
   * they are what tells one failing test from another.
   */
  withTest(message: string, i: number): string {
    let name: string | undefined;
    for (let k = i; k >= 0 && k >= i - 40 && !name; k--) {
      const l = this.lines[k];
      const m = (k >= i - 12 ? JEST_FAIL_HEAD.exec(l) ?? VITEST_FAIL_HEAD.exec(l) ?? /^\s{2}\d+\) (.+)$/.exec(l) : null) ?? /^_{3,} (.+?) _{3,}$/.exec(l);
      if (m && m[1].trim() !== message.trim()) name = m[1].trim().replace(/:$/, '');
    }
    const extra: string[] = [];
    if (name) extra.push(`test: ${name}`);
    for (let k = i + 1; k < this.lines.length && k <= i + 12; k++) {
      const m = /^\s*(Expected|Received)(?: value)?: (.+)$/.exec(this.lines[k]);
      if (m) extra.push(`${m[1]}: ${m[2].trim()}`);
    }
    return extra.length && !message.includes('\n') ? `${message}\n${extra.join('\n')}` : message;
  }

  isMochaFailure(i: number): boolean {
    return /^\s{2}\d+\) /.test(this.lines[i]);
  }

  jestBody(i: number): string | undefined {
    for (let k = i + 1; k < this.lines.length && k <= i + 6; k++) {
      const t = this.lines[k].trim();
      if (t) return t;
    }
    return undefined;
  }

  /** Folds an npm error block into one error: its code line plus the most telling message line. */
  npmBlock(i: number, push: (f: Found) => void): number {
    let k = i;
    let code: string | undefined;
    const msgs: { text: string; at: number }[] = [];
    for (; k < this.lines.length; k++) {
      const m = NPM.exec(this.lines[k].trim());
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
    push(this.make(best?.at ?? i, 'npm', lifecycle ? RANK.wrapper : RANK.npm, { code: code ?? (lifecycle ? 'ELIFECYCLE' : undefined), message, wrapper: lifecycle }, i));
    return k - 1;
  }
}
