// The masker as of 166144a (before issue 10), kept only so bench/mask.mjs can compare against it in the same run.
// Secret masking that runs BEFORE anything is persisted, exported or embedded. Detectors are
// format-specific (low false positives on error text) plus context rules (KEY=value, URL passwords,
// Authorization headers). All patterns are bounded so a hostile input costs linear time.

export interface MaskOptions {
  /** The user's home directory; every occurrence becomes "~". */
  homeDir?: string;
  /** Also replace any /home/<u>, /Users/<u>, C:\Users\<u> prefix with "~" (default true). */
  genericHome?: boolean;
  /** Team export: replace this user name with «user». */
  userName?: string;
  /** Team export: replace this host name with «host». */
  hostName?: string;
  /** Team export: replace absolute paths (outside `workspaceRoots`) with «path»/<basename>. */
  absolutePaths?: boolean;
  /** Absolute workspace roots; paths under them become workspace-relative when absolutePaths is set. */
  workspaceRoots?: string[];
  /** Mask e-mail addresses (default true). */
  emails?: boolean;
}

export interface SecretHit {
  kind: string; // 'github-token', 'aws-access-key', 'private-key', 'env-secret', 'email', ...
  start: number; // offset of the masked part in the input
  end: number;
}

interface Detector {
  kind: string;
  re: RegExp; // global; when `group` is set only that capture group is the secret
  group?: number;
  /** For patterns with alternative capture groups (quoted or bare values). */
  pick?: (m: RegExpExecArray) => string | undefined;
  /** Optional veto on a match (placeholders, type names). */
  accept?: (value: string, m: RegExpExecArray) => boolean;
}

