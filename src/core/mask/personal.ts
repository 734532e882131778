// Personal data: e-mail addresses (ASCII, internationalised, URL-encoded and written out as
// "name [at] host [dot] com"), phone numbers (US, Korean, UK), 주민등록번호 (resident registration
// numbers, check digit verified when written without its dash), IBANs (ISO 13616 mod 97), passport
// numbers named as such, payment card numbers (Luhn-checked, known issuer prefixes) and home
// directories. Replaced by «email», «phone», «rrn», «iban», «passport», «card» and "~".
import type { Detector } from './detector';

const LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTERS = /^\p{L}+$/u;
/** Longest host an address can have: nine labels of 63, their dots, a 24-letter top-level domain. */
const MAX_DOMAIN = 9 * 64 + 25;
const EMAIL_URL_ENCODED = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._+-][A-Za-z0-9._%+-]{0,63}%40[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g;

/**
 * Length of the host at `from` (0 when there is none): one to nine labels of 1-63 letters, digits or
 * hyphens, then a dot and a top-level domain of 2-24 letters not followed by a letter or digit; the
 * longest such. Scanned by hand: the same rule as one regex with counted repeats of Unicode classes
 * (`[\p{L}\p{N}-]{1,63}`) costs V8 tens of milliseconds to compile, paid by every short-lived process
 * that masks an address (the Claude Code hook, on each tool call).
 */
function domainLength(text: string, from: number): number {
  let stop = from;
  while (stop < text.length && stop - from < MAX_DOMAIN && (text[stop] === '.' || text[stop] === '-' || LETTER_OR_DIGIT.test(text[stop]))) stop++;
  for (let end = stop; end > from; end--) {
    if (end < text.length && LETTER_OR_DIGIT.test(text[end])) continue;
    const labels = text.slice(from, end).split('.');
    const tld = labels.pop()!;
    if (labels.length < 1 || labels.length > 9 || tld.length < 2 || tld.length > 24 || !LETTERS.test(tld)) continue;
    if (labels.every(l => l.length >= 1 && l.length <= 63)) return end - from;
  }
  return 0;
}

/** git@github.com-style SSH remotes, no-reply senders and documentation domains are not people. */
function aPerson(address: string): boolean {
  const a = address.replace(/%40/i, '@');
  return !/^(?:git|noreply|no-reply)@/i.test(a) && !/@(?:example\.(?:com|org|net)|users\.noreply\.github\.com|(?:[\w-]+\.)*gserviceaccount\.com)$/i.test(a);
}

/** Luhn checksum over the digits of `v` (separators ignored). */
export function luhnValid(v: string): boolean {
  // +44 (0)20 …: the (0) is the trunk prefix written for readers at home, not a digit of the number.
  const d = v.replace(/\(0\)/, '').replace(/\D/g, '');
  if (d.length < 13 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) { n *= 2; if (n > 9) n -= 9; }
    sum += n;
  }
  return sum % 10 === 0;
}

/** ISO 13616: the IBAN moved 4 characters, letters as numbers, is 1 mod 97. */
export function ibanValid(v: string): boolean {
  const s = v.replace(/ /g, '');
  if (s.length < 15 || s.length > 34 || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(s)) return false;
  let r = 0;
  for (const c of s.slice(4) + s.slice(0, 4)) {
    const n = c >= 'A' ? c.charCodeAt(0) - 55 : c.charCodeAt(0) - 48;
    r = n > 9 ? (r * 100 + n) % 97 : (r * 10 + n) % 97;
  }
  return r === 1;
}

/** The longest prefix of a grouped IBAN match that is valid (a word in capitals may follow it). */
function validIban(m: RegExpExecArray): string | undefined {
  const groups = m[0].split(' ');
  for (let n = groups.length; n >= 1; n--) {
    const v = groups.slice(0, n).join(' ');
    if (ibanValid(v)) return v;
  }
  return undefined;
}

/** 주민등록번호 check digit: weights 2..9,2..5 over the first 12 digits. */
export function rrnValid(digits: string): boolean {
  const w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * w[i];
  return (11 - (sum % 11)) % 10 === Number(digits[12]);
}

/** Capitals and digits, at least one digit, and enough of them or enough length to be a number (C01X00T47). */
function passportNumber(v: string): boolean {
  const digits = (v.match(/\d/g) ?? []).length;
  return /^[A-Z0-9]+$/.test(v) && digits >= 1 && (digits >= 5 || v.length >= 8);
}

/** UK numbers: 11 digits from 0 (or 44 then 10), with a separator, a +44 or a mobile's 07. */
function ukPhone(v: string): boolean {
  // +44 (0)20 …: the (0) is the trunk prefix written for readers at home, not a digit of the number.
  const d = v.replace(/\(0\)/, '').replace(/\D/g, '');
  const national = d.startsWith('44') && v.trimStart().startsWith('+') ? '0' + d.slice(2) : d;
  if (national.length !== 11 || national[0] !== '0') return false;
  return /[ ()]/.test(v) || v.startsWith('+') || national.startsWith('07');
}

