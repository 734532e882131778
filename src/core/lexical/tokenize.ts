// Code-aware tokens: error output is full of identifiers, paths and codes, so tokens split
// camelCase/snake_case/paths but keep codes such as TS2322, E0382 or ENOENT whole; Korean text is
// mapped through the glossary and kept as syllable bigrams. The same function serves memories and
// queries, so the two always meet in the same vocabulary.
import { englishParaphrases, hasHangul, koreanToEnglish } from '../glossary';
import { meaningfulText } from './meaningfulText';

const STOP = new Set((
  'a an the is are was were be been being am to of in on at by for from with without and or but if then so ' +
  'as it its this that these those there here i me my we our you your he she they them their what which who whom ' +
  'why how when where do does did doing done have has had having can could should would will shall may might must ' +
  'get got just also than too very about into over under again some any all each other such only own same ' +
  'up down off more most no nor please help thing things way getting keep keeps ' +
  'happen happens happened anyone someone something know want need trying try tried fix fixed say says'
).split(/\s+/));

// Codes compilers and runtimes print, kept whole: TS2322, E0382, CS1002, C2065, LNK2019, ENOENT, EADDRINUSE, ERR_REQUIRE_ESM.
const CODE_RE = /\b(?:[A-Z]{1,4}\d{3,5}|E[A-Z]{3,15}|ERR_[A-Z0-9_]{3,40})\b/g;
const WORD_RE = /[\p{L}\p{N}_$]+/gu;
const HANGUL_RUN = /[\uac00-\ud7a3]+/g;
const DIGIT = /\d/;
const ALL_DIGITS = /^\d+$/;
/** A number with a unit (14ms, 2s, 512kb): a timing or size, not a meaning. */
const MEASURE = /^\d+(?:ms|s|m|h|kb|mb|gb|b)$/;
const S_KEEP = /(ss|us|is|ys)$/;
const DOUBLED = /([bdgmnprt])\1$/;
const ID_SEPARATORS = /[_$]/g;

/** Light English stemming: enough that error/errors, resolve/resolved/resolving meet. */
export function stem(w: string): string {
  if (w.length <= 3 || DIGIT.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !S_KEEP.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 6) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  // resolv/resolved both reach here as "resolv"; doubled consonants from -ing/-ed (mapped/map) collapse.
  if (w.length > 4 && DOUBLED.test(w)) w = w.slice(0, -1);
  return w;
}

// Opening a store tokenizes every memory, and error text repeats the same few thousand words, so the
// word → token step (lowercase, filters, stemming) is memoised. '' marks a dropped word. Bounded: a
// pathological store of unique words clears it rather than growing without limit.
const WORD_CACHE_MAX = 100_000;
const wordCache = new Map<string, string>();

function wordToken(raw: string): string {
  let tok = wordCache.get(raw);
  if (tok !== undefined) return tok;
  tok = '';
  const lower = raw.toLowerCase();
    // Over 40 characters: hashes, base64 blobs, noise for ranking.
  // Numbers alone (line, column, position, pid) never say what an error is; codes keep theirs (TS2322).
  if (lower.length >= 2 && !ALL_DIGITS.test(lower) && !MEASURE.test(lower) && !STOP.has(lower) && lower.length <= 40) {
    tok = stem(lower);
  }
  if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
  wordCache.set(raw, tok);
  return tok;
}

function pushWord(out: string[], raw: string): void {
  const tok = wordToken(raw);
  if (tok) out.push(tok);
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLowerOrDigit = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isLower = (c: number) => c >= 97 && c <= 122;
const isSep = (c: number) => c === 95 /* _ */ || c === 36 /* $ */;

/**
 * Pushes the parts of an identifier: fooBarBaz, foo_bar, HTTPServer → http server, v8Flags → v8 flags,
 * plus the whole identifier when it has several parts. One scan instead of regex replace + split: this
 * runs for every word of every memory when a store opens. Boundaries: a capital after a lowercase letter
 * or digit, the last capital of a capital run followed by a lowercase letter, and `_`/`$`.
 */
function pushIdentifier(out: string[], word: string): void {
  let toks = identCache.get(word);
  if (!toks) {
    toks = [];
    splitIdentifier(toks, word);
    if (identCache.size >= WORD_CACHE_MAX) identCache.clear();
    identCache.set(word, toks);
  }
  for (let i = 0; i < toks.length; i++) out.push(toks[i]);
}

/** Word (as matched in the text) → its tokens: one lookup per word for the words every memory repeats. */
const identCache = new Map<string, string[]>();

function splitIdentifier(out: string[], word: string): void {
  const n = word.length;
  let parts = 0;
  let start = -1; // start of the current part, -1 between parts
  let first = ''; // the first part, pushed late: a single-part word is pushed whole instead
  let prev = -1;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? word.charCodeAt(i) : -1;
    let boundary = false;
    if (c === -1 || isSep(c)) boundary = true;
    else if (start >= 0 && isUpper(c) && (isLowerOrDigit(prev) || (isUpper(prev) && i + 1 < n && isLower(word.charCodeAt(i + 1))))) boundary = true;
    if (boundary && start >= 0) {
      const part = word.slice(start, i);
      if (parts === 0) first = part;
      else { if (parts === 1) pushWord(out, first); pushWord(out, part); }
      parts++;
      start = -1;
    }
    if (c !== -1 && !isSep(c) && start < 0) start = i;
    prev = c;
  }
  if (parts > 1) {
    // The whole identifier too, so "ModuleNotFoundError" or "useState" also matches exactly.
    if (n <= 40) pushWord(out, word.replace(ID_SEPARATORS, ''));
  } else {
    pushWord(out, word);
  }
}

/**
 * Tokens for indexing and querying. Deterministic; the same function serves memories and queries so the
 * two always meet in the same vocabulary.
 */
export function tokenize(text: string): string[] {
  if (!text) return [];
  const out: string[] = [];
  text = meaningfulText(text);
  // One pass both collects the codes and blanks them out.
  const withoutCodes = text.replace(CODE_RE, code => { out.push(code.toLowerCase()); return ' '; });
  let latin = withoutCodes;
  if (hasHangul(withoutCodes)) {
    for (const w of koreanToEnglish(withoutCodes)) pushWord(out, w);
    HANGUL_RUN.lastIndex = 0;
    for (let m = HANGUL_RUN.exec(withoutCodes); m; m = HANGUL_RUN.exec(withoutCodes)) {
      const s = m[0];
      for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
    }
    latin = withoutCodes.replace(HANGUL_RUN, ' ');
  }
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(latin); m; m = WORD_RE.exec(latin)) pushIdentifier(out, m[0]);
  for (const w of englishParaphrases(latin.toLowerCase())) pushWord(out, w);
  return out;
}
