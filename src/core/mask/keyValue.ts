// Secrets recognised by the words around them: KEY=value (a `#` inside a bare value is part of it; one
// after a blank starts a comment), "key": value, connection strings,
// Authorization and Cookie headers, an AWS secret key named nearby. The key decides; the value only
// has to be something other than a placeholder, so key names that merely CONTAIN a secret word
// (tokenExpiresAt, max_tokens, InvalidClientTokenId, AuthenticationTokenServiceImpl.java) are vetoed.
import { notPlaceholder, pathLike, type Detector } from './detector';

// Words that make a KEY=value / "key": value pair secret.
const SECRET_WORD = String.raw`(?:PASSWORD|PASSWD|PASSPHRASE|PWD|SECRET|TOKEN|API[_-]?KEY|APIKEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|AUTH[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|SESSION[_-]?KEY|SIGNING[_-]?KEY|ENCRYPTION[_-]?KEY|MASTER[_-]?KEY|APP(?:LICATION)?[_-]?KEY|SUBSCRIPTION[_-]?KEY|LICENSE[_-]?KEY|ACCOUNT[_-]?KEY|INGEST[_-]?KEY|_authToken|_auth|DSN|COOKIE[_-]?SECRET|WEBHOOK[_-]?URL)`;

/**
 * The whole key of a KEY=value match found from its secret word (m[1] is the word and what follows it):
 * the regex starts at the word, a literal a scan finds fast, instead of trying a 40-character prefix at
 * every position; the prefix is read back here. The key starts at the leftmost place within 40
 * characters after which no letter or digit comes before it, and a closing quote needs the same opening
 * one. Undefined when no such key exists.
 */
function fullKey(m: RegExpExecArray): string | undefined {
  const text = m.input;
  const KEYCHAR = /[A-Za-z0-9_.-]/, WORDCHAR = /[A-Za-z0-9_]/;
  let p = m.index;
  while (p > 0 && m.index - p < 40 && KEYCHAR.test(text[p - 1])) p--;
  // Leftmost start with a boundary before it.
  while (p < m.index && WORDCHAR.test(text[p - 1] ?? '')) p++;
  if (p === m.index && WORDCHAR.test(text[p - 1] ?? '')) return undefined;
  if (m[2] && text[p - 1] !== m[2]) return undefined;
  return text.slice(p, m.index) + m[1];
}

/**
 * Key names that mention a secret but hold metadata about it (its expiry, type, length, an id, a file,
 * an error class). A file name with an extension is a stack frame ("TokenService.java:42").
 */
