// Personal data: e-mail addresses (ASCII, internationalised, URL-encoded and written out as
// "name [at] host [dot] com", `&#64;`, ` @ `, `host[.]com`), phone numbers (US, Korean, UK, and any
// country's written with +CC or 00CC), national identity numbers (checksums where they have one), 주민등록번호 (resident registration
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

/**
 * Country calling codes (ITU E.164) and the lengths of the national number after them, for the
 * countries developers' logs name most. A number written with `+CC` or `00CC` is a phone number only
 * when its length fits its country: `+1 2 3`, `+12 more`, `+0100` and version builds do not.
 */
const CALLING_CODES: Record<string, [number, number]> = {
  1: [10, 10], 7: [10, 10], 20: [9, 10], 27: [9, 9], 30: [10, 10], 31: [9, 9], 32: [8, 9], 33: [9, 9], 34: [9, 9],
  36: [8, 9], 39: [6, 11], 40: [9, 9], 41: [9, 9], 43: [7, 13], 44: [9, 10], 45: [8, 8], 46: [7, 10], 47: [8, 8],
  48: [9, 9], 49: [6, 13], 51: [8, 9], 52: [10, 10], 54: [10, 11], 55: [10, 11], 56: [9, 9], 57: [10, 10],
  60: [8, 10], 61: [9, 9], 62: [8, 12], 63: [10, 10], 64: [8, 10], 65: [8, 8], 66: [8, 9], 81: [9, 10],
  82: [8, 10], 84: [9, 10], 86: [10, 11], 90: [10, 10], 91: [10, 10], 92: [10, 10], 98: [10, 10],
  234: [8, 10], 254: [9, 9], 351: [9, 9], 353: [7, 9], 358: [6, 12], 380: [9, 9], 420: [9, 9], 852: [8, 8],
  886: [8, 9], 966: [9, 9], 971: [8, 9], 972: [8, 9],
};

/** `+CC …` / `00CC …`: a known calling code, then a national number of that country's length. */
function internationalPhone(v: string): boolean {
  const compact = v.replace(/\(0\)/, '');
  const digits = compact.replace(/\D/g, '');
  const all = v.startsWith('+') ? digits : digits.slice(2);
  // 00 is also how long zero-padded numbers begin: written that way a phone has a blank after its code.
  if (!v.startsWith('+') && !/^00\d{1,3}[ \t.-]/.test(v)) return false;
  for (const n of [1, 2, 3]) {
    const range = CALLING_CODES[all.slice(0, n)];
    if (!range) continue;
    // A trunk 0 written after the code (+44 020 …, or the (0) dropped above) is not counted.
    const national = all.slice(n).replace(/^0/, '');
    if (national.length >= range[0] && national.length <= range[1]) return n !== 1 || /^[2-9]/.test(national);
  }
  return false;
}

/** Brazil's CPF: two mod-11 check digits (all-equal digits are not issued). */
function cpfValid(v: string): boolean {
  const d = v.replace(/\D/g, '');
  if (d.length !== 11 || /^(\d)\1+$/.test(d)) return false;
  const dv = (n: number) => { let s = 0; for (let i = 0; i < n; i++) s += Number(d[i]) * (n + 1 - i); const r = (s * 10) % 11; return r === 10 ? 0 : r; };
  return dv(9) === Number(d[9]) && dv(10) === Number(d[10]);
}

