// The JSON-lines import/export format: one memory per line. Import is untrusted input, so every line is
// parsed into a typed Memory here (types checked, sizes bounded, prototype-polluting keys refused) or
// rejected with a sentence naming the problem (core/schema, in its plain wording); a bad line never stops
// the good ones.
//
// Lesson lines carry the RAW error text in `errorSignature` (what a person pastes); the normalised key is
// computed here. Export writes the same shape plus `signatureKey`, so export → import round-trips.
// A little over 400 lines on purpose: the per-kind parsers share the field rules below them (ids,
// owners, tallies, optional fields), and what import accepts is easiest to check read in one place.
import { validateCheck } from './checkPattern';
import { newId } from './ids';
import { findSecrets, maskSecrets } from './mask';
import { bool, fail, field, map, maybe, num, obj, oneOf, PLAIN, SchemaError, str, strings, time } from './schema';
import { signatureKeyOf } from './recallQuery';
import { globProblem, scopeProblem } from './scopeCheck';
import type {
  Confidence, Episode, EpisodeStep, Fact, Lesson, Maturity, Memory, MemoryBase, MemoryKind, MemorySource, Outcome, Owner, OwnerScope, Rule,
} from './types';
import { LESSON_AUTHORS } from './types';

export const MAX_LINE_BYTES = 1024 * 1024;
const MAX_TEXT = 64 * 1024;
const MAX_LIST = 200;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const KINDS: readonly MemoryKind[] = ['lesson', 'episode', 'fact', 'rule'];
const MATURITIES: readonly Maturity[] = ['observation', 'pattern', 'rule', 'constraint'];
const OUTCOMES: readonly Outcome[] = ['success', 'partial', 'failure', 'abandoned'];
const OWNER_SCOPES: readonly OwnerScope[] = ['workspace', 'personal', 'team'];
const SOURCES: readonly MemorySource[] = ['captured', 'manual', 'imported', 'chat', 'team'];
/** Weight of a bare-number confidence: the mean is kept, the evidence it stands for is small. */
const NUMBER_CONFIDENCE_WEIGHT = 2;
/** Untrusted lines may not claim more evidence than this (alpha + beta); the mean is kept. */
const UNTRUSTED_MAX_WEIGHT = 4;

export interface ImportOptions {
  /**
   * A backup you made yourself (`engram export`): keep maturity, confidence and source as written.
   * Otherwise imported memories start as observations with little weight, whatever the line claims.
   */
  trusted?: boolean;
  /**
   * A team file (core/team.ts): reviewed text, not a trusted backup. Evidence ids and the claimed maturity
   * are passed on for the caller to cap with trust.teamMaturityCap once all the evidence for a memory is
   * known (mergeTeamLines after merging, the store on import); the source is "team", confidence is weighed
   * as untrusted, and flags, tallies and local state in the line are ignored.
   */
  team?: boolean;
  /** Owner for lines that name none (default: workspace). */
  owner?: Owner;
}

/** `explicitId`: the line named its own id (the store never merges such a line into another memory). */
export type ParseResult = { ok: true; memory: Memory; explicitId: boolean } | { ok: false; error: string };

