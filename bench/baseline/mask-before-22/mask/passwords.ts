// Issue 22's baseline: mask/passwords.ts as it was before issue 22, for bench/mask.mjs only.
// Passwords with no vendor shape: short keys (pw=, pass=, db-pass:), prose in English and Korean
// ("the deploy password is …", "관리자 비밀번호: …") and command lines that carry one (curl -u,
// sshpass -p, mysql -p, --password). Where only the value can tell, it must look like a password
// (passwordLike), so "password is incorrect" or "비밀번호가 틀렸습니다" are left alone.
import { notPlaceholder, passwordLike, type Detector } from './detector';

// A bare value ends at whitespace, a quote or `;` (connection strings); after a short key also at `&`
// and `,` (query strings, CSV), where a password rarely puts them.
const value = (stop: string) => String.raw`(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|\x60([^\x60\n]{1,200})\x60|([^\s"'\x60;${stop}]{1,200}))`;
const VALUE = value('');
const pickValue = (m: RegExpExecArray) => (m[1] ?? m[2] ?? m[3] ?? m[4]?.replace(/[.,;:)\]}!?]+$/, ''));
/** A Korean sentence ending right after the value ("… 입니다") says the value is the password. */
const KO_COPULA = /^\s*(?:입니다|이다|이야|야|예요|이에요|임|로 바꿨|으로 바꿨|로 변경|으로 변경)/;

function proseValue(value: string, m: RegExpExecArray): boolean {
  if (passwordLike(value)) return true;
  const after = m.input.slice(m.index + m[0].length);
  return value.length >= 4 && /^[\x21-\x7e]+$/.test(value) && notPlaceholder(value) && KO_COPULA.test(after);
}

export const PASSWORD_DETECTORS: Detector[] = [
  // English prose: "password is X", "deploy password X", "password for prod is X", "pwd: X".
  {
    kind: 'password', hint: /pass|pw/i,
    re: new RegExp(String.raw`(?<![A-Za-z0-9_])(?:password|passwd|passphrase|passcode|pwd|pw)(?![A-Za-z0-9_])(?:\s+(?:for|of|on|to|at)(?:\s+[^\s:=]{1,40}){1,3}?)?(?:\s*(?:is|was|is now|now|set to|changed to|reset to|:|=|->|=>)\s+|\s*[:=]\s*|\s+)${VALUE}`, 'gi'),
    pick: pickValue, accept: proseValue,
  },
  // Korean prose: "비밀번호는 X 입니다", "관리자 비밀번호: X", "암호 = X".
  {
    kind: 'password', hint: /비밀번호|비번|암호|패스워드/,
    re: new RegExp(String.raw`(?:비밀번호|비번|암호|패스워드)(?:는|은|가|이|를|을|로|도)?\s*(?:[:=]\s*)?${VALUE}`, 'g'),
    pick: pickValue, accept: proseValue,
  },
  // Short keys: pw=, pass=, db-pass:, DB_PASS=, passwd= (a whole key segment, so "passing: 3" stays).
  {
    kind: 'password', hint: /pass|pw|pin/i,
    re: new RegExp(String.raw`(?<![A-Za-z0-9_.-])["']?(?:[A-Za-z0-9]{1,20}[_.-]){0,3}(?:pass|pw|pwd|passwd|pword|passw|pin)(?:[_.-][A-Za-z0-9]{1,20}){0,2}["']?\s*[:=]\s*${value('&,')}`, 'gi'),
    // A bare value must look like a password (`pass: once the window settles`, `case 'pin': {`); a quoted
    // one only must not be a placeholder.
    pick: pickValue, accept: (v, m) => notPlaceholder(v) && !/^\d{1,3}$/.test(v) && (m[4] === undefined ? /[A-Za-z0-9]/.test(v) && v.length >= 4 : passwordLike(v)),
  },
];

/** Before the key=value family, so `--password=X` is reported as a command line. */
export const COMMAND_LINE_DETECTORS: Detector[] = [
  { kind: 'cli-password', hint: /--/, re: /(?:^|\s)(?:--password|--passwd|--token|--api-key|--apikey|--secret|--client-secret)(?:=|\s+)(["']?)([^\s"']{4,200})\1(?=\s|$)/gim, group: 2, accept: notPlaceholder },
  // mysql/mysqldump take the password glued to -p
  { kind: 'cli-password', hint: /mysql/, re: /\bmysql(?:dump|admin)?\b[^\n]{0,200}?\s-p([^\s"']{3,200})/g, group: 1, accept: notPlaceholder },
  { kind: 'cli-password', hint: /sshpass/, re: /\bsshpass\b[^\n]{0,100}?\s-p\s*(["']?)([^\s"']{1,200})\1/g, group: 2, accept: v => notPlaceholder(v) && /[A-Za-z0-9]/.test(v) && v.length >= 3 },
  { kind: 'cli-password', hint: /curl/, re: /\bcurl\b[^\n]{0,300}?\s(?:-u|--user)(?:\s+|=)?(["']?)[^\s:"']{1,100}:([^\s"']{1,200})\1/g, group: 2, accept: notPlaceholder },
];