/** China's resident identity number: a birth date in it, ISO 7064 MOD 11-2 check character. */
function cnIdValid(v: string): boolean {
  if (!/^\d{17}[\dX]$/.test(v) || !/^(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/.test(v.slice(6, 14))) return false;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let s = 0;
  for (let i = 0; i < 17; i++) s += Number(v[i]) * w[i];
  return '10X98765432'[s % 11] === v[17];
}

const VERHOEFF_D = ['0123456789', '1234067895', '2340178956', '3401289567', '4012395678', '5987604321', '6598710432', '7659821043', '8765932104', '9876543210'];
const VERHOEFF_P = ['0123456789', '1576283094', '5803796142', '8916043527', '9453126870', '4286573901', '2793806415', '7046913258'];
/** India's Aadhaar: 12 digits, first 2-9, Verhoeff check digit. */
function aadhaarValid(v: string): boolean {
  const d = v.replace(/[ -]/g, '');
  if (!/^[2-9]\d{11}$/.test(d)) return false;
  let c = 0;
  for (let i = 0; i < 12; i++) c = Number(VERHOEFF_D[c][Number(VERHOEFF_P[i % 8][Number(d[11 - i])])]);
  return c === 0;
}

/** Spain's DNI (8 digits) and NIE (X/Y/Z and 7 digits): the letter of the number mod 23. */
function dniValid(v: string): boolean {
  const n = v.slice(0, -1).replace(/^[XYZ]/, c => String('XYZ'.indexOf(c)));
  return /^\d{8}$/.test(n) && 'TRWAGMYFPDXBNJZSQVHLCKE'[Number(n) % 23] === v.slice(-1);
}

/** Japan's My Number: 11 digits and a mod-11 check digit. */
function myNumberValid(v: string): boolean {
  const d = v.replace(/[ -]/g, '');
  if (!/^\d{12}$/.test(d)) return false;
  let s = 0;
  for (let n = 1; n <= 11; n++) s += Number(d[11 - n]) * (n <= 6 ? n + 1 : n - 5);
  const r = s % 11;
  return (r <= 1 ? 0 : 11 - r) === Number(d[11]);
}

const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
/** Italy's codice fiscale: its check letter over the 15 characters before it. */
function codiceFiscaleValid(v: string): boolean {
  let s = 0;
  for (let i = 0; i < 15; i++) { const c = v[i]; const x = c >= 'A' ? c.charCodeAt(0) - 65 : c.charCodeAt(0) - 48; s += i % 2 === 0 ? CF_ODD[x] : x; }
  return String.fromCharCode(65 + (s % 26)) === v[15];
}

/** A US social security number as issued: not area 000, 666 or 9xx, group 00 or serial 0000. */
const ssnValid = (v: string) => !/^(?:000|666|9\d\d)|^\d{3}-00|-0000$/.test(v);

// Obfuscated addresses: "dana.park [at] acme-corp [dot] io", "minsu(at)shop(dot)co(dot)kr", "j.doe AT acme DOT com".
// A bare lower-case " at " is left out: stack traces ("    at Object.<anonymous>") have it on every line.
const AT = String.raw`(?:\s*(?:\[(?:at|AT)\]|\((?:at|AT)\)|\{(?:at|AT)\}|<(?:at|AT)>)\s*|\s+AT\s+)`;
const DOT = String.raw`(?:\s*(?:\[(?:dot|DOT)\]|\((?:dot|DOT)\)|\{(?:dot|DOT)\}|<(?:dot|DOT)>)\s*|\s+DOT\s+|\.)`;
// DOT may stand in the local part too (`dana DOT park AT acme DOT io`).
const OBFUSCATED_EMAIL = new RegExp(String.raw`(?<![\w.+-])[\w.+-]{1,64}(?:\s+DOT\s+[\w+-]{1,32}){0,3}${AT}[\w-]{1,63}(?:${DOT}[\w-]{1,63}){1,4}(?![\w-])`, 'g');
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
  const localStart = (at: number) => {
    let start = at;
    while (start > 0 && at - start < 65 && LOCAL_CHAR.test(text[start - 1])) start--;
    return start === at || at - start > 64 ? -1 : start;
  };
  const sticky = (re: RegExp, from: number) => { re.lastIndex = from; const m = re.exec(text); return m ? m[0].length : 0; };
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    // `name @ host` is read from its marker below.
    const start = localStart(at);
    if (start < 0) continue;
    const length = domainLength(text, at + 1) || sticky(DEFANGED_DOMAIN, at + 1);
    if (!length) continue;
    const end = at + 1 + length;
    if (aPerson(text.slice(start, end).replace(/\[\.\]|\(\.\)/g, '.'))) out.push({ start, end });
  }
  // The @ written another way: the local part before the marker, a plain or defanged domain after it.
  for (const marker of AT_MARKERS) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
      const start = localStart(at);
      if (start < 0 || !/^[A-Za-z0-9]/.test(text[start])) continue;
      const length = sticky(PLAIN_DOMAIN, at + marker.length) || sticky(DEFANGED_DOMAIN, at + marker.length);
      if (!length) continue;
      const end = at + marker.length + length;
      if (aPerson(text.slice(start, at) + '@' + text.slice(at + marker.length, end))) out.push({ start, end });
    }
  }
  return out;
}