export function parseImportLine(line: string, lineNo: number, now: number, opts: ImportOptions = {}): ParseResult {
  void lineNo; // callers number their reports; kept in the signature for symmetry with the docs
  if (line.length > MAX_LINE_BYTES || Buffer.byteLength(line, 'utf8') > MAX_LINE_BYTES) {
    return { ok: false, error: `line is larger than ${MAX_LINE_BYTES / 1024 / 1024} MB` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (e) {
    return { ok: false, error: jsonErrorReason(e) };
  }
  try {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('a line must be a JSON object');
    const bad = forbiddenKey(raw, 0);
    if (bad) fail(`forbidden key "${bad}" (prototype pollution)`);
    const o = raw as Record<string, unknown>;
    return { ok: true, memory: dropUndefined(toMemory(o, now, opts)), explicitId: typeof o.id === 'string' };
  } catch (e) {
    if (e instanceof SchemaError) return { ok: false, error: e.message };
    throw e;
  }
}

/**
 * JSON.parse quotes the input in its message (`Unexpected token 'p', "password=H"...`), and import
 * reports reach the terminal and the extension's log: keep only the position, never the text.
 */
export function jsonErrorReason(e: unknown): string {
  const msg = e instanceof Error ? e.message : '';
  if (/end of (?:JSON )?input|Unterminated string/i.test(msg)) return 'not valid JSON (the line ends too early)';
  const at = /position (\d+)/.exec(msg);
  return at ? `not valid JSON (at character ${Number(at[1]) + 1})` : 'not valid JSON';
}

/** Absent optional fields stay absent (not `undefined`), so a memory round-trips through JSON unchanged. */
function dropUndefined<T>(v: T): T {
  if (Array.isArray(v)) return v.map(dropUndefined) as T;
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = dropUndefined(x);
  return out as T;
}

function forbiddenKey(v: unknown, depth: number): string | undefined {
  if (depth > 20) return undefined;
  if (Array.isArray(v)) {
    for (const x of v) { const k = forbiddenKey(x, depth + 1); if (k) return k; }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(k)) return k;
      const inner = forbiddenKey((v as Record<string, unknown>)[k], depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

function toMemory(o: Record<string, unknown>, now: number, opts: ImportOptions): Memory {
  const kind = o.kind === undefined ? 'lesson' : o.kind;
  if (typeof kind !== 'string' || !KINDS.includes(kind as MemoryKind)) {
    fail(`"kind" must be one of ${KINDS.join(', ')}`);
  }
  const base = baseFields(o, kind as MemoryKind, now, opts);
  switch (kind as MemoryKind) {
    case 'lesson': return lesson(o, base, !!opts.trusted);
    case 'fact': return fact(o, base);
    case 'episode': return episode(o, base);
    case 'rule': return rule(o, base);
  }
}

function baseFields(o: Record<string, unknown>, kind: MemoryKind, now: number, opts: ImportOptions): MemoryBase {
  const id = optString(o, 'id', 128);
  if (id !== undefined && !/^[A-Za-z0-9_.:@-]+$/.test(id)) fail('"id" may only contain letters, digits and _ . : @ -');
  if (id !== undefined) refuseMaskedId(id, 'id');
  const createdAt = optTime(o, 'createdAt') ?? now;
  const confidence = parseConfidence(o.confidence, !!opts.trusted);
  const maturityRaw = optEnum(o, 'maturity', MATURITIES);
  const source = opts.trusted ? optEnum(o, 'source', SOURCES) ?? 'imported' : opts.team ? 'team' : 'imported';
  return {
    id: id ?? newId(kind[0]),
    kind,
    owner: parseOwner(o.owner) ?? opts.owner ?? { scope: 'workspace' },
    createdAt,
    updatedAt: optTime(o, 'updatedAt') ?? createdAt,
    lastAccessedAt: optTime(o, 'lastAccessedAt'),
    accessCount: optNumber(o, 'accessCount', 0, 1e9) ?? 0,
    importance: optNumber(o, 'importance', 0, 1) ?? 0.5,
    source,
    expiresAt: optTime(o, 'expiresAt'),
    pinned: optBool(o, 'pinned'),
    purpose: optString(o, 'purpose', 2000),
    tags: optStrings(o, 'tags', 100) ?? [],
    scope: parseScope(o),
    confidence,
    // Anything that arrives from outside starts at the bottom of the ladder and earns its way up.
    // (A team line's claim is capped by its caller, once all its evidence is known.)
    maturity: opts.trusted || opts.team ? maturityRaw ?? 'observation' : 'observation',
    flagged: opts.trusted ? optStrings(o, 'flagged', 500) : undefined,
  };
}

function parseScope(o: Record<string, unknown>): string[] {
  const scope = (optStrings(o, 'scope', 500) ?? []).map(s => s.trim()).filter(Boolean);
  const secret = scope.findIndex(holdsSecret);
  if (secret >= 0) fail(`"scope" entry ${secret + 1} ${MASKED_GLOB}`);
  const bad = scopeProblem(scope);
  if (bad) fail(bad);
  return scope;
}

/**
 * Mask, then validate: a glob is checked as it would be stored. Masking turns a secret in it into
 * «secret:…», which no workspace path holds, so the line is refused here, by its number and without the
 * value, instead of failing the whole import when the store validates the masked scope.
 */
const MASKED_GLOB = 'holds a secret or personal data; masked, it would no longer be a workspace glob';
function holdsSecret(text: string): boolean {
  return maskSecrets(text) !== text;
}

function refId(id: string | undefined, field: string): string | undefined {
  if (id !== undefined) refuseMaskedId(id, field);
  return id;
}

function refIds(ids: string[], field: string): string[] {
  for (const id of ids) refuseMaskedId(id, field);
  return ids;
}

/**
 * An id is a name other lines and events refer to, so it is never masked: masking after the duplicate
 * check turned alice@corp.com and bob@corp.com into the same «email» and one overwrote the other. We
 * REJECT such a line rather than re-key it, because a new id would silently break every reference to
 * the old one (evidence, supersedes, a team file's later edit) and the user could not find the memory
 * under the name they gave; the report says which line and why, without repeating the value.
 */
function refuseMaskedId(id: string, field: string): void {
  if (findSecrets(id).length) fail(`"${field}" looks like personal data or a secret (an e-mail address, a phone number, a token); ids are stored as written, so use a neutral id`);
}

function lesson(o: Record<string, unknown>, base: MemoryBase, trusted: boolean): Lesson {
  const raw = optString(o, 'errorSignature', MAX_TEXT) ?? optString(o, 'errorText', MAX_TEXT);
  if (!raw || !raw.trim()) fail('a lesson needs "errorSignature" (the error text)');
  const rootCause = optString(o, 'rootCause', MAX_TEXT) ?? '';
  const fixApproach = optString(o, 'fixApproach', MAX_TEXT) ?? '';
  if (!rootCause.trim() && !fixApproach.trim()) fail('a lesson needs "rootCause" or "fixApproach"');
  const key = optString(o, 'signatureKey', 2000) ?? derivedKey(raw);
  const check = o.check === undefined ? undefined : parseCheck(o.check);
  const outcome = optEnum(o, 'outcome', OUTCOMES);
  return {
    ...base,
    kind: 'lesson',
    errorSignature: key,
    errorText: raw,
    errorCategory: optString(o, 'errorCategory', 200) ?? '',
    stack: optStrings(o, 'stack', 100) ?? [],
    rootCause,
    fixApproach,
    evidence: refIds(optStrings(o, 'evidence', 200) ?? [], 'evidence'),
    ...(check ? { check } : {}),
    ...(outcome ? { outcome } : {}),
    ...lessonExtras(o),
    // Per-workspace tallies are a track record: only a trusted backup may bring one.
    ...(trusted && o.perWorkspace !== undefined ? { perWorkspace: parseTallies(o.perWorkspace) } : {}),
  };
}

/** The optional parts of a captured lesson (its change, commands, author…), so an export round-trips. */
function lessonExtras(o: Record<string, unknown>): Partial<Lesson> {
  const out: Partial<Lesson> = {};
  const change = optString(o, 'change', MAX_TEXT);
  if (change) out.change = change;
  const commands = optStrings(o, 'commands', 500);
  if (commands?.length) out.commands = commands.slice(0, 20);
  const author = optEnum(o, 'author', LESSON_AUTHORS);
  if (author) out.author = author;
  const fixKey = optString(o, 'fixKey', 2000);
  if (fixKey) out.fixKey = fixKey;
  if (optBool(o, 'unexplained')) out.unexplained = true;
  const rule = optString(o, 'rule', MAX_TEXT);
  if (rule) out.rule = rule;
  const notWhen = optString(o, 'notWhen', MAX_TEXT);
  if (notWhen) out.notWhen = notWhen;
  const variants = optStrings(o, 'variantSignatures', 8);
  if (variants?.length) out.variantSignatures = variants.map(v => v.slice(0, 2000));
  return out;
}

/**
 * The signature key of raw error text, computed from the MASKED text: the key is normalised and
 * lower-cased, so a secret in it would no longer match the case-sensitive detectors that run later.
 */
function derivedKey(raw: string): string {
  const masked = maskSecrets(raw);
  return signatureKeyOf(masked) ?? masked.trim().toLowerCase().slice(0, 500);
}

function parseTallies(v: unknown): Record<string, { prevented: number; stillFailed: number }> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail('"perWorkspace" must be an object');
  const out: Record<string, { prevented: number; stillFailed: number }> = {};
  for (const [ws, t] of Object.entries(v)) {
    // The workspace key is input: not echoed.
    if (!t || typeof t !== 'object') fail('every "perWorkspace" entry must be an object');
    const o = t as Record<string, unknown>;
    out[ws] = { prevented: optNumber(o, 'prevented', 0, 1e9) ?? 0, stillFailed: optNumber(o, 'stillFailed', 0, 1e9) ?? 0 };
  }
  return out;
}

function fact(o: Record<string, unknown>, base: MemoryBase): Fact {
  const content = optString(o, 'content', MAX_TEXT);
  if (!content || !content.trim()) fail('a fact needs "content"');
  return {
    ...base,
    kind: 'fact',
    content,
    topic: optString(o, 'topic', 200),
    type: optEnum(o, 'type', ['fact', 'preference', 'decision'] as const) ?? 'fact',
    key: optString(o, 'key', 200),
    supersedes: refId(optString(o, 'supersedes', 128), 'supersedes'),
    supersededBy: refId(optString(o, 'supersededBy', 128), 'supersededBy'),
  };
}

function rule(o: Record<string, unknown>, base: MemoryBase): Rule {
  const instruction = optString(o, 'instruction', MAX_TEXT);
  if (!instruction || !instruction.trim()) fail('a rule needs "instruction"');
  return { ...base, kind: 'rule', instruction, fromLesson: refId(optString(o, 'fromLesson', 128), 'fromLesson') };
}

function episode(o: Record<string, unknown>, base: MemoryBase): Episode {
  const trigger = optString(o, 'trigger', MAX_TEXT) ?? '';
  const summary = optString(o, 'summary', MAX_TEXT) ?? '';
  if (!trigger.trim() && !summary.trim()) fail('an episode needs "trigger" or "summary"');
  const startedAt = optTime(o, 'startedAt') ?? base.createdAt;
  const endedAt = optTime(o, 'endedAt');
  const rawSig = optString(o, 'errorSignature', MAX_TEXT);
  const key = optString(o, 'signatureKey', 2000) ?? (rawSig ? derivedKey(rawSig) : undefined);
  return {
    ...base,
    kind: 'episode',
    startedAt,
    endedAt,
    duration: optNumber(o, 'duration', 0, 1e12) ?? (endedAt !== undefined ? Math.max(0, endedAt - startedAt) : undefined),
    trigger,
    goal: optString(o, 'goal', MAX_TEXT),
    domain: optString(o, 'domain', 200),
    steps: parseSteps(o.steps),
    toolsUsed: optStrings(o, 'toolsUsed', 100) ?? [],
    outcome: optEnum(o, 'outcome', OUTCOMES) ?? 'partial',
    resolution: optString(o, 'resolution', MAX_TEXT),
    lessonsLearned: optStrings(o, 'lessonsLearned', MAX_LIST) ?? [],
    files: optStrings(o, 'files', 1000) ?? [],
    sourceIds: optStrings(o, 'sourceIds', 1000) ?? [],
    summary,
    errorSignature: key,
    codeBefore: optString(o, 'codeBefore', MAX_TEXT),
    codeAfter: optString(o, 'codeAfter', MAX_TEXT),
    fixAction: optString(o, 'fixAction', MAX_TEXT),
    fixKey: optString(o, 'fixKey', 2000),
  };
}

const text = str({ max: MAX_TEXT });
const step = obj<EpisodeStep>({
  action: (v, at) => (v === undefined || v === null ? '' : text(v, at)) || fail(`"${at.name}" is required`),
  reasoning: maybe(text),
  result: (v, at) => (v === undefined || v === null ? '' : text(v, at)),
  wasEffective: maybe(bool),
  at: maybe(time),
  detail: maybe(text),
});

function parseSteps(v: unknown): EpisodeStep[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail('"steps" must be an array');
  if (v.length > MAX_LIST) fail(`"steps" has more than ${MAX_LIST} entries`);
  return v.map((s, i) => step(s, { name: `steps[${i}]`, say: PLAIN }));
}

const check = map(obj<{ glob?: string; pattern?: string; flags?: string }>({
  glob: maybe(str({ max: 500 })),
  pattern: maybe(str({ max: 2000 })),
  flags: maybe(str({ max: 8 })),
}, 'an object with glob and pattern'), ({ glob, pattern, flags }) => {
  if (!glob || !pattern) fail('"check" needs "glob" and "pattern"');
  if (holdsSecret(glob)) fail(`"check.glob" ${MASKED_GLOB}`);
  const badGlob = globProblem(glob);
  if (badGlob) fail(`"check.glob" is not a workspace glob: ${badGlob}`);
  // The same test as a check made in the editor: RE2 must be able to run it (core/checkPattern.ts), as
  // written and as it will be stored (masked).
  const masked = maskSecrets(pattern);
  const problem = validateCheck({ glob, pattern, flags }) ?? (masked !== pattern ? validateCheck({ glob, pattern: masked, flags }) : undefined);
  if (problem) fail(`"check" is not usable: ${problem}`);
  return { glob, pattern, ...(flags ? { flags } : {}) } as NonNullable<Lesson['check']>;
});

function parseCheck(v: unknown): Lesson['check'] {
  return check(v, { name: 'check', say: PLAIN });
}

function parseConfidence(v: unknown, trusted: boolean): Confidence {
  if (v === undefined || v === null) return { alpha: 1, beta: 1 };
  let c: Confidence;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0 || v > 1) fail('"confidence" must be a number between 0 and 1, or {alpha, beta}');
    // Keep the mean, but as weak evidence: a number in a file is a claim, not a track record.
    const p = Math.min(0.99, Math.max(0.01, v));
    c = { alpha: p * NUMBER_CONFIDENCE_WEIGHT, beta: (1 - p) * NUMBER_CONFIDENCE_WEIGHT };
  } else if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const alpha = o.alpha, beta = o.beta;
    if (typeof alpha !== 'number' || typeof beta !== 'number' || !(alpha > 0) || !(beta > 0) || !Number.isFinite(alpha + beta) || alpha + beta > 1e6) {
      fail('"confidence" {alpha, beta} must hold two positive numbers');
    }
    c = { alpha, beta };
  } else {
    fail('"confidence" must be a number between 0 and 1, or {alpha, beta}');
  }
  const w = c.alpha + c.beta;
  if (!trusted && w > UNTRUSTED_MAX_WEIGHT) c = { alpha: c.alpha / w * UNTRUSTED_MAX_WEIGHT, beta: c.beta / w * UNTRUSTED_MAX_WEIGHT };
  return c;
}

