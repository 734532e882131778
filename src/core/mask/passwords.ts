// Passwords with no vendor shape: short keys (pw=, pass=, db-pass:), prose in English and Korean
// ("the deploy password is …", "관리자 비밀번호: …") and command lines that carry one (curl -u,
// sshpass -p, mysql -p, --password). Where only the value can tell, it must look like a password
// (passwordLike), so "password is incorrect" or "비밀번호가 틀렸습니다" are left alone.
import { notPlaceholder, passwordLike, pathLike, type Detector } from './detector';
import { tokenLike } from './prose';

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

/**
 * Commands whose output is a credential and nothing else (a terminal, a CI log with `set -x`): macOS
 * keychain lookups with -w, registry login passwords, cloud access tokens, secret stores read by field,
 * Kubernetes secrets decoded, password managers, a newly generated key.
 */
const PRINTERS = [
  String.raw`\bsecurity\s+find-(?:generic|internet)-password\b[^\n]*\s-w\b`,
  String.raw`\baws\s+ecr(?:-public)?\s+get-login-password\b`,
  String.raw`\baws\s+configure\s+get\s+\S*(?:secret|token|key)\S*`,
  String.raw`\bgcloud\s+auth\s+(?:application-default\s+)?print-(?:access|identity)-token\b`,
  String.raw`\baz\s+account\s+get-access-token\b[^\n]*(?:-o|--output)\s+tsv`,
  String.raw`\bvault\s+(?:kv\s+get|read|token\s+create|write)\b[^\n]*-field[= ]`,
  String.raw`\bkubectl\b[^\n]*\bsecrets?\b[^\n]*(?:jsonpath|go-template)[^\n]*(?:base64\s+(?:-d|--decode))?`,
  String.raw`\bkubectl\s+create\s+token\b`,
  String.raw`\bop\s+(?:read\b|item\s+get\b[^\n]*--fields)`,
  String.raw`\b(?:pass|gopass)\s+show\b`,
  String.raw`\bbw\s+get\s+password\b`,
  String.raw`\blpass\s+show\b[^\n]*--password`,
  String.raw`\bheroku\s+auth:token\b`,
  String.raw`\bgh\s+auth\s+token\b`,
  String.raw`\bdoctl\s+auth\s+token\b`,
  String.raw`\bopenssl\s+rand\s+-(?:hex|base64)\b`,
];
const PRINTER = new RegExp(String.raw`(?:${PRINTERS.join('|')})[^\n]*$`);
const NOTE_LINE = /^[ \t]*(?:WARNING|Warning|warning|NOTICE|Notice|›|\[|#)/;
const LONE_TOKEN = /^[ \t]*([^\s"'\x60]{8,4000})[ \t]*\r?$/gm;

/**
 * What a credential command prints: the secret alone on a line after the command (a few warning lines
 * may come between). Found from the lone-token lines, which are rare, looking back at the lines before:
 * a pass of sixteen command patterns over every message cost more than the rest of this family.
 */
export function findPrintedSecrets(text: string, add: (start: number, end: number, kind: string) => void): void {
  if (!text.includes('\n')) return;
  LONE_TOKEN.lastIndex = 0;
  for (let m = LONE_TOKEN.exec(text); m; m = LONE_TOKEN.exec(text)) {
    if (m.index === 0) continue;
    const value = m[1];
    if (!notPlaceholder(value) || /^(?:[~.]?\/|https?:)|[«»]/.test(value)) continue;
    let end = m.index - 1; // the \n before this line
    for (let back = 0; back < 4 && end > 0; back++) {
      const start = text.lastIndexOf('\n', end - 1) + 1;
      const line = text.slice(start, end);
      if (PRINTER.test(line)) { const at = m.index + m[0].indexOf(value); add(at, at + value.length, 'password'); break; }
      if (!NOTE_LINE.test(line)) break;
      end = start - 1;
    }
  }
}

// A command-line value: quoted, or bare up to whitespace or a closing quote (`bash -c "… --token X"`).
// A `&` inside a bare value is part of it (`-p Ab3&xY9`: a shell's `&` that ends a command has a space or
// another `&` after it, and a log shows what was typed).
const ARG = String.raw`(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([^\s"'\x60;|&()]{1,200}(?:&[^\s"'\x60;|&()]{1,200}){0,8}))(?=[\s"'\x60;|&()]|$)`;
/** Between a flag and its value: `=` or one blank. Two or more blanks are a help text's column before a description. */
const SEP = String.raw`(?:=|[ \t](?![ \t]))`;
const pickArg = (m: RegExpExecArray, from = 1) => m[from] ?? m[from + 1] ?? m[from + 2];

/** A flag's value that is a secret: not a placeholder, a path, another flag or a file reference. */
function flagValue(v: string): boolean {
  if (!notPlaceholder(v) || v.startsWith('-') || !/[A-Za-z0-9]/.test(v)) return false;
  // Prose about the flag, not a value after it: "Using --password via the CLI", "--token is required".
  if (PROSE_AFTER_FLAG.test(v)) return false;
  // A path or a file is where the secret lives, not the secret (--token-file, --private-key ~/.ssh/id).
  if (pathLike(v) || /^[\w.-]+\.(?:pem|key|crt|p12|pfx|jks|txt|json|ya?ml|env|gpg|asc)$/i.test(v)) return false;
  // openssl's pass:VALUE carries the secret; env:VAR, file:PATH and stdin name where it comes from.
  if (/^(?:env|file|fd|stdin):/i.test(v)) return false;
  return !/^\d{1,5}$/.test(v); // a port or a count
}

const PROSE_AFTER_FLAG = /^(?:via|is|are|was|were|or|and|to|for|with|without|from|in|on|at|of|as|if|when|not|instead|must|should|can|cannot|will|only|also|flag|option|argument|prompt|source|force|never|set|unset|required|missing|expects?|takes?|requires?|needs?|has|have|the|a|an)$/i;

// Any long flag whose name ends in a credential word (--password, --db-password, --token, --auth-token,
// --api-key, --postman-api-key, --client-secret, --passphrase, -storepass, -srcstorepass, -passout): the
// value after `=` or a space. Names that say where the secret comes from (--password-stdin,
// --token-file, --api-key-env) are not followed by one.
const CREDENTIAL_FLAG = new RegExp(String.raw`(?:^|[\s"'(])(--?(?:[A-Za-z][\w-]{0,40}?[-_])?(?:password|passwd|passphrase|pass|passin|passout|pwd|token|secret|api[-_]?key|apikey|access[-_]?key|secret[-_]?key|private[-_]?key|auth[-_]?key|auth[-_]?token|authtoken|credentials?)|--?(?:src|dest)?(?:storepass|keypass))${SEP}${ARG}`, 'gim');
// Flags named for a bearer token or a named key (--oauth2-bearer, --account-key, --sas-key, --master-key):
// a pattern of their own that starts at its `--`, so the long rule above keeps its length.
const NAMED_KEY_FLAG = new RegExp(String.raw`--(?:oauth2-bearer|bearer(?:-token)?|(?:account|master|license|encryption|signing|storage|shared|sas|client|app|subscription|ingest)[-_]key)${SEP}${ARG}`, 'gi');

/** Commands whose short flag takes a password (mysql glues it: -pSECRET). */
const SHORT_FLAGS: { cmd: string; flag: string }[] = [
  { cmd: String.raw`(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:\s+registry)?|crane|regctl)\s+login`, flag: '-p' },
  { cmd: String.raw`mongo(?:sh|dump|restore|import|export|stat|top)?`, flag: '-p' },
  { cmd: 'sshpass', flag: '-p' },
  { cmd: String.raw`az\s+login`, flag: '-p' },
  { cmd: 'redis-cli', flag: '-a' },
  { cmd: String.raw`ldap(?:search|add|modify|delete|whoami|passwd|compare)`, flag: '-w' },
  { cmd: String.raw`(?:sqlcmd|bcp|isql)`, flag: '-P' },
  { cmd: String.raw`(?:zip|unzip|zipcloak)`, flag: '-P' },
];
// Each command with its own flag (redis-cli's -a, not the -p port before it).
const SHORT_FLAG_RE = new RegExp(String.raw`\b(?:${SHORT_FLAGS.map(f => String.raw`${f.cmd}\b[^\n|;&]{0,300}?\s${f.flag}`).join('|')})${SEP}${ARG}`, 'g');

// Any CLI's `-u USER -p VALUE` (cf login, twine upload, az login …): a -p right after a user name is its
// password. mysql and mariadb are left out: their -p alone asks for one and the next word is a database.
const USER_THEN_P = new RegExp(String.raw`(?:-u|--user(?:name)?)(?<=(?:^|\s)(?:-u|--user|--username))${SEP}(?:"[^"\n]{1,100}"|'[^'\n]{1,100}'|[^\s"'-][^\s"']{0,100})\s+-p${SEP}${ARG}`, 'g');
const MYSQL_LINE = /\b(?:mysql\w*|mariadb[\w-]*)\b[^\n]*$/;

// Commands that store a secret given on the command line: `gh secret set NAME --body X`, `ngrok config
// add-authtoken X`, `ngrok authtoken X`.
const SECRET_SETTER = new RegExp(String.raw`\b(?:gh\s+secret\s+set\s+\S+(?:\s+--?\S+(?:\s+[^-\s]\S*)?)*?\s+(?:--body|-b)|ngrok\s+(?:config\s+add-authtoken|authtoken))${SEP}${ARG}`, 'g');

export const COMMAND_LINE_DETECTORS: Detector[] = [
  { kind: 'cli-password', hint: /-[\w-]{0,40}?(?:pass|pwd|token|secret|key|credential)/i, re: CREDENTIAL_FLAG, pick: m => pickArg(m, 2)?.replace(/^pass:/i, ''), accept: (v, m) => flagValue(v) && !/(?:file|path|stdin|env|id|name|url|uri|type|length|ttl|expiry|expires|header|helper|cmd|command|prompt|policy|reset|rotation|mode|count|limit|dir)$/i.test(m[1]) },
  { kind: 'cli-password', hint: /\s-[pawP]/, re: SHORT_FLAG_RE, pick: m => pickArg(m, 1), accept: flagValue },
  // -u user:password / --user user:password for any command: the part after the colon must look like
  // a password, not a group (docker -u 1000:1000, www-data:www-data).
  { kind: 'cli-password', words: /bearer|key/i, hint: /bearer|-key/, re: NAMED_KEY_FLAG, pick: m => pickArg(m, 1), accept: flagValue },
  { kind: 'cli-password', words: / -p/i, hint: / -p[ =]/, re: USER_THEN_P, pick: m => pickArg(m, 1), accept: (v, m) => flagValue(v) && !MYSQL_LINE.test(m.input.slice(Math.max(0, m.input.lastIndexOf('\n', m.index) + 1), m.index + 1)) },
  { kind: 'cli-password', words: /secret|authtoken/i, hint: /secret set|authtoken/, re: SECRET_SETTER, pick: m => pickArg(m, 1), accept: flagValue },
  // USER:PASSWORD after any flag that takes the pair (curl -u/--proxy-user, httpie -a/--auth, skopeo
  // --creds/--src-creds, wget-style --user=, --basic-auth)
  { kind: 'cli-password', hint: /-u|-a |--auth|creds/, re: new RegExp(String.raw`(?:^|[\s"'])(?:-u|-a|--user|--proxy-user|--basic-auth|--auth|--creds|--src-creds|--dest-creds|--credentials)(?:\s+|=)?(["']?)([^\s:"'@]{1,100}):([^\s"']{1,200})\1(?=[\s"'\x60;|&)]|$)`, 'g'), pick: m => m[3], accept: (v, m) => v !== m[2] && passwordLike(v) && !/^\d+$/.test(v) },
  // mysql/mysqldump take the password glued to -p
  { kind: 'cli-password', hint: /mysql|mariadb/, re: /\b(?:mysql(?:dump|admin|import|show)?|mariadb(?:-dump)?)\b[^\n]{0,200}?\s-p([^\s"']{3,200})/g, group: 1, accept: notPlaceholder },
  { kind: 'cli-password', hint: /sshpass/, re: /\bsshpass\b[^\n]{0,100}?\s-p\s*(["']?)([^\s"']{1,200})\1/g, group: 2, accept: v => notPlaceholder(v) && /[A-Za-z0-9]/.test(v) && v.length >= 3 },
  { kind: 'cli-password', hint: /curl/, re: /\bcurl\b[^\n]{0,300}?\s(?:-u|--user)(?:\s+|=)?(["']?)[^\s:"']{1,100}:([^\s"']{1,200})\1/g, group: 2, accept: notPlaceholder },
  // A credential after a flag named just --auth (netlify --auth, --auth TOKEN): only a value that looks
  // like one (--auth basic, --auth none name a method).
  { kind: 'cli-password', hint: /--auth\b/, re: new RegExp(String.raw`(?:^|[\s"'(])--auth${SEP}${ARG}`, 'g'), pick: m => pickArg(m, 1), accept: v => flagValue(v) && (passwordLike(v) || tokenLike(v)) },
  // `npm config set //host/:_authToken VALUE`, `yarn config set npmAuthToken VALUE`, `pnpm config set …`,
  // `git config http.…extraheader VALUE`: a key that names a credential, then its value.
  { kind: 'cli-password', hint: /config/, re: new RegExp(String.raw`\b(?:(?:npm|pnpm|yarn|bun)\s+config\s+set|git\s+config(?:\s+--(?:global|local|system))?)\s+(?:--\S+\s+)*(\S*(?:_auth(?:Token)?|_password|authToken|AuthToken|token|password|secret)\S*)\s+${ARG}`, 'gi'), pick: m => pickArg(m, 2), accept: flagValue },
];
