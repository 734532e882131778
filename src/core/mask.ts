// Secret and personal-data masking that runs BEFORE anything is persisted, exported or embedded. The
// detectors live in src/core/mask/ by family: vendor-shaped tokens, key=value and headers, passwords
// (short keys, English and Korean prose, command lines), multi-line key blocks, personal data, and the
// high-entropy check for bare literals. This file resolves their overlaps and rewrites the text.
// All patterns are bounded so a hostile input costs linear time.
import { BLOCK_DETECTORS, privateKeyBlocks } from './mask/blocks';
import { notPlaceholder, type Detector } from './mask/detector';
import { ASSIGNED_LITERAL, QUOTED_LITERAL, secretLiteral } from './mask/entropy';
import { KEY_VALUE_DETECTORS } from './mask/keyValue';
import { COMMAND_LINE_DETECTORS, findPrintedSecrets, PASSWORD_DETECTORS } from './mask/passwords';
import { maskViews, toInput } from './mask/normalize';
import { findEmails, GENERIC_HOME, homeVariants, NON_LATIN_PERSONAL_DETECTORS, PERSONAL_DETECTORS } from './mask/personal';
import { NON_LATIN_PROSE_DETECTORS, PROSE_DETECTORS } from './mask/prose';
import { findPrefixedTokens, TOKEN_DETECTORS } from './mask/tokens';

export { looksHighEntropy } from './mask/entropy';

declare const MASKED: unique symbol;
/**
 * Text that has been through the masker. Only maskSecrets, maskDeep and maskRecord produce it (nothing
 * else may cast to it), so a parameter typed Masked says the caller masked at the boundary where the
 * text came in, and the code after it need not (and does not) mask again. It is still a string.
 */
export type Masked<T extends string = string> = T & { readonly [MASKED]: true };

/** `T` with every string in it Masked (what maskDeep returns): literal types survive, so it still fits T. */
export type MaskedDeep<T> =
  T extends string ? Masked<T>
  : T extends readonly (infer U)[] ? MaskedDeep<U>[]
  : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown> | Date ? T
  : T extends object ? { [K in keyof T]: MaskedDeep<T[K]> }
  : T;

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
  kind: string; // 'github-token', 'aws-access-key', 'private-key', 'env-secret', 'password', 'email', 'phone', ...
  start: number; // offset of the masked part in the input
  end: number;
}

// Order matters only for the kind reported when two detectors cover the same span (earlier wins a tie).
// The generic KEY=value rule (env-secret) comes after the password rules, so `password: X` is named a
// password whatever X holds; connection strings and headers keep their own names before both.
const isEnvSecret = (d: Detector) => d.kind === 'env-secret';
const SECRET_DETECTORS: Detector[] = [...TOKEN_DETECTORS, ...BLOCK_DETECTORS, ...COMMAND_LINE_DETECTORS, ...KEY_VALUE_DETECTORS.filter(d => !isEnvSecret(d)), ...PASSWORD_DETECTORS, ...KEY_VALUE_DETECTORS.filter(isEnvSecret), ...PROSE_DETECTORS];

/** A hint (or a detector's `words`) made of case-blind literal words only (`pass|pw`, `authorization`, `\bnie\b`). */
const wordsOf = (hint: RegExp | undefined): string[] | undefined => {
  const words = hint?.source.split('|');
  return hint && hint.flags.replace('g', '') === 'i' && words!.every(p => /^[A-Za-z0-9 _=-]+$/.test(p.replace(/\\b/g, ''))) ? words : undefined;
};
const gateWords = (d: Detector) => wordsOf(d.words) ?? wordsOf(d.hint);
const GATED = new Set([...SECRET_DETECTORS, ...PERSONAL_DETECTORS].filter(gateWords));
const WORD_GATE = new RegExp([...new Set([...GATED].flatMap(d => gateWords(d) ?? []))].join('|'), 'i');

interface Span { start: number; end: number; kind: string; replacement: string }