// Obfuscated addresses: "dana.park [at] acme-corp [dot] io", "minsu(at)shop(dot)co(dot)kr", "j.doe AT acme DOT com".
// A bare lower-case " at " is left out: stack traces ("    at Object.<anonymous>") have it on every line.
const AT = String.raw`(?:\s*(?:\[(?:at|AT)\]|\((?:at|AT)\)|\{(?:at|AT)\}|<(?:at|AT)>)\s*|\s+AT\s+)`;
const DOT = String.raw`(?:\s*(?:\[(?:dot|DOT)\]|\((?:dot|DOT)\)|\{(?:dot|DOT)\}|<(?:dot|DOT)>)\s*|\s+DOT\s+|\.)`;
const OBFUSCATED_EMAIL = new RegExp(String.raw`(?<![\w.+-])[\w.+-]{1,64}${AT}[\w-]{1,63}(?:${DOT}[\w-]{1,63}){1,4}(?![\w-])`, 'g');
// In plain lower-case words ("li.wei at acme-corp dot cn") only when it ends in " dot " and a top-level
// domain: "meet at noon dot com" is rare, "run it at midnight dot release" is not an address.
const TLD = 'com|net|org|io|dev|ai|app|co|me|info|biz|edu|gov|cloud|tech|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|cz|pt|ie|ru|ua|tr|cn|tw|hk|jp|kr|in|sg|au|nz|ca|us|br|mx|ar|za|vn|id|th|my|ph|il';
const WORDED_EMAIL = new RegExp(String.raw`(?<![\w.+-])[A-Za-z0-9][\w.+-]{0,63}\s+at\s+[A-Za-z0-9][\w-]{0,62}(?:\s+dot\s+[\w-]{1,63}){0,2}\s+dot\s+(?:${TLD})(?![\w-])`, 'g');

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
    const length = domainLength(text, at + 1);
    if (!length) continue;
    const end = at + 1 + length;
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
  // 주민등록번호: YYMMDD-G000000 with a real month and day and a gender/century digit 1-8; written without
  // the dash (or with spaces) its check digit must hold too, so other 13-digit numbers stay.
  { kind: 'rrn', personal: true, hint: /\d{6}/, re: /(?<![\w.-])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[ \t]*-[ \t]*|[ \t]+)?[1-8]\d{6}(?![\w-])/g, accept: v => /^\d{6}-\d{7}$/.test(v) || rrnValid(v.replace(/\D/g, '')) },
  // UK: +44 20 7946 0958, 020 7946 0958, 07700 900123, (01632) 960123.
  { kind: 'phone', personal: true, hint: /\+44|(?<!\d)\(?0[1-9]\d{1,3}\)?[ \t]?\d{3}/, re: /(?<![\w+])(?:\+44[ \t]?(?:\(0\)[ \t]?)?|\(?0)(?:7\d{3}\)?[ \t]?\d{3}[ \t]?\d{3}|20\)?[ \t]?\d{4}[ \t]?\d{4}|1\d{2,3}\)?[ \t]?\d{5,6}|[389]\d{2}\)?[ \t]?\d{3}[ \t]?\d{4})(?![\w-])/g, accept: ukPhone },
  // IBAN, compact or in groups of four, checked mod 97.
  { kind: 'iban', personal: true, hint: /[A-Z]{2}\d{2} ?[A-Z0-9]{4} ?[A-Z0-9]{4}/, re: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g, pick: validIban },
  // A passport number named as one, in the ten languages (a word with digits: 6-10 capitals and digits).
  { kind: 'passport', personal: true, hint: /passport|pasaporte|passaporte|passeport|reisepass|паспорт|护照|護照|パスポート|여권|पासपोर्ट/i, re: /(?:passport|pasaporte|passaporte|passeport|reisepass|паспорт|护照|護照|パスポート|여권|पासपोर्ट)[^\n\d]{0,25}?(?<![A-Za-z0-9])((?=[A-Z]{0,8}\d)[A-Z0-9]{6,10})(?![A-Za-z0-9])/gi, group: 1, accept: passportNumber },
  { kind: 'email', personal: true, hint: / dot /, re: WORDED_EMAIL },
  { kind: 'email', personal: true, hint: /[[({<](?:at|AT)[\])}>]| AT /, re: OBFUSCATED_EMAIL, accept: v => /(?:dot|DOT|\.)[\s\])}>]*[A-Za-z]{2,24}$/.test(v) && /dot|DOT|\./.test(v.replace(/^[\w.+-]+/, '')) },
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