// An address with its `@` written another way: an HTML entity (`&#64;`, `&commat;`), blanks around it
// (`dana.park @ acme-corp.io`) or a "defanged" domain (`acme-mail[.]com`) are found by findEmails from
// the marker (a regex that may start at any letter cost more than every other detector on a long log).
const AT_MARKERS = ['&#64;', '&#x40;', '&commat;', ' @ '];
const PLAIN_DOMAIN = /[A-Za-z0-9][\w-]{0,62}(?:\.[\w-]{1,63}){0,4}\.[A-Za-z]{2,24}(?![\w-])/y;
const DEFANGED_DOMAIN = /[A-Za-z0-9][\w-]{0,62}(?:(?:\[\.\]|\(\.\)|\.)[\w-]{1,63}){0,4}(?:\[\.\]|\(\.\))[A-Za-z]{2,24}(?![\w-])/y;

// Ids named by a word before them, each with its own check (NAMED_ID_CHECKS, in the same order).
const NAMED_IDS: [string, (v: string) => boolean][] = [
  [String.raw`(?:\bSSN|social security(?: number| no\.?)?)\b[^\n\d]{0,20}?(?<![\w-])(\d{3}-\d{2}-\d{4}|\d{9})(?![\w-])`, v => ssnValid(v.length === 9 ? `${v.slice(0, 3)}-${v.slice(3, 5)}-${v.slice(5)}` : v)],
  [String.raw`\bcpf\b[^\n\d]{0,12}?(?<![\w.-])(\d{11})(?![\w-])`, cpfValid],
  [String.raw`(?:aadhaa?r|आधार|uidai)[^\n\d]{0,20}?(?<![\w-])(\d{4}[ -]?\d{4}[ -]?\d{4})(?![\w-])`, aadhaarValid],
  [String.raw`\b(?:DNI|NIE|NIF)\b[^\n\d]{0,12}?(?<![\w-])([XYZ]?\d{7,8}-?[A-Z])(?![\w-])`, v => dniValid(v.replace('-', '').toUpperCase())],
  [String.raw`(?:マイナンバー|個人番号|my ?number)[^\n\d]{0,20}?(?<![\w-])(\d{4}[ -]?\d{4}[ -]?\d{4})(?![\w-])`, myNumberValid],
  [String.raw`(?:national insurance(?: number| no\.?)?|\bNINO\b|\bNI number)[^\n]{0,12}?(?<![A-Za-z0-9])((?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D])(?![A-Za-z0-9])`, () => true],
];
const NAMED_ID = new RegExp(NAMED_IDS.map(([re]) => re).join('|'), 'gi');
const NAMED_ID_CHECKS = NAMED_IDS.map(([, check]) => check);
// Written as a tree of its words (one alternation per letter): a flat list of fourteen words cost more on
// a long log than all the id patterns.
// Short ones whole (`denied` holds `nie`), or the shared word test would pass on most error lines.
const NAMED_ID_WORDS = /\bssn\b|social security|\bcpf\b|aadhaar|aadhar|uidai|\bdni\b|\bnie\b|\bnif\b|mynumber|my number|national insurance|\bnino\b|\bni number/i;
const NAMED_ID_HINT = /\b(?:ssn\b|social security|cpf\b|aadhaa?r|uidai|dni\b|ni(?:e\b|f\b|no\b| number)|my ?number|national insurance)/i;
// Ids whose shape alone, with its check, tells: a CPF written 000.000.000-00, an 18-character 身份证, a codice fiscale.
const SHAPED_ID = /(?<![\w.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w-])|(?<![\w.-])\d{17}[\dX](?![\w-])|(?<![A-Za-z0-9])[A-Z]{6}\d{2}[A-EHLMPR-T][0-7]\d[A-Z]\d{3}[A-Z](?![A-Za-z0-9])/g;

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
  { kind: 'passport', personal: true, hint: /passport|pasaporte|passaporte|passaporto|passeport|reisepass|passnummer|paspoort|paszport|pasaport|paspor|hộ chiếu|паспорт|护照|護照|パスポート|여권|पासपोर्ट|جواز سفر|διαβατήριο/i, re: /(?:passport|pasaporte|passaporte|passaporto|passeport|reisepass|passnummer|paspoort|paszport|pasaport|paspor|hộ chiếu|паспорт|护照|護照|パスポート|여권|पासपोर्ट|جواز سفر|διαβατήριο)[^\n\d]{0,25}?(?<![A-Za-z0-9])((?=[A-Z]{0,8}\d)[A-Z0-9]{6,10})(?![A-Za-z0-9])/gi, group: 1, accept: passportNumber },
  { kind: 'email', personal: true, hint: / dot /, re: WORDED_EMAIL },
  { kind: 'email', personal: true, hint: /[[({<](?:at|AT)[\])}>]| AT /, re: OBFUSCATED_EMAIL, accept: v => /(?:dot|DOT|\.)[\s\])}>]*[A-Za-z]{2,24}$/.test(v) && /dot|DOT|\./.test(v.replace(/^[\w.+-]+/, '')) },
  // Any country's number written internationally: +49 30 1234567, +81 90-1234-5678, 0044 20 7946 0958,
  // +8210…; the calling code and the national number's length must fit (CALLING_CODES). The boundary
  // before it is checked after the + or 00 is read, so the scan starts only there.
  { kind: 'phone', personal: true, hint: /\+\d|00[1-9]/, re: /(?:\+(?<![\w+./-]\+)|00(?<![\w+./-]00))[1-9](?:\d|[ \t.-](?=[\d(])|\(\d{1,5}\)[ \t.-]?){5,24}(?<=\d)(?![\w+]|[.-]\d)/g, accept: internationalPhone },
  // National identity numbers, named (one pattern per id, one scan for all) or by a shape that carries
  // a check: US SSN, Brazil's CPF, China's 身份证, India's Aadhaar, Spain's DNI/NIE, Japan's My Number,
  // Italy's codice fiscale, the UK's NINO.
  { kind: 'national-id', personal: true, words: NAMED_ID_WORDS, hint: NAMED_ID_HINT, re: NAMED_ID, pick: m => m.slice(1).find(g => g !== undefined), accept: (v, m) => NAMED_ID_CHECKS[m.slice(1).findIndex(g => g !== undefined)](v) },
  { kind: 'national-id', personal: true, hint: /\d{3}(?:\.\d{3}\.\d{3}-|\d{14})|\d\d[A-EHLMPR-T][0-7]\d[A-Z]\d{3}[A-Z]/, re: SHAPED_ID, accept: v => (v.includes('.') ? cpfValid(v) : /^\d/.test(v) ? cnIdValid(v) : codiceFiscaleValid(v)) },
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

/** The detectors that need a character outside ASCII: the masker runs them only on text that has one. */
export const NON_LATIN_PERSONAL_DETECTORS: Detector[] = [
  // The named ids' words in Hindi and Japanese.
  { kind: 'national-id', personal: true, hint: /आधार|マイナンバー|個人番号/, re: NAMED_ID, pick: m => m.slice(1).find(g => g !== undefined), accept: (v, m) => NAMED_ID_CHECKS[m.slice(1).findIndex(g => g !== undefined)](v) },
];