const SAFE_VALUE = /^(?:«[^»]*»|\*+|x+|X+|\.\.\.|<[^>]*>|\$\{[^}]*\}?|\$\w+|%\w+%|\{\{[^}]*\}\}|string|number|boolean|any|unknown|null|undefined|none|None|true|false|str|int|bytes|optional|required|changeme|redacted|REDACTED|process\.env\.\w+|os\.environ.*|env\(.*|getenv\(.*)$/;
const notPlaceholder = (v: string) => v.length > 0 && !SAFE_VALUE.test(v.replace(/^["']|["']$/g, ''));

// Words that make a KEY=value / "key": value pair secret.
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,40}(?:PASSWORD|PASSWD|PASSPHRASE|PWD|SECRET|TOKEN|API[_-]?KEY|APIKEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|AUTH[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|SESSION[_-]?KEY|SIGNING[_-]?KEY|ENCRYPTION[_-]?KEY|MASTER[_-]?KEY|_authToken|DSN|COOKIE[_-]?SECRET|WEBHOOK[_-]?URL)[A-Za-z0-9_.-]{0,40}`;

const DETECTORS: Detector[] = [
  // Cloud providers
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: 'aws-secret-key', re: /(aws.{0,20}?(?:secret|sak).{0,20}?["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, group: 2 },
  { kind: 'gcp-api-key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'azure-sas', re: /[?&]sig=([A-Za-z0-9%+/=]{20,200})/g, group: 1 },
  { kind: 'azure-client-secret', re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  // Code hosts and chat
  { kind: 'github-token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'github-token', re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'gitlab-token', re: /\bglpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'slack-token', re: /\bxox[abposre]-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/g },
  { kind: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{10,}/g },
  { kind: 'discord-webhook', re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,}\/[A-Za-z0-9_-]{20,}/g },
  { kind: 'discord-token', re: /(?<![A-Za-z0-9_-])[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}(?![A-Za-z0-9_-])/g },
  { kind: 'telegram-token', re: /(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  // AI and payments
  { kind: 'anthropic-key', re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g },
  { kind: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'stripe-webhook-secret', re: /\bwhsec_[A-Za-z0-9]{24,}\b/g },
  // Package registries
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'pypi-token', re: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  // Generic formats
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'url-password', re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"<>]{1,100}:([^\s@/'"<>]{1,200})@/gi, group: 1, accept: notPlaceholder },
  { kind: 'connection-string', re: /(?<![-\w])(?:Password|Pwd|AccountKey|SharedAccessKey|SharedAccessSignature|ApiKey|Secret)\s*=\s*([^;\s"']{1,300})/gi, group: 1, accept: notPlaceholder },
  { kind: 'authorization', re: /\b(?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Bot|Digest|Negotiate)\s+)?([^\s"',;]{6,})/gi, group: 1, accept: notPlaceholder },
  { kind: 'bearer-token', re: /\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/g, group: 1 },
  { kind: 'cli-password', re: /(?:^|\s)(?:--password|--passwd|--token|--api-key|--apikey|--secret|--client-secret)(?:=|\s+)(["']?)([^\s"']{4,200})\1(?=\s|$)/gim, group: 2, accept: notPlaceholder },
  // mysql/mysqldump take the password glued to -p
  { kind: 'cli-password', re: /\bmysql(?:dump|admin)?\b[^\n]{0,200}?\s-p([^\s"']{3,200})/g, group: 1, accept: notPlaceholder },
  // KEY=value, KEY: value, "key": "value" where the key names a secret
  { kind: 'env-secret', re: new RegExp(String.raw`(?<![A-Za-z0-9_])(["']?)(${SECRET_KEY})\1(\s*[:=]\s*)(?:"([^"\n]{1,500})"|'([^'\n]{1,500})'|([^\s,;"'}\]#]{1,500}))`, 'gi'), pick: m => m[4] ?? m[5] ?? m[6], accept: notPlaceholder },
];

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
// Whole base64 lines after BEGIN (real or JSON-escaped newlines); stops at the first other line.
const PEM_BODY = /(?:[ \t]*(?:\r?\n|\\n)[ \t]*[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|\\n|"|$)))*/y;
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g;
const GENERIC_HOME = /(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)(?!«)[^/\\\s'"`:]{1,64}(?=[/\\]|[\s'"`:]|$)/g;

// Candidate literals for the high-entropy check: a quoted value with no whitespace, or a bare value
// after `=`. Group 1 is the closing quote (empty when bare), group 2 the value.
const LITERAL_CHARS = String.raw`[A-Za-z0-9+/=_\-.~!@#$%^&*]`;
// Inside quotes a password may also use brackets and punctuation (no whitespace: prose and types have it).
const QUOTED_CHARS = String.raw`[A-Za-z0-9+/=_\-.~!@#$%^&*()[\]{}<>|?:;,]`;
const QUOTED_LITERAL = new RegExp(String.raw`(?<=(['"\x60]))(${QUOTED_CHARS}{20,512})(\1)`, 'g');
const ASSIGNED_LITERAL = new RegExp(String.raw`(?<![=!<>])=[ \t]*()(${LITERAL_CHARS}{20,512})(?![A-Za-z0-9+/=_\-.~!@#$%^&*])`, 'g');
const HEX_RUN = /^[0-9a-fA-F]+$/;
const BASE64_RUN = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Does `v` look like a random secret rather than something a person or compiler wrote? Random strings
 * over [A-Za-z0-9] switch character class between neighbours about 45% of the time (not counting a
 * capital starting a lowercase word); identifiers, paths and words stay well below, so camelCase names
 * such as getElementsByTagName or ModuleNotFoundError survive. Plus Shannon entropy near that of random
 * text of this length, and every class present (or a long hex / base64 run).
 */
export function looksHighEntropy(v: string): boolean {
  if (v.length < 20 || v.includes('://') || /[«»]/.test(v)) return false;
  const entropy = shannonEntropy(v);
  if (HEX_RUN.test(v)) return v.length >= 32 && /\d/.test(v) && /[a-fA-F]/.test(v) && entropy >= 3.0;
  const upper = /[A-Z]/.test(v), lower = /[a-z]/.test(v), digit = /\d/.test(v);
  const base64ish = v.length >= 32 && BASE64_RUN.test(v) && /[+/]|=$/.test(v);
  if (!(upper && lower && digit) && !base64ish) return false;
  // Paths and dotted names (src/fooBar/index.ts, com.example.MyClass) switch class rarely, like words.
  // A long pure base64 run (AWS secret keys, SAS signatures) may hold a readable stretch, so it gets a
  // lower bar than free-form text.
  if (caseSwitchRatio(v) < (base64ish && upper && lower && digit ? 0.2 : 0.3)) return false;
  // Expected entropy of random text grows with length until the alphabet caps it (hex-like text: 16).
  const hexish = !/[g-zG-Z]/.test(v.slice(1));
  return entropy >= Math.min(hexish ? 3.3 : 4.2, Math.log2(v.length) - 0.95);
}

function shannonEntropy(v: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < v.length; i++) { const c = v.charCodeAt(i); counts.set(c, (counts.get(c) ?? 0) + 1); }
  let h = 0;
  for (const n of counts.values()) { const p = n / v.length; h -= p * Math.log2(p); }
  return h;
}

const charClass = (c: number) => (c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : c >= 48 && c <= 57 ? 3 : 0);

/** Share of neighbouring alphanumeric pairs that switch class, a capital followed by lowercase excepted. */
function caseSwitchRatio(v: string): number {
  let pairs = 0, switches = 0;
  for (let i = 1; i < v.length; i++) {
    const a = charClass(v.charCodeAt(i - 1)), b = charClass(v.charCodeAt(i));
    if (!a || !b) continue;
    pairs++;
    if (a !== b && !(a === 1 && b === 2)) switches++;
  }
  return pairs ? switches / pairs : 0;
}

interface Span { start: number; end: number; kind: string; replacement: string }

/** Every secret-looking span in `text` (overlaps resolved: the earlier, then the longer, wins). */
export function findSecrets(text: string): SecretHit[] {
  return collect(text ?? '', {}).filter(s => s.kind !== 'home' && s.kind !== 'user' && s.kind !== 'host' && s.kind !== 'path').map(({ kind, start, end }) => ({ kind, start, end }));
}

/** Replaces secrets with «secret:kind», e-mails with «email», the home directory with "~". Idempotent. */
export function maskSecrets(text: string, opts: MaskOptions = {}): string {
  if (!text) return text ?? '';
  const spans = collect(text, opts);
  if (!spans.length) return text;
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + s.replacement;
    pos = s.end;
  }
  return out + text.slice(pos);
}

function collect(text: string, opts: MaskOptions): Span[] {
  const spans: Span[] = [];
  const add = (start: number, end: number, kind: string, replacement = `«secret:${kind}»`) => {
    if (end > start) spans.push({ start, end, kind, replacement });
  };

  // PEM blocks span lines, and may be cut off (bounded output) or JSON-escaped ("\n").
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const endMarker = text.indexOf('-----END ', m.index + m[0].length);
    let end: number;
    if (endMarker >= 0 && endMarker - m.index < 20000) {
      const close = text.indexOf('-----', endMarker + 9);
      end = close >= 0 ? close + 5 : endMarker + 9;
    } else {
      // Truncated (bounded capture): swallow the whole base64 body that follows.
      PEM_BODY.lastIndex = m.index + m[0].length;
      const body = PEM_BODY.exec(text);
      end = PEM_BODY.lastIndex > 0 && body ? m.index + m[0].length + body[0].length : m.index + m[0].length;
    }
    add(m.index, end, 'private-key');
    PEM_BEGIN.lastIndex = end;
  }

  for (const d of DETECTORS) {
    d.re.lastIndex = 0;
    for (let m = d.re.exec(text); m; m = d.re.exec(text)) {
      if (m[0].length === 0) { d.re.lastIndex++; continue; }
      const value = d.pick ? d.pick(m) : d.group ? m[d.group] : m[0];
      // Already-masked text must not be masked again (idempotence).
      if (value === undefined || /[«»]/.test(value)) continue;
      if (d.accept && !d.accept(value, m)) continue;
      const start = d.pick || d.group ? m.index + m[0].lastIndexOf(value) : m.index;
      add(start, start + value.length, d.kind);
    }
  }

  // Secrets with no recognisable prefix and no key name beside them (a TS diagnostic quoting a value,
  // `x = "…"`): judged by the value alone. Only where no detector above matched, so known kinds keep theirs.
  for (const re of [QUOTED_LITERAL, ASSIGNED_LITERAL]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const value = m[2];
      const start = m.index + m[0].length - value.length - m[1].length;
      const end = start + value.length;
      if (!looksHighEntropy(value) || spans.some(s => s.start < end && start < s.end)) continue;
      add(start, end, 'high-entropy');
    }
  }

  if (opts.emails !== false) {
    EMAIL.lastIndex = 0;
    for (let m = EMAIL.exec(text); m; m = EMAIL.exec(text)) {
      // git@github.com-style SSH remotes and npm scopes are not people.
      if (/^(?:git|noreply|no-reply)@/i.test(m[0]) || /@(?:example\.(?:com|org|net)|users\.noreply\.github\.com)$/i.test(m[0])) continue;
      add(m.index, m.index + m[0].length, 'email', '«email»');
    }
  }

  if (opts.homeDir && opts.homeDir.length > 1) {
    for (const home of homeVariants(opts.homeDir)) {
      for (let i = text.indexOf(home); i >= 0; i = text.indexOf(home, i + home.length)) {
        const next = text[i + home.length];
        if (next === undefined || !/[A-Za-z0-9_.-]/.test(next)) add(i, i + home.length, 'home', '~');
      }
    }
  }
  if (opts.genericHome !== false) {
    GENERIC_HOME.lastIndex = 0;
    for (let m = GENERIC_HOME.exec(text); m; m = GENERIC_HOME.exec(text)) add(m.index, m.index + m[0].length, 'home', '~');
  }
  if (opts.absolutePaths) {
    const roots = (opts.workspaceRoots ?? []).filter(r => r.length > 1).map(r => r.replace(/[\\/]+$/, ''));
    const ABS = /(?<![\w.~«])(?:\/(?:[\w.@+-]+\/)+[\w.@+-]*|[A-Za-z]:\\(?:[\w.@+ -]+\\)+[\w.@+-]*)/g;
    for (let m = ABS.exec(text); m; m = ABS.exec(text)) {
      const p = m[0];
      const root = roots.find(r => p === r || p.startsWith(r + '/') || p.startsWith(r + '\\'));
      if (root) add(m.index, m.index + p.length, 'path', p.slice(root.length + 1) || '.');
      else add(m.index, m.index + p.length, 'path', `«path»/${p.split(/[\\/]/).filter(Boolean).pop() ?? ''}`);
    }
  }
  for (const [name, kind] of [[opts.userName, 'user'], [opts.hostName, 'host']] as const) {
    if (!name || name.length < 3) continue;
    const re = new RegExp(`(?<![A-Za-z0-9_-])${escapeRe(name)}(?![A-Za-z0-9_-])`, 'gi');
    for (let m = re.exec(text); m; m = re.exec(text)) add(m.index, m.index + m[0].length, kind, `«${kind}»`);
  }
  return resolveOverlaps(spans);
}

function homeVariants(home: string): string[] {
  const h = home.replace(/[\\/]+$/, '');
  const out = new Set([h, h.replace(/\\/g, '/'), h.replace(/\//g, '\\'), h.replace(/\\/g, '\\\\')]);
  return [...out].filter(x => x.length > 1).sort((a, b) => b.length - a.length);
}

function resolveOverlaps(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || (b.end - b.start) - (a.end - a.start));
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      // A secret beats a home/path rewrite that overlaps it; otherwise keep the earlier, longer span.
      if (isSecret(s) && !isSecret(last)) { out[out.length - 1] = s; }
      else if (s.end > last.end && isSecret(last) && isSecret(s)) { last.end = s.end; }
      continue;
    }
    out.push(s);
  }
  return out;
}

function isSecret(s: Span): boolean {
  return s.replacement.startsWith('«secret:');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SECRET_FIELD = /^(?:.*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|authorization|cookie).*)$/i;

/**
 * Deep copy with every string masked. Only own enumerable keys are copied and `__proto__` is skipped,
 * so hostile JSON cannot pollute prototypes; a string under a secret-named key is masked whole.
 */
export function maskDeep<T>(value: T, opts: MaskOptions = {}): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown, key: string | undefined, depth: number): unknown => {
    if (typeof v === 'string') {
      if (key !== undefined && SECRET_FIELD.test(key) && notPlaceholder(v) && !/^(?:true|false)$/i.test(v)) {
        return v.includes('«') ? v : '«secret:field»';
      }
      return maskSecrets(v, opts);
    }
    if (v === null || typeof v !== 'object' || depth > 64) return v;
    if (seen.has(v)) return seen.get(v);
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      seen.set(v, arr);
      for (const item of v) arr.push(walk(item, undefined, depth + 1));
      return arr;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v; // Dates, Maps, buffers: not ours to rewrite
    const obj: Record<string, unknown> = {};
    seen.set(v, obj);
    for (const k of Object.keys(v)) {
      if (k === '__proto__') continue;
      const child = walk((v as Record<string, unknown>)[k], k, depth + 1);
      Object.defineProperty(obj, k, { value: child, enumerable: true, writable: true, configurable: true });
    }
    return obj;
  };
  return walk(value, undefined, 0) as T;
}
