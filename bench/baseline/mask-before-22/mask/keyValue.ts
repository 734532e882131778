// Issue 22's baseline: mask/keyValue.ts as it was before issue 22, for bench/mask.mjs only.
// Secrets recognised by the words around them: KEY=value, "key": value, connection strings,
// Authorization and Cookie headers, an AWS secret key named nearby. The key decides; the value only
// has to be something other than a placeholder, so key names that merely CONTAIN a secret word
// (tokenExpiresAt, max_tokens, InvalidClientTokenId, AuthenticationTokenServiceImpl.java) are vetoed.
import { notPlaceholder, type Detector } from './detector';

// Words that make a KEY=value / "key": value pair secret.
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,40}(?:PASSWORD|PASSWD|PASSPHRASE|PWD|SECRET|TOKEN|API[_-]?KEY|APIKEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|AUTH[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|SESSION[_-]?KEY|SIGNING[_-]?KEY|ENCRYPTION[_-]?KEY|MASTER[_-]?KEY|_authToken|_auth|DSN|COOKIE[_-]?SECRET|WEBHOOK[_-]?URL)[A-Za-z0-9_.-]{0,40}`;

/**
 * Key names that mention a secret but hold metadata about it (its expiry, type, length, an id, a file,
 * an error class). A file name with an extension is a stack frame ("TokenService.java:42").
 */
const METADATA_KEY = /(?:id|ids|error|errors|exception|expires?|expires?at|expires?in|expiry|expiration|exp|ttl|type|types|length|len|count|size|limit|max|min|url|uri|endpoint|path|file|filename|name|names|header|field|timeout|version|policy|hint|prompt|label|placeholder|required|valid|reset|service|controller|handler|provider|manager|impl|factory|store|storage|cache|usage|used|budget|index|kind|format|mode|scope|scopes|status|enabled|rotation|at)["']?$/i;
const FILE_KEY = /\.(?:java|kt|kts|scala|groovy|ts|tsx|js|jsx|mjs|cjs|py|go|rs|cs|rb|php|swift|c|cc|cpp|h|hpp|m|mm|dart|lua|ex|exs|vue|svelte)$/i;

function secretKeyValue(value: string, m: RegExpExecArray): boolean {
  const key = (m[2] ?? '').replace(/^["']|["']$/g, '');
  if (!notPlaceholder(value)) return false;
  if (FILE_KEY.test(key)) return false;
  if (/^(?:OLD)?PWD$/i.test(key)) return false; // the shell's working directory, not a password
  if (METADATA_KEY.test(key) && !/webhook[_-]?url$|_auth$|^_auth/i.test(key)) return false;
  if (!/[A-Za-z0-9]/.test(value) || /^\d{1,3}$/.test(value)) return false;
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

export const KEY_VALUE_DETECTORS: Detector[] = [
  // An AWS secret access key: 40 base64 characters with both cases, named (in a key or in prose) nearby.
  { kind: 'aws-secret-key', hint: /aws/i, re: /(aws[^\n]{0,40}?(?:secret|sak)[^\n]{0,40}?)(?<![A-Za-z0-9/+=])([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, group: 2, accept: v => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) },
  { kind: 'url-password', hint: /:\/\//, re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"<>]{0,100}:([^\s@/'"<>]{1,200})@/gi, group: 1, accept: notPlaceholder },
  { kind: 'connection-string', hint: /password|pwd|accountkey|sharedaccess|apikey|secret/i, re: /(?<![-\w])(?:Password|Pwd|AccountKey|SharedAccessKey|SharedAccessSignature|ApiKey|Secret)\s*=\s*([^;\s"']{1,300})/gi, group: 1, accept: notPlaceholder },
  { kind: 'authorization', hint: /authorization/i, re: /\b(?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate)\s+)?([^\s"',;]{6,})/gi, group: 1, accept: notPlaceholder },
  { kind: 'bearer-token', hint: /Bearer/, re: /\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/g, group: 1 },
  // Session cookies: the well-known names anywhere, and the first pair of any Cookie header.
  { kind: 'session-cookie', hint: /sess|sid=|__Secure-|__Host-|remember_|auth_token/i, re: /(?<![\w.-])(?:session|sessionid|session_id|sess|sid|connect\.sid|PHPSESSID|JSESSIONID|ASP\.NET_SessionId|laravel_session|_session_id|[\w-]{1,30}_session|_gh_sess|__Secure-[\w-]{1,40}|__Host-[\w-]{1,40}|remember_token|remember_user_token|auth_token)=([A-Za-z0-9%._~+/=:-]{8,400})(?![^;\s"',&])/gi, group: 1, accept: notPlaceholder },
  { kind: 'session-cookie', hint: /cookie/i, re: /\b(?:Set-)?Cookie["']?\s*:\s*["']?[^=\s;"']{1,60}=([^;\s"',]{8,400})/gi, group: 1, accept: notPlaceholder },
  // KEY=value, KEY: value, "key": "value" where the key names a secret
  { kind: 'env-secret', hint: /pass|pwd|secret|token|key|credential|_auth|dsn|cookie|webhook/i, re: new RegExp(String.raw`(?<![A-Za-z0-9_])(["']?)(${SECRET_KEY})\1(\s*[:=]\s*)(?:"([^"\n]{1,500})"|'([^'\n]{1,500})'|([^\s,;"'}\]#]{1,500}))`, 'gi'), pick: m => m[4] ?? m[5] ?? unbalancedParen(m[6]), accept: secretKeyValue },
];
