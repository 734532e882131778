// Folding text onto plain letters before detectors look at it: the one place both the masker
// (mask/normalize.ts) and the injection guard (poison.ts) normalise. An attacker who writes "іgnоrе"
// with Cyrillic і/о/е, "1gn0r3" in leetspeak, hides a zero-width space inside "instructions" or spells a
// sentence in invisible Unicode TAG characters means the same words to the model; the detectors should
// see the same words too. Folded text is for matching only: it is never stored or shown.

// Cyrillic and Greek letters that render like Latin ones (the subset of Unicode's confusables.txt that
// matters for English words). NFKC already maps full-width and mathematical letters.
const LOOKALIKES: Record<string, string> = {
  // Cyrillic lower case
  а: 'a', в: 'b', с: 'c', ԁ: 'd', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', н: 'h',
  о: 'o', р: 'p', ԛ: 'q', ѕ: 's', т: 't', у: 'y', ԝ: 'w', х: 'x', ү: 'y', п: 'n', г: 'r', ь: 'b',
  // Cyrillic upper case
  А: 'A', В: 'B', С: 'C', Е: 'E', Ё: 'E', Н: 'H', І: 'I', Ї: 'I', Ј: 'J', К: 'K', М: 'M', О: 'O', Р: 'P',
  Ѕ: 'S', Т: 'T', У: 'Y', Х: 'X', Ү: 'Y', Ԁ: 'D', Ԛ: 'Q', Ԝ: 'W', Һ: 'H', Ӏ: 'I',
  // Greek lower case
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y', ω: 'w',
  // Greek upper case
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Latin letters that pass for others
  ı: 'i', ȷ: 'j', ʟ: 'l', ɡ: 'g', ɑ: 'a',
};
const LOOKALIKE_RE = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'g');
const LOOKALIKE_ONE = new RegExp(`^[${Object.keys(LOOKALIKES).join('')}]$`);
// A word (letters and combining marks of any script) holding at least one look-alike: only those can
// need folding, and matching only them keeps long texts cheap.
const WORD_WITH_LOOKALIKE = new RegExp(`[\\p{L}\\p{M}]*[${Object.keys(LOOKALIKES).join('')}][\\p{L}\\p{M}]*`, 'gu');

// Zero-width characters, joiners, soft hyphens and bidi controls: invisible, so they can split a word
// ("in\u200Bstructions") without the reader noticing.
// U+034F, a combining mark, stands outside the class: inside, it reads as part of the character before it.
export const INVISIBLE_CHARS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|\u034F/g;

/**
 * Unicode TAG characters (U+E0000–E007F): invisible, yet each one stands for an ASCII character a model
 * reads (U+E0049 is "I"). The one honest use is an emoji subdivision flag (🏴 + tag letters + U+E007F).
 */
const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
const FLAG_TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}/gu;

/** True when `text` holds TAG characters outside an emoji flag. */
export function hasTagCharacters(text: string): boolean {
  if (!/[\u{E0000}-\u{E007F}]/u.test(text)) return false;
  return /[\u{E0000}-\u{E007F}]/u.test(text.replace(FLAG_TAGS, ''));
}

/** TAG characters read as the ASCII they stand for (emoji flags left alone). */
export function decodeTagCharacters(text: string): string {
  if (!/[\u{E0000}-\u{E007F}]/u.test(text)) return text;
  const flags: string[] = [];
  const kept = text.replace(FLAG_TAGS, f => { flags.push(f); return '\u{F0000}'; });
  const decoded = kept.replace(TAG_RUN, run => ` ${[...run].map(c => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join('').replace(/[\x00-\x1f\x7f]/g, '')} `);
  let i = 0;
  return decoded.replace(/\u{F0000}/gu, () => flags[i++] ?? '');
}

/**
 * A word's Cyrillic/Greek look-alikes are read as Latin only when the word is a disguise: it mixes them
 * with Latin letters ("pаssword"), or it is made of look-alikes alone ("ЕΝD"). Real Russian and Greek
 * words ("пароль", "инструкции") keep their letters, so detectors for those languages still see them.
 */
