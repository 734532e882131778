// Issue 22's baseline: lookalikes.ts as it was before issue 22 (main at b4640cd), kept only so bench/mask.mjs can compare against it in the same run.
// Folding text onto plain ASCII letters before the injection detectors look at it. An attacker who
// writes "іgnоrе" with Cyrillic і/о/е, "1gn0r3" in leetspeak, or hides a zero-width space inside
// "instructions" means the same words to the model; the detectors should see the same words too.
// The folded text is for matching only: it is never stored or shown.

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

// Zero-width characters, joiners, soft hyphens and bidi controls: invisible, so they can split a word
// ("in\u200Bstructions") without the reader noticing.
// U+034F, a combining mark, stands outside the class: inside, it reads as part of the character before it.
export const INVISIBLE_CHARS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|\u034F/g;

// Leetspeak digits and symbols, replaced only next to a letter ("1gn0r3", "pr3v10us"), so numbers in
// error text (TS6133, line 42:17) stay numbers.
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', '$': 's', '!': 'i', '|': 'l' };
const LEET_RE = /(?<=[a-z])[0134578@$!|]|[0134578@$!|](?=[a-z])/gi;

/** NFKC, invisible characters removed, Cyrillic/Greek look-alikes mapped to Latin. */
export function foldLookalikes(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE_CHARS, '').replace(LOOKALIKE_RE, c => LOOKALIKES[c] ?? c);
}

/** foldLookalikes plus leetspeak digits read as letters. Run the detectors on both forms. */
export function foldLeetspeak(folded: string): string {
  // Twice: the second pass catches a digit whose only letter neighbour was itself a digit ("10" in "pr3v10us").
  const once = folded.replace(LEET_RE, c => LEET[c] ?? c).replace(/(?<=\s)4(?=\s)/g, 'a'); // "n0w 4 j41lbr0k3n"
  return once.replace(LEET_RE, c => LEET[c] ?? c);
}
