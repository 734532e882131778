// The details a signature normalises away but that decide whether an old fix applies: the module a
// "cannot find module" names, the types of a type mismatch, the test that failed. Two errors with one
// signature and different details are the same kind of error, not the same problem.
import { boundedLines } from './text';

export type DetailKind = 'module' | 'type' | 'test' | 'symbol';

/** The word a person would use for it; a closed set, so every surface can translate it. */
export type DetailNoun = 'module' | 'name' | 'symbol' | 'test' | 'type' | 'types';

export interface ErrorDetail {
  kind: DetailKind;
  noun: DetailNoun;
  value: string;
}

const MAX_LINES = 400;
const MAX_CHARS = 64 * 1024;
const MAX_DETAILS = 12;

// Each pattern reads one line. Values are quoted by the tool, in its own style: tsc and Python's 'x', mypy
// and pyright's "x", rustc's `x`, gcc's ‘x’; %Q stands for any of them, each closed by its own mark, so no
// guessing where a value ends (a value may hold other quotes: pyright's "Literal['none']"). What is read
// decides whether an old fix applies: the module, the types of a mismatch, the member that is missing, the
// test; not the variable or function it happened in (`Argument 1 to "total"` with the same types is the
// same problem as with "mean").
const QUOTES: [string, string][] = [["'", "'"], ['"', '"'], ['`', '`'], ['‘', '’'], ['“', '”'], ['`', "'"]];
const Q = `(?:${QUOTES.map(([o, c]) => `${o}([^${c}\\n]{1,200})${c}`).join('|')})`;

/**
 * A pattern whose values are %Q (a quoted value, one capture per quote style) or plain groups; `values`
 * reads them back in order, one per %Q or group, whichever quote matched.
 */
