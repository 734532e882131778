// Located diagnostics of any tool whose lines have no matcher of their own: "file:line[:col]: message"
// (Go, flake8, ruff, mypy, pylint, make's own errors), "file:line:col - error: message" (pyright) and
// Biome's "file:line:col rule/name ━━━" head with its "× message" below. Which of those lines is the error
// is decided here once, for every tool:
//   - an explicit severity decides: error/fatal are errors; note, help, info, hint and remark lines are
//     context, never the error; a warning is kept only as a last resort (a run that failed on warnings);
//   - a line without a severity is an error at column 0 and context when indented (Go prints the other
//     declaration of a redeclared name, indented, below the error);
//   - the rule code is kept wherever the tool prints it (`F401 …`, `… [assignment]`, `(reportX)`, the head);
//   - the tool is the program that printed the output (Scan.programTool), else the one the format belongs
//     to (make's own `Makefile:2: ***`, Biome's head), else 'generic': never a guess from the file's language.
import { RANK } from './types';
import type { Matcher, Scan } from './scan';

// An optional "vet: " names the analyser that printed the location (go vet).
const LOCATED = /^(?:([a-z][\w-]*): )?([^\s:]+):(\d+)(?::(\d+))?(?::| -) +(\S.*)$/;
const BIOME_HEAD = /^([^\s:]+):(\d+):(\d+) ((?:[\w-]+\/)+[\w-]+)(?: +[A-Z]+)* +━+$/;
const BIOME_BODY = /^\s*([×✖!i]) (.+)$/;
// Maven's compiler plugin: "/src/A.java:[5,29] message" (the [ERROR]/[WARNING] marker taken off by Scan).
const BRACKETED = /^([^\s:]+):\[(\d+),(\d+)\] (\S.*)$/;
// Perl, and tools that end their message with where it happened: "message at bin/x.pl line 3." (a
// `, <STDIN> line 2` read position may follow).
const AT_LINE = /^(\S.*?) at ([^\s,]+) line (\d+)(?:, <[^>]*> (?:line|chunk) \d+)?\.$/;
// CMake and tools of its kind: "CMake Error at CMakeLists.txt:4 (add_executable):" with the message on
// the indented lines below.
const SEVERITY_AT = /^(?:([A-Z][\w.-]*) )?(Error|Warning|Deprecation Warning|Warning \(dev\))(?: in [\w.-]+)? at ([^\s:]+):(\d+)(?: \(([^)]*)\))?:$/;
const SEVERITY = /^(fatal error|error|fatal|warning|warn|note|help|info|information|hint|remark|suggestion)(?:\[([\w-]+)\])?:\s*(.*)$/i;
const LEADING_CODE = /^([A-Z]{1,5}\d{2,5})(?::| \[\*\])? +(\S.*)$/;
const TRAILING_CODE = /^(.*?) +(?:\[(?:Error|Warning)\/([\w@/.-]+)\]|\[([\w-]+)\]|\(((?:report|lint\/)\w+|[a-z]+(?:-[a-z]+)+)\))$/;
/** Files whose name has no extension but that tools report on. */
const EXTENSIONLESS = /^(?:GNUmakefile|[Mm]akefile|Dockerfile|Containerfile|Jenkinsfile|Rakefile|Gemfile|Vagrantfile|Justfile|Taskfile)$/;
/** pytest prints "test_x.py:5: AssertionError" where the exception's block above says what it was. */
const EXCEPTION_NAME_ONLY = /^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)$/;

