// What a recall query is made of, apart from ranking: the error signatures it carries, its words with
// their weight, the words the user typed (for readable reasons), and the signature key of a memory's raw
// error text computed the same way. recall.ts ranks with these; newMemory and the hover key memories by them.
import { extractErrors } from './extract';
import { meaningfulText, tokenize } from './lexical';
import type { WordIndex } from './recall/source';
import { normaliseSignature, signatureOf } from './signature';
import { stripAnsi } from './text';

/** Query words kept for scoring: the rarest, so a pasted log does not cost a pass over every common word. */
export const MAX_QUERY_TOKENS = 48;

/** Signature keys in a query, each with a short label for the reasons (the code when there is one). */
export function querySignatures(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!text.trim()) return out;
  const add = (s: { key: string; code?: string; family: string } | undefined) => {
    if (s?.key && !out.has(s.key)) out.set(s.key, s.code ?? s.family);
  };
  try {
    const found = extractErrors(text);
    // A summary line ("1 error", "Found 2 errors", make's "*** Error 1") is a query's error only when it
    // is all there is: beside a real error it would match any memory keyed by the same count.
    const real = found.filter(e => !e.wrapper);
    if (real.length || !found.length) {
      const root = signatureOf(text);
      if (root && real.some(e => normaliseSignature(e.message, e.tool, e.code).key === root.key)) add(root);
    } else {
      add(signatureOf(text));
    }
    for (const e of (real.length ? real : found).slice(0, 8)) add(normaliseSignature(e.message, e.tool, e.code));
    // A one-line paste that does not look like tool output ("Cannot find module 'x'") still has a message.
    if (!out.size && !text.includes('\n') && text.length < 600) add(normaliseSignature(text.trim()));
  } catch {
    // A query the extractor cannot parse still has words.
  }
  return out;
}

/** Signature key for a memory's raw error text, the same way a query computes it. */
export function signatureKeyOf(rawError: string): string | undefined {
  if (!rawError.trim()) return undefined;
  try {
    return signatureOf(rawError)?.key ?? normaliseSignature(firstLine(rawError)).key;
  } catch {
    return undefined;
  }
}

export function codeOf(key: string): string {
  const i = key.indexOf(':');
  const j = i < 0 ? -1 : key.indexOf(':', i + 1);
  const code = j < 0 ? '-' : key.slice(i + 1, j);
  // Plain "Error" is the class every JS error has, not a code: as good as none.
  return code === 'Error' ? '-' : code;
}

/** The message part of a key ("tool:code:text" → "text"), without a leading "error:" the tool may print. */
export function signatureTextOf(key: string): string {
  const i = key.indexOf(':');
  const j = i < 0 ? -1 : key.indexOf(':', i + 1);
  return (j < 0 ? key : key.slice(j + 1)).replace(/^(?:error|fatal error|uncaught)\s*:\s*/i, '').trim();
}

function firstLine(s: string): string {
  return s.split('\n').find(l => l.trim())?.trim() ?? s.trim();
}

export function pickTokens(tokens: string[], lexical: WordIndex): string[] {
  const unique = [...new Set(tokens)];
  if (unique.length <= MAX_QUERY_TOKENS) return tokens;
  const best = new Set(unique.map(t => ({ t, idf: lexical.idf(t) })).filter(x => x.idf > 0)
    .sort((a, b) => b.idf - a.idf).slice(0, MAX_QUERY_TOKENS).map(x => x.t));
  return tokens.filter(t => best.has(t));
}

/** Token → the word the user typed for it ("modul" → "module"), for readable reasons. */
export function surfaceMap(query: string): Map<string, string> {
  const found = new Map<string, string>();
  const exact = new Set<string>();
  const seen = new Set<string>();
  // Words inside paths never become reasons: folders are where, not what.
  for (const raw of meaningfulText(query.slice(0, 4000), false).split(/[^\p{L}\p{N}_$-]+/u)) {
    const w = raw.replace(/^-+|-+$/g, '');
    if (!w || seen.has(w)) continue;
    seen.add(w);
    const toks = tokenize(w);
    // "error" is shown as "error", not as the first compound it appeared in ("RangeError").
    const whole = toks.length === 1;
    for (const t of toks) {
      if (exact.has(t) || (found.has(t) && !whole)) continue;
      found.set(t, w.toLowerCase().slice(0, 40));
      if (whole) exact.add(t);
    }
  }
  return found;
}

/** A word fit for a reason shown to people. */
export function shownWord(w: string): boolean {
  return w.length >= 3 && !/^\d/.test(w) && !/[\\/]/.test(w);
}

/**
 * The query's words with their weight (unknown words count fully: no memory has them, evidence
 * against), and the words of its error message proper, when it has one.
 */
export interface QueryMeaning { idf: Map<string, number>; total: number; message: Set<string>; isError: boolean }

export function queryMeaning(text: string, tokens: string[], lexical: WordIndex): QueryMeaning {
  let message = new Set<string>();
  let isError = false;
  try {
    const sig = text.trim() ? signatureOf(text) : undefined;
    if (sig) { message = new Set(tokenize(sig.words.join(' '))); isError = true; }
  } catch {
    // No parsable error: the words alone decide.
  }
  const idf = new Map<string, number>();
  const n = lexical.size;
  const unknown = Math.log(1 + (n + 0.5) / 0.5);
  let total = 0;
  for (const t of new Set(tokens)) {
    const w = lexical.idf(t) || unknown;
    idf.set(t, w);
    total += w;
  }
  return { idf, total, message, isError };
}

/** Characters of a query a model embeds: its meaning is in the first sentences, and models truncate anyway. */
const MAX_EMBED_CHARS = 2000;

/**
 * What an embedding model sees of a query: the error messages extracted from raw tool output (no ANSI
 * codes, progress lines or stack frames), else the words as typed, bounded. The raw query (up to 64 KB)
 * would spend the model's window on noise.
 */
export function embeddingText(text: string): string {
  const clean = stripAnsi(text);
  try {
    const messages = [...new Set(extractErrors(clean).slice(0, 8).map(e => e.message.trim()).filter(Boolean))];
    if (messages.length) return messages.join('\n').slice(0, MAX_EMBED_CHARS);
  } catch {
    // Not parsable as tool output: the words themselves.
  }
  return clean.trim().slice(0, MAX_EMBED_CHARS);
}