function rx(source: string): { re: RegExp; widths: number[] } {
  const widths: number[] = [];
  for (const m of source.matchAll(/%Q|\\.|\((?!\?)/g)) {
    if (m[0] === '%Q') widths.push(QUOTES.length);
    else if (m[0] === '(') widths.push(1);
  }
  return { re: new RegExp(source.replaceAll('%Q', Q)), widths };
}

function values(m: RegExpExecArray, widths: readonly number[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let g = 1;
  for (const w of widths) {
    let v: string | undefined;
    for (let k = g; k < g + w && v === undefined; k++) v = m[k];
    out.push(v);
    g += w;
  }
  return out;
}

const PATTERNS: { re: { re: RegExp; widths: number[] }; kind: DetailKind; noun: DetailNoun; join?: [number, number] }[] = [
  { re: rx(String.raw`Cannot find (?:module|package) %Q`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`No module named %Q`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`unresolved import %Q`), kind: 'module', noun: 'module' },
  // pyright, mypy.
  { re: rx(String.raw`Import %Q could not be resolved`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`(?:Cannot find implementation or library stub|Library stubs not installed) for (?:module named )?%Q`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`%Q imported (?:and|but) (?:not used|unused)`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`imported and not used: %Q`), kind: 'module', noun: 'module' },
  // Go names packages without quotes.
  { re: rx(String.raw`(?:cannot find module providing package|no required module provides package) ([\w.~/-]{1,200})`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`package ([\w.~/-]{1,200}) is not in (?:GOROOT|std)`), kind: 'module', noun: 'module' },
  { re: rx(String.raw`Type %Q is not assignable to (?:declared )?type %Q`), kind: 'type', noun: 'types', join: [1, 2] },
  { re: rx(String.raw`Argument of type %Q is not assignable to parameter of type %Q`), kind: 'type', noun: 'types', join: [1, 2] },
  { re: rx(String.raw`Argument of type %Q cannot be assigned to parameter %Q of type %Q`), kind: 'type', noun: 'types', join: [1, 3] },
  { re: rx(String.raw`does not exist on type %Q`), kind: 'type', noun: 'type' },
  { re: rx(String.raw`expected %Q, found %Q`), kind: 'type', noun: 'types', join: [1, 2] },
  { re: rx(String.raw`incompatible types: (\S{1,200}) cannot be converted to (\S{1,200})`), kind: 'type', noun: 'types', join: [1, 2] },
  // mypy: arg-type, return-value, assignment.
  { re: rx(String.raw`has incompatible type %Q; expected %Q`), kind: 'type', noun: 'types', join: [1, 2] },
  { re: rx(String.raw`Incompatible return value type \(got %Q, expected %Q\)`), kind: 'type', noun: 'types', join: [1, 2] },
  { re: rx(String.raw`Incompatible types in assignment \(expression has type %Q, variable has type %Q\)`), kind: 'type', noun: 'types', join: [1, 2] },
  // Python's TypeError names the types it could not combine.
  { re: rx(String.raw`can only concatenate (\w+) \(not %Q\) to \w+`), kind: 'type', noun: 'types', join: [2, 1] },
  { re: rx(String.raw`unsupported operand type\(s\) for \S{1,3}: %Q and %Q`), kind: 'type', noun: 'types', join: [1, 2] },
  // Test runners: mocha "  1) title", jest "● suite › title", pytest "FAILED path::test", go "--- FAIL: Test".
  { re: rx(String.raw`^\s+\d+\) (.{1,200}?):?$`), kind: 'test', noun: 'test' },
  { re: rx(String.raw`^\s*● (?!Test suite failed to run)(.{1,200})$`), kind: 'test', noun: 'test' },
  { re: rx(String.raw`^FAILED \S*?::(\S{1,200})`), kind: 'test', noun: 'test' },
  { re: rx(String.raw`^--- FAIL: (\S{1,200})`), kind: 'test', noun: 'test' },
  // What extract.ts appends to a test failure's message ("test: name"), so a stored lesson keeps it too.
  { re: rx(String.raw`^test: (.{1,200})$`), kind: 'test', noun: 'test' },
  // vitest "FAIL  file > name"; pytest's "____ name ____" block header.
  { re: rx(String.raw`^\s*FAIL\s+\S+ > (.{1,200})$`), kind: 'test', noun: 'test' },
  { re: rx(String.raw`^_{3,} (\S{1,200}) _{3,}$`), kind: 'test', noun: 'test' },
  // javac "symbol: variable count", rustc/gcc name the missing item in quotes elsewhere.
  { re: rx(String.raw`^\s*symbol:\s+((?:class|variable|method|interface) \S{1,200})`), kind: 'symbol', noun: 'symbol' },
  // Python: which name an import could not find ("cannot import name 'kebab' from 'helpers'").
  { re: rx(String.raw`cannot import name %Q from %Q`), kind: 'symbol', noun: 'name', join: [1, 2] },
  // The member, attribute, property or fixture that is missing (pylint, Python, mypy, pytest, tsc): another
  // one is another typo or another fixture, whatever holds it (`Instance of 'Client'`). A missing variable or
  // global ("cannot find value `total`", "Cannot find name 'describe'", an undefined symbol) is not read:
  // its fix (an import, a scope, a library) does not depend on which one.
  { re: rx(String.raw`has no %Q member`), kind: 'symbol', noun: 'name' },
  { re: rx(String.raw`has no attribute %Q`), kind: 'symbol', noun: 'name' },
  { re: rx(String.raw`\bfixture %Q not found`), kind: 'symbol', noun: 'name' },
  { re: rx(String.raw`\bProperty %Q does not exist`), kind: 'symbol', noun: 'name' },
];

/** The details of the errors in raw output (first occurrences, bounded). */
export function errorDetails(raw: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const seen = new Set<string>();
  if (!raw) return out;
  for (const line of boundedLines(raw.slice(0, MAX_CHARS), 1000).slice(0, MAX_LINES)) {
    for (const p of PATTERNS) {
      const m = p.re.re.exec(line);
      if (!m) continue;
      const v = values(m, p.re.widths);
      const value = p.join ? `${v[p.join[0] - 1]} → ${v[p.join[1] - 1]}` : normaliseValue(v[0] ?? '', p.kind);
      const key = `${p.kind}\n${value}`;
      if (!value || seen.has(key)) continue;
      seen.add(key);
      out.push({ kind: p.kind, noun: p.noun, value });
      if (out.length >= MAX_DETAILS) return out;
    }
  }
  return out;
}

/** An absolute path to a missing file is compared by its name: the folder is where, not what. */
function normaliseValue(v: string, kind: DetailKind): string {
  const s = v.trim();
  if (kind === 'module' && /^(?:[A-Za-z]:)?[\\/]/.test(s)) return s.split(/[\\/]/).pop() ?? s;
  return s;
}

export type DetailMatch = { same: true } | { same: false; differ: ErrorDetail } | undefined;

/**
 * Compares a query's details with a memory's. undefined when they share no kind of detail (nothing to
 * tell them apart); same when every shared kind has a value in common; otherwise the query's first
 * detail the memory lacks.
 */
export function compareDetails(query: readonly ErrorDetail[], memory: readonly ErrorDetail[]): DetailMatch {
  let shared = false;
  for (const kind of ['module', 'type', 'test', 'symbol'] as const) {
    const q = query.filter(d => d.kind === kind);
    const m = memory.filter(d => d.kind === kind);
    if (!q.length || !m.length) continue;
    shared = true;
    const values = new Set(m.map(d => d.value));
    if (!q.some(d => values.has(d.value))) return { same: false, differ: q[0] };
  }
  return shared ? { same: true } : undefined;
}
