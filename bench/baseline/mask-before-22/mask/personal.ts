// Issue 22's baseline: mask/personal.ts as it was before issue 22, for bench/mask.mjs only.
// Personal data: e-mail addresses (ASCII, internationalised and URL-encoded), phone numbers (US and
// Korean), 주민등록번호 (resident registration numbers), payment card numbers (Luhn-checked, known
// issuer prefixes) and home directories. Replaced by «email», «phone», «rrn», «card» and "~".
import type { Detector } from './detector';

const LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;
const DOMAIN = /[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}(?![\p{L}\p{N}])/uy;
const EMAIL_URL_ENCODED = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._+-][A-Za-z0-9._%+-]{0,63}%40[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g;

/** git@github.com-style SSH remotes, no-reply senders and documentation domains are not people. */
function aPerson(address: string): boolean {
  const a = address.replace(/%40/i, '@');
  return !/^(?:git|noreply|no-reply)@/i.test(a) && !/@(?:example\.(?:com|org|net)|users\.noreply\.github\.com)$/i.test(a);
}

/** Luhn checksum over the digits of `v` (separators ignored). */
export function luhnValid(v: string): boolean {
  const d = v.replace(/\D/g, '');
  if (d.length < 13 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) { n *= 2; if (n > 9) n -= 9; }
    sum += n;
  }
  return sum % 10 === 0;
}

// Visa, Mastercard (51-55, 2221-2720), Amex, Discover, JCB, UnionPay, Diners.
const CARD_ISSUER = /^(?:4|5[1-5]|2[2-7]|3[47]|3[0689]|6(?:011|5|4[4-9]|2))/;

/**
 * E-mail addresses, ASCII or internationalised (dana@bücher.de, 민수@회사.한국). Found from each "@"
 * outward: a regex that may start at any letter tries 64 characters at every position, which made it
 * the costliest detector by far on ordinary text.
 */
export function findEmails(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 65 && LOCAL_CHAR.test(text[start - 1])) start--;
    if (start === at || at - start > 64) continue;
    DOMAIN.lastIndex = at + 1;
    const d = DOMAIN.exec(text);
    if (!d) continue;
    const end = at + 1 + d[0].length;
    if (aPerson(text.slice(start, end))) out.push({ start, end });
  }
  return out;
}

export const PERSONAL_DETECTORS: Detector[] = [
  { kind: 'email', personal: true, re: EMAIL_URL_ENCODED, accept: aPerson, hint: /%40/ },
  // US: (415) 555-0132, 415-555-0132, 415.555.0132, +1 415 555 0132.
  { kind: 'phone', personal: true, hint: /\d{3}/, re: /(?<![\w.+-])(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[.-])\d{3}[.-]\d{4}(?![\w-])/g },
  { kind: 'phone', personal: true, hint: /\+1 /, re: /(?<![\w.+-])\+1 \d{3} \d{3} \d{4}(?![\w-])/g },
  // Korea: 010-1234-5678, 02-123-4567, +82 10-1234-5678, 01012345678 (mobile only without separators).
  { kind: 'phone', personal: true, hint: /\d{3}/, re: /(?<![\w.+-])(?:\+82[ -]?0?|0)(?:1[016789]|2|[3-6][1-5]|70)[ .-]\d{3,4}[ .-]\d{4}(?![\w-])/g },
  { kind: 'phone', personal: true, hint: /01[016789]\d{7}/, re: /(?<![\w.+-])01[016789]\d{7,8}(?![\w.-])/g },
  // 주민등록번호: YYMMDD-G000000 with a real month and day and a gender/century digit 1-8.
  { kind: 'rrn', personal: true, hint: /\d-[1-8]\d{6}/, re: /(?<![\w.-])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}(?![\w-])/g },
  // Card numbers: grouped by 4 with spaces or dashes, or one run of 13-19 digits.
  { kind: 'card', personal: true, hint: /\d{4}/, re: /(?<![\w.-])(?:\d{4}[ -]){2,3}\d{4}(?:\d{3})?(?![\w-])|(?<![\w.-])\d{4}[ -]\d{6}[ -]\d{5}(?![\w-])|(?<![\w.-])\d{13,19}(?![\w.-])/g, accept: v => CARD_ISSUER.test(v) && luhnValid(v) && !/^(\d)\1+$/.test(v.replace(/\D/g, '')) },
];

// /home/<u>, /Users/<u>, C:\Users\<u>, also JSON-escaped (C:\\Users\\<u>) and with forward slashes.
export const GENERIC_HOME = /(?:\/home\/|\/Users\/|[A-Za-z]:(?:\\\\|\\|\/)[Uu]sers(?:\\\\|\\|\/))(?!«)[^/\\\s'"`:]{1,64}(?=[/\\]|[\s'"`:]|$)/g;

export function homeVariants(home: string): string[] {
  const h = home.replace(/[\\/]+$/, '');
  const out = new Set([h, h.replace(/\\/g, '/'), h.replace(/\//g, '\\'), h.replace(/\\/g, '\\\\')]);
  return [...out].filter(x => x.length > 1).sort((a, b) => b.length - a.length);
}