/** Something a tool reports on: a path or a file name with an extension (not `localhost:3000`). */
function looksLikeFile(f: string): boolean {
  const base = f.replace(/^.*\//, '');
  if (/^[\d.]+$/.test(base)) return false;
  return f.includes('/') || /\.[A-Za-z]\w{0,9}$/.test(base) || EXTENSIONLESS.test(base);
}

export const located: Matcher = {
  name: 'located',
  match({ i, raw, t }, s) {
    const head = BIOME_HEAD.exec(t);
    if (head) return biome(s, i, head);
    const at = SEVERITY_AT.exec(t);
    if (at && !/^\s/.test(raw) && looksLikeFile(at[3])) return severityAt(s, i, at);
    const br = BRACKETED.exec(t);
    if (br && looksLikeFile(br[1])) {
      s.push(s.make(i, s.programTool ?? 'generic', RANK.located, { message: br[4].trim(), file: br[1].replace(/^\.\//, ''), line: +br[2], column: +br[3] }));
      return true;
    }
    const pl = AT_LINE.exec(t);
    if (pl && !/^\s/.test(raw) && looksLikeFile(pl[2])) {
      s.push(s.make(i, s.programTool ?? 'generic', RANK.located, { message: pl[1].trim(), file: pl[2].replace(/^\.\//, ''), line: +pl[3] }));
      return true;
    }
    const m = LOCATED.exec(t);
    if (!m || !looksLikeFile(m[2])) return false;
    const [, , file, line, column] = m;
    let body = m[5].trim();
    const indented = /^\s/.test(raw);
    let severity: string | undefined;
    let code: string | undefined;
    const sev = SEVERITY.exec(body);
    if (sev) { severity = sev[1].toLowerCase(); code = sev[2]; body = sev[3].trim(); }
    const isError = severity === undefined ? !indented : /^(?:fatal error|error|fatal)$/.test(severity);
    const isWarning = severity === 'warning' || severity === 'warn';
    // Context (a note, a hint, an indented "other declaration of x"): claimed so no looser matcher takes it.
    if ((!isError && !isWarning) || !body || EXCEPTION_NAME_ONLY.test(body)) return true;
    const lead = LEADING_CODE.exec(body);
    if (lead) { code ??= lead[1]; body = lead[2]; }
    // A trailing rule is the code unless a leading one took that place (pylint's `E1101: … (no-member)`):
    // then its name stays in the message, where it says more than the number.
    const trail = TRAILING_CODE.exec(body);
    if (trail && !code) { code = trail[2] ?? trail[3] ?? trail[4]; body = trail[1].trim(); }
    // pyright puts the rule on the last line of the message's indented continuation.
    code ??= continuationCode(s.lines, i, raw);
    const base = file.replace(/^.*\//, '');
    const makeOwn = /^(?:[Mm]akefile|GNUmakefile)$/.test(base) && body.startsWith('*** ');
    if (makeOwn) body = body.replace(/^\*\*\* /, '').replace(/\.?\s+Stop\.$/, '');
    const tool = makeOwn ? 'make' : s.programTool ?? 'generic';
    const rank = isWarning ? RANK.generic + 5 : severity ? RANK.compiler : RANK.located;
    s.push(s.make(i, tool, rank, { code, message: body, file: file.replace(/^\.\//, ''), line: +line, column: column ? +column : undefined }));
    return true;
  },
};

/** A rule code such as `(reportAssignmentType)` ending the message's more-indented continuation lines. */
function continuationCode(lines: string[], i: number, raw: string): string | undefined {
  const indent = /^\s*/.exec(raw)![0].length;
  for (let k = i + 1; k < lines.length && k <= i + 6; k++) {
    const l = lines[k];
    if (!l.trim() || /^\s*/.exec(l)![0].length <= indent) return undefined;
    const m = /\(((?:report)\w+)\)\s*$/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/** Biome: the head names the file and the rule; the marked line below is the message (× error, ! warning, i info). */
function biome(s: Scan, i: number, head: RegExpExecArray): number | true {
  for (let k = i + 1; k < s.lines.length && k <= i + 4; k++) {
    const b = BIOME_BODY.exec(s.lines[k]);
    if (!b) continue;
    if (b[1] === 'i') return k;
    const warning = b[1] === '!';
    s.push(s.make(k, s.programTool ?? 'biome', warning ? RANK.generic + 5 : RANK.compiler, { code: head[4], message: b[2].trim(), file: head[1], line: +head[2], column: +head[3] }, i));
    return k;
  }
  return true;
}

/** "X Error at file:line (context):": the message is the first paragraph of the indented lines below. */
function severityAt(s: Scan, i: number, m: RegExpExecArray): number | true {
  const body: string[] = [];
  let k = i + 1;
  for (; k < s.lines.length && k <= i + 12; k++) {
    const l = s.lines[k];
    if (!l.trim()) {
      // "Cannot find source file:" names what it means in the next paragraph.
      if (body.length && !body[body.length - 1].endsWith(':')) break;
      continue;
    }
    if (!/^\s/.test(l)) break;
    const ended = body.length && body[body.length - 1].endsWith(':') && k > i + 1 && !s.lines[k - 1].trim();
    body.push(l.trim());
    if (ended) { k++; break; }
  }
  if (!body.length || !/^Error/.test(m[2])) return true; // a warning, or nothing said: context
  const tool = s.programTool ?? (m[1] ? m[1].toLowerCase() : 'generic');
  s.push(s.make(i, tool, RANK.compiler, { message: body.join(' '), file: m[3].replace(/^\.\//, ''), line: +m[4] }));
  return k - 1;
}