function parseOwner(v: unknown): Owner | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') {
    if (!OWNER_SCOPES.includes(v as OwnerScope)) fail(`"owner" must be one of ${OWNER_SCOPES.join(', ')} or an object`);
    return { scope: v as OwnerScope };
  }
  if (typeof v !== 'object' || Array.isArray(v)) fail('"owner" must be a string or an object');
  const { scope, ...rest } = ownerObject(v, { name: 'owner', say: PLAIN });
  return { scope: scope ?? 'workspace', ...rest };
}

const ownerObject = obj<{ scope?: OwnerScope; workspace?: string; principal?: string; agent?: string }>({
  scope: maybe(oneOf(OWNER_SCOPES)),
  workspace: maybe(str({ max: 200 })),
  principal: maybe(str({ max: 200 })),
  agent: maybe(str({ max: 200 })),
});

// Field readers: each fails with a SchemaError naming the field and what it must be. Absent and null
// are the same (JSON writers use both).

function optString(o: Record<string, unknown>, k: string, max: number): string | undefined {
  return field(o, k, str({ max }));
}

function optStrings(o: Record<string, unknown>, k: string, maxItems: number): string[] | undefined {
  return field(o, k, map(strings({ max: maxItems, single: true }), l => l.map(s => s.slice(0, 2000))));
}

function optNumber(o: Record<string, unknown>, k: string, min: number, max: number): number | undefined {
  return field(o, k, num({ min, max }));
}

function optBool(o: Record<string, unknown>, k: string): boolean | undefined {
  return field(o, k, bool);
}

function optEnum<T extends string>(o: Record<string, unknown>, k: string, values: readonly T[]): T | undefined {
  return field(o, k, oneOf(values));
}

/** Epoch ms or an ISO date string. */
function optTime(o: Record<string, unknown>, k: string): number | undefined {
  return field(o, k, time);
}

/** One export line: the import shape (raw error text in `errorSignature`) plus `signatureKey`. */
export function toExportLine(m: Memory): string {
  const out: Record<string, unknown> = { ...m };
  if (m.kind === 'lesson') {
    out.errorSignature = m.errorText;
    out.signatureKey = m.errorSignature;
    delete out.errorText;
  } else if (m.kind === 'episode' && m.errorSignature) {
    out.signatureKey = m.errorSignature;
  }
  // Per-workspace tallies and quarantine are local state, not part of the memory's content.
  delete out.quarantined;
  return JSON.stringify(out);
}
