// Finds the errors in raw tool output (terminal transcripts, build logs, diagnostics) and picks the
// root one. Output is bounded first and matched line by line with anchored, backtracking-safe
// regexes, so a hostile or huge transcript costs linear time. Each tool's patterns live in
// src/core/extract/<tool>.ts; extract/matchers.ts says in which order a line is offered to them.
import { boundText, boundedLines, sanitizeText } from './text';
import { fromHint, guessBare } from './extract/hint';
import { MATCHERS, MAY_START } from './extract/matchers';
import { Scan } from './extract/scan';
import { RANK, type ExtractedError, type ExtractOptions, type Found } from './extract/types';

export type { ExtractedError, ExtractOptions } from './extract/types';
export { knownTscCode } from './extract/tsc';

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

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
  const s = new Scan(lines, opts, opts.limit ?? 200);

  for (let i = 0; i < lines.length && !s.full; i++) {
    const printed = lines[i];
    const t = printed.trim();
    if (!t || (!MAY_START.test(printed) && !s.loggedErrors.has(i))) continue;
    const line = { i, raw: printed, t };
    for (const matcher of MATCHERS) {
      const handled = matcher.match(line, s);
      if (handled === false) continue;
      if (handled !== true) i = handled; // a block: resume after its last line
      break;
    }
  }

  const out = s.out;
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
