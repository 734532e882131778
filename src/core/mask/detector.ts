// What every detector family hands to the masker: a global regex and how to read the secret out of a
// match. Shared by the family files (tokens, passwords, blocks, personal data) and mask.ts.

export interface Detector {
  kind: string;
  re: RegExp; // global; when `group` is set only that capture group is the secret
  group?: number;
  /** For patterns with alternative capture groups (quoted or bare values). */
  pick?: (m: RegExpExecArray) => string | undefined;
  /** Optional veto on a match (placeholders, type names, prose). */
  accept?: (value: string, m: RegExpExecArray) => boolean;
  /** Personal data is replaced by «kind»; secrets by «secret:kind» (the default). */
  personal?: boolean;
  /**
   * Cheap test on the whole text (non-global): when it fails the detector cannot match and is skipped.
   * Most messages on the capture path mention no password, cookie or phone, so most detectors never run.
   */
  hint?: RegExp;
  /**
   * Case-blind words (`/secret|authtoken/i`) one of which the text must hold: tested once for all the
   * detectors that have them (or whose hint is such words), so a short message with none of them skips
   * them all at the cost of one test. The hint, case-sensitive and precise, is still tested after it:
   * on a long log a case-blind list of words costs more than the detector.
   */
  words?: RegExp;
}

// What stands where a secret would go: masks, stars, template and env references, type names, the words
// help texts and usage lines write there (`--password=PASS`, `--docker-password=DOCKER_PASSWORD`,
// `[user:passwd@]`, `-passin val`): an all-capitals metavariable with no digit, or the secret's own name.
const SAFE_VALUE = /^(?:[A-Z][A-Z_]{1,40}|pass|passwd|password|pwd|pw|secret|token|val|value|phrase|passphrase|apikey|api_key|arg|«[^»]*»|\*+|x+|X+|\.\.\.|…|<[^>]*>|\$\{[^}]*\}?|\$\w+|%\w+%|\{\{[^}]*\}\}|string|number|boolean|any|unknown|null|undefined|none|None|true|false|[Yy]es|YES|[Nn]o|NO|on|off|ON|OFF|unset|empty|hidden|str|int|bytes|optional|required|changeme|redacted|REDACTED|process\.env\.\w+|os\.environ.*|env\(.*|getenv\(.*)$/;

/** False for empty values and for what a person writes where a secret would go (placeholders, types, env references). */
export const notPlaceholder = (v: string): boolean => v.length > 0 && !SAFE_VALUE.test(v.replace(/^["']|["']$/g, ''));

/**
 * A file path: where a secret lives, not the secret (`--from-file=ssh-privatekey=path/to/id_rsa`,
 * `--key-file ~/.ssh/id`, `C:\\keys\\app.pfx`). Relative ones need lower-case folders, so base64 with a `/`
 * in it (mixed case in every piece) is not read as one.
 */
export function pathLike(v: string): boolean {
  return /^(?:[~.]?\/|[A-Za-z]:\\)/.test(v) || /^(?:\.{1,2}\/)?(?:[a-z0-9_.-]{1,64}\/){1,12}[A-Za-z0-9_.-]{1,128}$/.test(v);
}

/**
 * A bare word that could be a password: 6+ characters, no whitespace, letters plus a digit or a symbol,
 * and not a path, flag, URL or file:line. Used where only the value tells ("deploy password X"), so
 * "the password is incorrect" and "password must be 8 characters" stay as they are.
 */
export function passwordLike(v: string): boolean {
  // Printable ASCII only: "비밀번호|비번|암호" in a regex, or Korean words, are not a password.
  if (v.length < 6 || v.length > 200 || !/^[\x21-\x7e]+$/.test(v)) return false;
  if (!/[A-Za-z]/.test(v) || !/[\d!@#$%^&*+=?~_\-.]/.test(v)) return false;
  if (/^[-/.]|:\/\/|^[\w.-]+\.(?:ts|js|py|java|go|rs|json|ya?ml|md|txt|log)(?::\d+)*$/.test(v)) return false;
  // Code around a key, not a value: `'pass' : s.effective`, `pw = getPw()`, `pin: obj<W<'pin'>>`.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[A-Za-z_$][\w$.]*\(|[<>{}|]/.test(v)) return false;
  // Trailing sentence punctuation is not part of the value ("… is Abc123."): the caller trims it.
  return notPlaceholder(v);
}