const NON_ASCII = /[^\x00-\x7f]/;
/** What follows a backslash that starts an escape in JSON or a shell string. */
const ESCAPED_NEXT = /^["'\\nrtu/]$/;

const NOT_A_SECRET_KIND = new Set(['home', 'user', 'host', 'path']);

/** Every secret or personal-data span in `text` (overlaps resolved: the earlier, then the longer, wins). */
export function findSecrets(text: string): SecretHit[] {
  return collect(text ?? '', {}).filter(s => !NOT_A_SECRET_KIND.has(s.kind)).map(({ kind, start, end }) => ({ kind, start, end }));
}

/**
 * Replaces secrets with «secret:kind», e-mails with «email», phone numbers, resident registration and
 * card numbers with «phone», «rrn», «card», and the home directory with "~". Idempotent.
 */
export function maskSecrets(text: string, opts: MaskOptions = {}): Masked {
  if (!text) return (text ?? '') as Masked;
  const spans = collect(text, opts);
  if (!spans.length) return text as Masked;
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + s.replacement;
    pos = s.end;
  }
  return (out + text.slice(pos)) as Masked;
}

function runDetector(d: Detector, text: string, add: (start: number, end: number, kind: string, replacement?: string) => void): void {
  if (d.hint && !d.hint.test(text)) return;
  d.re.lastIndex = 0;
  for (let m = d.re.exec(text); m; m = d.re.exec(text)) {
    if (m[0].length === 0) { d.re.lastIndex++; continue; }
    const value = d.pick ? d.pick(m) : d.group ? m[d.group] : m[0];
    // Already-masked text must not be masked again (idempotence).
    if (value === undefined || value === '' || /[«»]/.test(value)) continue;
    if (d.accept && !d.accept(value, m)) continue;
    const start = d.pick || d.group ? m.index + m[0].lastIndexOf(value) : m.index;
    add(start, start + value.length, d.kind, d.personal ? `«${d.kind}»` : undefined);
  }
}

type Add = (start: number, end: number, kind: string, replacement?: string) => void;

function collect(text: string, opts: MaskOptions): Span[] {
  const spans: Span[] = [];
  const add: Add = (start, end, kind, replacement = `«secret:${kind}»`) => {
    // A value read on the raw text can swallow the backslash of the escape after it (`--token X\"`,
    // `KEY=X\n`): that backslash belongs to the quote or line break, and masking it would unbalance a
    // JSON string (an echo of the text would no longer parse).
    while (end > start && text.charCodeAt(end - 1) === 92 /* \ */ && ESCAPED_NEXT.test(text[end] ?? '')) end--;
    if (end > start) spans.push({ start, end, kind, replacement });
  };
  detectAll(text, opts, spans, add);
  // The same detectors on the normalised views of lines normalising changes (mask/normalize.ts: escaped
  // quotes, CRLF, look-alikes), every span mapped back onto the input.
  for (const { offset, view } of maskViews(text)) {
    detectAll(view.text, opts, spans, (start, end, kind, replacement) => {
      const [s, e] = toInput(view, start, end);
      add(offset + s, offset + e, kind, replacement);
    });
  }

  homeAndNames(text, opts, add);
  return resolveOverlaps(spans);
}

/** Secrets and personal data in `text` (the input, or one normalised view of a line of it). */
function detectAll(text: string, opts: MaskOptions, spans: Span[], add: Add): void {
  for (const b of privateKeyBlocks(text)) add(b.start, b.end, b.kind);
  findPrefixedTokens(text, add);
  findPrintedSecrets(text, add);
  // Detectors whose hints are only case-blind words are skipped together when none of the words is in
  // the text: one test instead of one per detector (most messages name no password, token or cookie).
  const words = WORD_GATE.test(text);
  for (const d of SECRET_DETECTORS) if (words || !GATED.has(d)) runDetector(d, text, add);
  if (NON_ASCII.test(text)) for (const d of NON_LATIN_PROSE_DETECTORS) runDetector(d, text, add);

  // Only where no detector above matched, so known kinds keep their names.
  const before = spans.length;
  for (const re of [QUOTED_LITERAL, ASSIGNED_LITERAL]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const value = m[2];
      const start = m.index + m[0].length - value.length - m[1].length;
      const end = start + value.length;
      if (!secretLiteral(value, text, start)) continue;
      // Compared in input coordinates (add() maps a view's span): a literal inside a span a detector
      // already found is dropped again.
      const n = spans.length;
      add(start, end, 'high-entropy');
      const s = spans[n];
      if (s && spans.slice(0, before).some(o => o.start < s.end && s.start < o.end)) spans.pop();
    }
  }

  if (opts.emails !== false) for (const e of findEmails(text)) add(e.start, e.end, 'email', '«email»');
  for (const d of PERSONAL_DETECTORS) {
    if (d.kind === 'email' && opts.emails === false) continue;
    if (!words && GATED.has(d)) continue;
    runDetector(d, text, add);
  }
  if (NON_ASCII.test(text)) for (const d of NON_LATIN_PERSONAL_DETECTORS) runDetector(d, text, add);
}