function foldWord(w: string): string {
  let latin = false, other = false;
  for (const c of w) {
    if (c <= '\u024f') { if (/[A-Za-z\u00c0-\u024f]/.test(c)) latin = true; }
    else if (!LOOKALIKE_ONE.test(c) && !/\p{M}/u.test(c)) other = true;
  }
  if (other && !latin) return w;
  return w.replace(LOOKALIKE_RE, c => LOOKALIKES[c] ?? c);
}

/** Cyrillic/Greek look-alikes folded where they disguise a Latin word (foldWord); same length. */
export function foldScripts(text: string): string {
  if (!/[\u0370-\u04ff\u0131\u0237\u029f\u0261\u0251]/.test(text)) return text;
  return text.replace(WORD_WITH_LOOKALIKE, foldWord);
}

/** NFKC, TAG characters decoded, invisible characters removed, disguised Latin words folded. */
export function foldLookalikes(text: string): string {
  return foldScripts(decodeTagCharacters(text).normalize('NFKC').replace(INVISIBLE_CHARS, ''));
}

/**
 * The same folding for text whose positions matter (the masker and the data block map what they find
 * back onto the input): full-width ASCII read as ASCII and look-alikes folded (one character for one),
 * invisible and TAG characters dropped. `deleted` lists the dropped input indices, ascending.
 */
export function foldKeepingPositions(text: string): { text: string; deleted?: number[] } {
  // Nothing to fold in plain ASCII (the common case): no copy.
  if (!/[^\x00-\x7f]/.test(text)) return { text };
  let out = text.replace(/[\uFF01-\uFF5E]/g, c => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  out = foldScripts(out);
  // U+034F (a combining mark) stands outside the class, as in INVISIBLE_CHARS.
  const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|\u034F|[\u{E0000}-\u{E007F}]/gu;
  if (!HIDDEN.test(out)) return { text: out };
  const deleted: number[] = [];
  HIDDEN.lastIndex = 0;
  for (let m = HIDDEN.exec(out); m; m = HIDDEN.exec(out)) for (let k = 0; k < m[0].length; k++) deleted.push(m.index + k);
  return { text: out.replace(HIDDEN, ''), deleted };
}

/** The input index of view index `v`, when the view dropped the input indices `deleted` (ascending). */
export function inputIndex(deleted: readonly number[], v: number): number {
  // The answer is v + j for the first j with deleted[j] - j > v (deleted[j] - j never decreases).
  let lo = 0, hi = deleted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (deleted[mid] - mid > v) hi = mid; else lo = mid + 1;
  }
  return v + lo;
}

// Leetspeak digits and symbols, replaced only next to a letter ("1gn0r3", "pr3v10us"), so numbers in
// error text (TS6133, line 42:17) stay numbers.
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', '$': 's', '!': 'i', '|': 'l' };
const LEET_RE = /(?<=[a-z])[0134578@$!|]|[0134578@$!|](?=[a-z])/gi;

/** foldLookalikes plus leetspeak digits read as letters. Run the detectors on both forms. */
export function foldLeetspeak(folded: string): string {
  // Twice: the second pass catches a digit whose only letter neighbour was itself a digit ("10" in "pr3v10us").
  const once = folded.replace(LEET_RE, c => LEET[c] ?? c).replace(/(?<=\s)4(?=\s)/g, 'a'); // "n0w 4 j41lbr0k3n"
  return once.replace(LEET_RE, c => LEET[c] ?? c);
}

/**
 * Letters spaced or punctuated apart ("i g n o r e", "I.G.N.O.R.E", "d-i-s-r-e-g-a-r-d") joined into
 * words: a run of single letters, each followed by one separator, becomes one word; two or more spaces
 * (or any other break) between runs stay a word break. The joined form is one more form the detectors
 * read beside the plain one, so joining "U.S.A." or "A B C" can add a match but never hide one.
 */
export function joinSpacedLetters(text: string): string {
  if (!/(?<![\p{L}\p{N}])\p{L}[ ._-]\p{L}(?![\p{L}\p{N}])/u.test(text)) return text;
  return text.replace(/(?<![\p{L}\p{N}])\p{L}(?:[ ._-]\p{L}(?![\p{L}\p{N}]))+/gu, run => run.replace(/[ ._-]/g, ''));
}
