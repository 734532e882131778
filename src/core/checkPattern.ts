// Constraint checks (a rule turned into a regular expression over a file's text) are the one place where
// text from outside (an import, a team file, a chat tool) becomes code that runs on every keystroke. They
// are compiled and run here, and only here, on RE2 (the `re2js` port): its matching time is linear in the
// text by construction, so `(x+x+)+y` or `(a|a)*b` cannot stall the editor the way a backtracking engine
// does. Patterns are written in JavaScript syntax with the flags i, m, s, u; what RE2 cannot express
// (backreferences, lookahead, lookbehind) is refused with a sentence saying so, when the check is created
// or imported, never discovered later in the editor.
import { RE2JS } from 're2js';
import { checkShapeProblem } from './trust';

/** Flags a check may carry (JavaScript spelling). */
export const CHECK_FLAGS = /^[imsu]*$/;
/** A check longer than this is refused (it is a rule about code, not a program). */
export const MAX_CHECK_PATTERN = 2000;
/** Text scanned per document: beyond this a file is not checked at all (a minified bundle, a log). */
export const MAX_SCAN_CHARS = 1_000_000;
/** Matches reported per check per document. */
export const MAX_CHECK_HITS = 50;

export type CompiledCheck = { ok: true; re: RE2JS } | { ok: false; error: string };

// Compiled checks, by flags + pattern: the editor re-checks open files on every change.
const cache = new Map<string, CompiledCheck>();
const CACHE_MAX = 500;

/** Compiles a check, or says in words why it cannot be one. */
export function compileCheck(pattern: string, flags = ''): CompiledCheck {
  const key = `${flags}/${pattern}`;
  let c = cache.get(key);
  if (!c) {
    c = compile(pattern, flags);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, c);
  }
  return c;
}

function compile(pattern: string, flags: string): CompiledCheck {
  if (typeof pattern !== 'string' || !pattern) return { ok: false, error: 'the check needs a regular expression' };
  if (pattern.length > MAX_CHECK_PATTERN) return { ok: false, error: `the pattern is longer than ${MAX_CHECK_PATTERN} characters` };
  if (typeof flags !== 'string' || !CHECK_FLAGS.test(flags)) return { ok: false, error: 'flags may only contain i, m, s, u' };
  // Valid JavaScript first: that is the syntax users write (and the one RE2's translation assumes). The
  // RegExp is only compiled, never run. Its message quotes the pattern (user text): keep only the reason.
  try { new RegExp(pattern, flags); } catch (e) { return { ok: false, error: `invalid regular expression: ${jsReason(e)}` }; }
  const unsupported = unsupportedConstruct(pattern);
  if (unsupported) return { ok: false, error: `${unsupported} cannot be used in a constraint check: checks run on a linear-time engine (RE2) so that no pattern can freeze the editor` };
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), toRe2Flags(flags));
  } catch (e) {
    return { ok: false, error: `the linear-time engine (RE2) cannot run this pattern: ${re2Reason(e)}` };
  }
  // A pattern that matches nothing-at-all would flag every file.
  if (re.test('')) return { ok: false, error: 'the pattern matches empty text, so it would flag every file' };
  return { ok: true, re };
}

/** Problem with a constraint check (glob, pattern, flags), in words, or undefined when it is usable. */
export function validateCheck(check: { glob?: unknown; pattern?: unknown; flags?: unknown } | undefined): string | undefined {
  const shape = checkShapeProblem(check);
  if (shape) return shape;
  const c = compileCheck(check!.pattern as string, (check!.flags as string | undefined) ?? '');
  return c.ok ? undefined : c.error;
}

/**
 * Where a check matches in `text`, at most `max` matches (an unusable pattern matches nothing). Text past
 * MAX_SCAN_CHARS is not read: a document that long is not checked (the caller says so, or skips it).
 */
export function checkMatches(check: { pattern: string; flags?: string }, text: string, max = MAX_CHECK_HITS): { start: number; end: number }[] {
  // g and y mean nothing for a scan of the whole text; a stored check never has them, a hand-made one may.
  const c = compileCheck(check.pattern, (check.flags ?? '').replace(/[gy]/g, ''));
  if (!c.ok || text.length > MAX_SCAN_CHARS) return [];
  const hits: { start: number; end: number }[] = [];
  const m = c.re.matcher(text);
  // Matcher.find continues after the previous match and steps over an empty one by itself.
  while (hits.length < max && m.find()) {
    const start = m.start(), end = m.end();
    hits.push({ start, end: Math.max(end, start + 1) });
  }
  return hits;
}

function toRe2Flags(flags: string): number {
  let f = 0;
  if (flags.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) f |= RE2JS.MULTILINE;
  if (flags.includes('s')) f |= RE2JS.DOTALL;
  // 'u': RE2 always matches whole code points, so it needs no flag of its own.
  return f;
}

/**
 * The constructs RE2 does not have, found by a scan of the JavaScript pattern. Checked before RE2's own
 * translation because that one quietly rewrites `\k<name>` into the literal text "k<name>" and `\Z` into
 * "Z": a backreference must be refused, not turned into something else.
 */
function unsupportedConstruct(p: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const n = p[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(n)) return `a backreference (\\${n})`;
      if (!inClass && n === 'k' && p[i + 2] === '<') return 'a named backreference (\\k<…>)';
      i++;
      continue;
    }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') { inClass = true; continue; }
    if (c === '(' && p[i + 1] === '?') {
      const a = p[i + 2], b = p[i + 3];
      if (a === '=' || a === '!') return `a lookahead (?${a}…)`;
      if (a === '<' && (b === '=' || b === '!')) return `a lookbehind (?<${b}…)`;
    }
  }
  return undefined;
}

function jsReason(e: unknown): string {
  return String((e as Error)?.message ?? e)
    .replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '')
    .replace(/^Invalid flags supplied to RegExp constructor '.*'$/, 'invalid flags');
}

function re2Reason(e: unknown): string {
  // "error parsing regexp: invalid repeat count: `{1,2000}`": the part in backquotes is the user's text.
  return String((e as Error)?.message ?? e).replace(/^error parsing regexp: /, '').replace(/:\s*`[\s\S]*`\s*$/, '').trim() || 'unsupported syntax';
}