/** Home folders, absolute paths, the user's and host's names: rewritten so the text stays readable. */
function homeAndNames(text: string, opts: MaskOptions, add: Add): void {
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
}

function resolveOverlaps(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || (b.end - b.start) - (a.end - a.start));
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      // A secret beats personal data (the address-looking tail of user:pw@host), and both beat a
      // home/path rewrite that overlaps them; between secrets the union is masked.
      if (rank(s) > rank(last)) { out[out.length - 1] = s; }
      else if (s.end > last.end && rank(last) === 2 && rank(s) === 2) { last.end = s.end; }
      continue;
    }
    out.push(s);
  }
  return out;
}

/** 2 secrets, 1 personal data, 0 home/path/user rewrites that keep the text readable. */
function rank(s: Span): number {
  return s.replacement.startsWith('«secret:') ? 2 : NOT_A_SECRET_KIND.has(s.kind) ? 0 : 1;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SECRET_FIELD = /^(?:.*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|authorization|cookie).*)$/i;

/**
 * Deep copy with every string masked. Only own enumerable keys are copied and `__proto__` is skipped,
 * so hostile JSON cannot pollute prototypes; a string under a secret-named key is masked whole.
 */
export function maskDeep<T>(value: T, opts: MaskOptions = {}): MaskedDeep<T> {
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
  return walk(value, undefined, 0) as MaskedDeep<T>;
}

/**
 * maskDeep, plus: every secret found anywhere in the input is also removed, in any letter case, from
 * every string of the result. A field derived from the raw text before masking (a signature key is
 * normalised and lower-cased) keeps a secret where no case-sensitive detector sees it; this is the
 * store's last line for callers that derived such a field too early.
 */
export function maskRecord<T>(value: T, opts: MaskOptions = {}): MaskedDeep<T> {
  const found = new Map<string, string>(); // lower-cased secret text -> kind
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      for (const h of findSecrets(v)) {
        const text = v.slice(h.start, h.end);
        // Short values (a 4-digit PIN) would rewrite unrelated words of other fields.
        if (text.length >= 8 && found.size < 1000) found.set(text.toLowerCase(), h.kind);
      }
      return;
    }
    if (v === null || typeof v !== 'object' || depth > 64) return;
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1);
  };
  visit(value, 0);
  const masked = maskDeep(value, opts);
  if (!found.size) return masked;
  const re = new RegExp([...found.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join('|'), 'gi');
  const mark = (t: string) => { const kind = found.get(t.toLowerCase()) ?? 'derived'; return PERSONAL.has(kind) ? `«${kind}»` : `«secret:${kind}»`; };
  const done = new WeakSet<object>(); // maskDeep keeps cycles
  const scrub = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return v.replace(re, mark);
    if (v === null || typeof v !== 'object' || depth > 64 || done.has(v)) return v;
    done.add(v);
    if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) v[i] = scrub(v[i], depth + 1); return v; }
    if (Object.getPrototypeOf(v) !== Object.prototype) return v;
    for (const k of Object.keys(v)) (v as Record<string, unknown>)[k] = scrub((v as Record<string, unknown>)[k], depth + 1);
    return v;
  };
  return scrub(masked, 0) as MaskedDeep<T>;
}

const PERSONAL = new Set(['email', ...[...PERSONAL_DETECTORS, ...NON_LATIN_PERSONAL_DETECTORS].map(d => d.kind)]);
