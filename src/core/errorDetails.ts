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

// Each pattern reads one line; values are quoted by the tool, so no guessing where they end.
const PATTERNS: { re: RegExp; kind: DetailKind; noun: DetailNoun; join?: boolean }[] = [
  { re: /Cannot find (?:module|package) '([^'\n]{1,200})'/, kind: 'module', noun: 'module' },
  { re: /No module named '([^'\n]{1,200})'/, kind: 'module', noun: 'module' },
  { re: /unresolved import `([^`\n]{1,200})`/, kind: 'module', noun: 'module' },
  { re: /Type '([^'\n]{1,200})' is not assignable to type '([^'\n]{1,200})'/, kind: 'type', noun: 'types', join: true },
  { re: /Argument of type '([^'\n]{1,200})' is not assignable to parameter of type '([^'\n]{1,200})'/, kind: 'type', noun: 'types', join: true },
  { re: /does not exist on type '([^'\n]{1,200})'/, kind: 'type', noun: 'type' },
  { re: /expected `([^`\n]{1,200})`, found `([^`\n]{1,200})`/, kind: 'type', noun: 'types', join: true },
  { re: /incompatible types: (\S{1,200}) cannot be converted to (\S{1,200})/, kind: 'type', noun: 'types', join: true },
  // Test runners: mocha "  1) title", jest "● suite › title", pytest "FAILED path::test", go "--- FAIL: Test".
  { re: /^\s+\d+\) (.{1,200}?):?$/, kind: 'test', noun: 'test' },
  { re: /^\s*● (?!Test suite failed to run)(.{1,200})$/, kind: 'test', noun: 'test' },
  { re: /^FAILED \S*?::(\S{1,200})/, kind: 'test', noun: 'test' },
  { re: /^--- FAIL: (\S{1,200})/, kind: 'test', noun: 'test' },
  // What extract.ts appends to a test failure's message ("test: name"), so a stored lesson keeps it too.
  { re: /^test: (.{1,200})$/, kind: 'test', noun: 'test' },
  // vitest "FAIL  file > name"; pytest's "____ name ____" block header.
  { re: /^\s*FAIL\s+\S+ > (.{1,200})$/, kind: 'test', noun: 'test' },
  { re: /^_{3,} (\S{1,200}) _{3,}$/, kind: 'test', noun: 'test' },
  // javac "symbol: variable count", rustc/gcc name the missing item in quotes elsewhere.
  { re: /^\s*symbol:\s+((?:class|variable|method|interface) \S{1,200})/, kind: 'symbol', noun: 'symbol' },
  // Python: which name an import could not find ("cannot import name 'kebab' from 'helpers'").
  { re: /cannot import name '([^'\n]{1,200})' from '([^'\n]{1,200})'/, kind: 'symbol', noun: 'name', join: true },
];

/** The details of the errors in raw output (first occurrences, bounded). */
export function errorDetails(raw: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const seen = new Set<string>();
  if (!raw) return out;
  for (const line of boundedLines(raw.slice(0, MAX_CHARS), 1000).slice(0, MAX_LINES)) {
    for (const p of PATTERNS) {
      const m = p.re.exec(line);
      if (!m) continue;
      const value = p.join ? `${m[1]} → ${m[2]}` : normaliseValue(m[1], p.kind);
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