const METADATA_KEY = /(?:id|ids|error|errors|exception|expires?|expires?at|expires?in|expiry|expiration|exp|ttl|type|types|length|len|count|size|limit|max|min|url|uri|endpoint|path|file|filename|name|names|header|field|timeout|version|policy|hint|prompt|label|placeholder|required|valid|reset|service|controller|handler|provider|manager|impl|factory|store|storage|cache|usage|used|budget|index|kind|format|mode|scope|scopes|status|enabled|rotation|at)["']?$/i;
const FILE_KEY = /\.(?:java|kt|kts|scala|groovy|ts|tsx|js|jsx|mjs|cjs|py|go|rs|cs|rb|php|swift|c|cc|cpp|h|hpp|m|mm|dart|lua|ex|exs|vue|svelte)$/i;

function secretKeyValue(value: string, m: RegExpExecArray): boolean {
  const full = fullKey(m);
  if (full === undefined) return false;
  const key = full.replace(/^["']|["']$/g, '');
  if (!notPlaceholder(value)) return false;
  if (FILE_KEY.test(key)) return false;
  if (/^(?:OLD)?PWD$/i.test(key)) return false; // the shell's working directory, not a password
  // A service account's private_key_id names its key: kept out of memories like the key itself.
  if (METADATA_KEY.test(key) && !/webhook[_-]?url$|_auth$|^_auth|private[_-]?key[_-]?id$/i.test(key)) return false;
  if (!/[A-Za-z0-9]/.test(value) || /^\d{1,3}$/.test(value)) return false;
  // A path names the file that holds the secret (a bare value only: a quoted one may be a password with a `/`).
  if (m[6] !== undefined && pathLike(value)) return false;
  // Code, not a value: `token = String::from(…)`, `secret = crypto.randomBytes(…)`.
  if (m[6] !== undefined && /^[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)*\(/.test(value)) return false;
  // A bare number under a token/key name is a count or a timestamp; under a password name it may be a PIN.
  if (/^\d{1,13}$/.test(value) && !/pass|pwd|pin|secret/i.test(key)) return false;
  // Bare prose after a CamelCase error name: "InvalidClientTokenId: The security token …".
  if (m[6] !== undefined && /^[A-Z]?[a-z]{1,12}$/.test(value) && /^\s+[A-Za-z]/.test(m.input.slice(m.index + m[0].length))) return false;
  return true;
}

/** `(token: string)`: a closing parenthesis the value never opened belongs to the code around it. */
function unbalancedParen(v: string | undefined): string | undefined {
  return v && v.endsWith(')') && !v.includes('(') ? v.replace(/\)+$/, '') : v;
}

/** A scheme name on its own ("Authorization: Bearer" with the value cut off) is not a credential. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Bot|Digest|Negotiate|NTLM|SSWS|ApiKey|Api-Key|GenieKey|OAuth|HOBA|Mutual|AWS4-HMAC-SHA256|required|missing|header)$/i;

export const KEY_VALUE_DETECTORS: Detector[] = [
  // An AWS secret access key: 40 base64 characters with both cases, named (in a key or in prose) nearby.
  { kind: 'aws-secret-key', hint: /aws/i, re: /(aws[^\n]{0,40}?(?:secret|sak)[^\n]{0,40}?)(?<![A-Za-z0-9/+=])([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, group: 2, accept: v => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) },
  { kind: 'url-password', hint: /:\/\//, re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"<>]{0,100}:([^\s@/'"<>]{1,200})@/gi, group: 1, accept: notPlaceholder },
  { kind: 'connection-string', hint: /password|pwd|accountkey|sharedaccess|apikey|secret/i, re: /(?<![-\w])(?:Password|Pwd|AccountKey|SharedAccessKey|SharedAccessSignature|ApiKey|Secret)\s*=\s*([^;\s"']{1,300})/gi, group: 1, accept: notPlaceholder },
  // Authorization: <any scheme> <credentials> (Bearer, Basic, SSWS, Token, Bot, ApiKey, GenieKey, key=…);
  // a parameter list (AWS4-HMAC-SHA256 Credential=…, Signature=…; Digest …, response="…") is masked whole.
  { kind: 'authorization', hint: /authorization/i, re: /\b(?:Proxy-)?Authorization["']?\s*[:=]\s*["']?[A-Za-z][\w.-]{1,40}[ \t]+((?:[\w-]{1,40}=(?:"[^"\n]{0,300}"|[^\s,"']{1,400}),?[ \t]*){2,12})/gi, group: 1, accept: notPlaceholder },
  { kind: 'authorization', hint: /authorization/i, re: /\b(?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?!Bearer\b|Basic\b)[A-Za-z][\w.-]{1,40}[ \t]+|(?:Bearer|Basic)[ \t]+)?([^\s"',;]{6,})/gi, group: 1, accept: v => notPlaceholder(v) && !AUTH_SCHEME.test(v) },
  // An AWS Signature Version 4 signature (headers and presigned URLs).
  { kind: 'aws-signature', hint: /Signature=/i, re: /\b(?:X-Amz-)?Signature=([0-9a-f]{64})(?![0-9a-f])/gi, group: 1 },
  { kind: 'bearer-token', hint: /Bearer/, re: /\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/g, group: 1 },
  // Session cookies: the well-known names anywhere, and the first pair of any Cookie header.
  { kind: 'session-cookie', hint: /sess|sid=|__Secure-|__Host-|remember_|auth_token/i, re: /(?<![\w.-])(?:session|sessionid|session_id|sess|sid|connect\.sid|PHPSESSID|JSESSIONID|ASP\.NET_SessionId|laravel_session|_session_id|[\w-]{1,30}_session|_gh_sess|__Secure-[\w-]{1,40}|__Host-[\w-]{1,40}|remember_token|remember_user_token|auth_token)=([A-Za-z0-9%._~+/=:-]{8,400})(?![^;\s"',&])/gi, group: 1, accept: notPlaceholder },
  { kind: 'session-cookie', hint: /cookie/i, re: /\b(?:Set-)?Cookie["']?\s*:\s*["']?[^=\s;"']{1,60}=([^;\s"',]{8,400})/gi, group: 1, accept: notPlaceholder },
  // KEY=value, KEY: value, "key": "value" where the key names a secret
  { kind: 'env-secret', hint: /pass|pwd|secret|token|key|credential|_auth|dsn|cookie|webhook/i, re: new RegExp(String.raw`(${SECRET_WORD}[A-Za-z0-9_.-]{0,40})(["']?)(\s*[:=]\s*)(?:"([^"\n]{1,500})"|'([^'\n]{1,500})'|([^\s,;"'}\]#][^\s,;"'}\]]{0,499}))`, 'gi'), pick: m => m[4] ?? m[5] ?? unbalancedParen(m[6]), accept: secretKeyValue },
  // Environment variables whose name ends in a glued credential word (SSHPASS=, SMTPPASS=, REDISCLI_AUTH=,
  // MYSQL_PWD=): upper case, as the shell and CI logs show them.
  { kind: 'env-secret', words: /pass|pwd|_auth|_pw|_pin/i, hint: /PASS|PWD|_AUTH|_PW|_PIN/, re: /(?<![\w.-])[A-Z][A-Z0-9_]{0,40}(?:PASS|PASSWD|PWD|_AUTH|_PW|_PIN)=(?:"([^"\n]{1,500})"|'([^'\n]{1,500})'|([^\s"';&|]{1,500}(?:&[^\s"';&|]{1,500}){0,8}))/g, pick: m => m[1] ?? m[2] ?? m[3], accept: (v, m) => !/^(?:OLD)?PWD=/.test(m[0]) && notPlaceholder(v) && /[A-Za-z0-9]/.test(v) && !/^\d{1,3}$/.test(v) },
];
