// The events a write produces, decided in one place for every way in (record, import, feedback, edits,
// the pattern pass): defaults and masking, "the same lesson again" (evidence instead of a copy), and the
// trust ladder's automatic steps. Pure: it reads the store through StoreView and returns events; the
// store appends them (store/memoryStore.ts) and nothing else decides promotion.
import { validateCheck } from './checkPattern';
import { resolveFactUpdate } from './facts';
import { newId } from './ids';
import { findSecrets, maskRecord, maskSecrets } from './mask';
import { patchProblem, type MemoryPatch, type TeamEdit } from './memoryPatch';
import { detectMemoryInjection, memoryTexts } from './poison';
import { signatureKeyOf } from './recall';
import { foldEvent } from './reduce';
import { narrowestGlobs } from './scope';
import { scopeProblem } from './scopeCheck';
import { sanitizeRecord } from './text';
import {
  evaluateDemotion, evaluatePromotion, isDuplicateLesson, LADDER, planManualDemotion, planManualPromotion, PRIOR, teamMaturityCap,
  type ContextStamp,
} from './trust';
import type { Fact, FeedbackOutcome, Lesson, Maturity, Memory, MemoryEvent, Owner } from './types';

/** What a plan may read of the store: its current state and the signature index. */
export interface StoreView {
  get(id: string): Memory | undefined;
  has(id: string): boolean;
  isTombstoned(id: string): boolean;
  all(): Memory[];
  /** The facts alone (a store that reads memories from disk lists only these); default: all() filtered. */
  facts?(): Fact[];
  /** Ids of memories filed under a signature key (their own, or an error their episode met). */
  idsWithSignature(key: string): Iterable<string>;
}

export interface PlanContext {
  now: number;
  /** The workspace the store writes for (owner of new memories, where feedback came from). */
  workspace?: string;
}

/** A plan's events and the memory the caller ends up with (a repeat resolves to the lesson it repeats). */
export interface RecordPlan { events: MemoryEvent[]; id: string }

/** Sources that may not claim a maturity: what arrives this way earns trust like everything else. */
const UNTRUSTED_SOURCES = new Set(['chat', 'imported', 'team', 'captured']);

export function defaultOwner(workspace: string | undefined): Owner {
  return { scope: 'workspace', ...(workspace ? { workspace } : {}) };
}

/** Masks, fills defaults, computes the signature key, clamps maturity, and flags instruction-like text. */
export function prepareMemory(input: Memory, ctx: PlanContext, trusted = false): Memory {
  // Masking first: nothing below (not even the duplicate check) sees a secret. maskRecord also takes
  // out, in any case, what a caller derived from the raw text (a lower-cased signature key). Callers
  // mask where outside text comes in (Masked, core/mask); this is the store's last net under all of them.
  // An id is a name, never silently rewritten by masking (two e-mail ids would become one «email»).
  if (input.id && findSecrets(input.id).length) throw new Error('a memory id may not hold personal data or a secret (it would be masked and collide)');
  if (input.id && /[\x00-\x1f\x7f-\x9f]/.test(input.id)) throw new Error('a memory id may not hold control characters');
  // Terminal escapes and control characters leave here, before anything is stored or shown.
  const clean = sanitizeRecord({ ...input });
  // Instructions are looked for before masking as well: masking can take the carrier out of a payload
  // (base64 of an instruction becomes «secret:…»), and the record should still say what it came with.
  const rawReasons = detectMemoryInjection(clean);
  const m = maskRecord(clean) as Memory;
  m.id = m.id || newId(m.kind[0]);
  m.createdAt ??= ctx.now;
  m.updatedAt ??= m.createdAt;
  m.accessCount ??= 0;
  m.importance ??= 0.5;
  m.tags ??= [];
  m.scope ??= [];
  const badScope = scopeProblem(m.scope);
  if (badScope) throw new Error(badScope);
  m.source ??= 'manual';
  m.owner ??= defaultOwner(ctx.workspace);
  m.confidence ??= { ...PRIOR };
  m.maturity ??= 'observation';
  if (!trusted && UNTRUSTED_SOURCES.has(m.source) && m.maturity !== 'observation') m.maturity = 'observation';
  if (m.kind === 'lesson') {
    m.evidence ??= [];
    m.stack ??= [];
    m.errorText ??= '';
    if (!m.errorSignature && m.errorText) m.errorSignature = signatureKeyOf(m.errorText) ?? '';
  }
  // The masked record is read again only where masking changed a text: detection is a function of the
  // text alone, so an unchanged one (nearly all of them) would find what the first pass found.
  const reasons = [...rawReasons, ...detectMemoryInjection(m, new Set(memoryTexts(clean)))];
  if (reasons.length) m.flagged = [...new Set([...(m.flagged ?? []), ...reasons])];
  return m;
}

/**
 * Same lesson = same signature and fix (trust.isDuplicateLesson) and the same owner. A fix that was seen
 * (a captured fixKey: the same commands, the same change) is the same lesson wherever it happened: the
 * same TS2322 fixed the same way in src/config.ts and in src/server/config.ts is one lesson whose scope
 * grows (scopeGrowth). A hand-written fix is only the same lesson in the same scope: a twin in another
 * scope is a different memory, whatever its words say.
 */
export function sameLesson(a: Lesson, b: Lesson): boolean {
  if (!isDuplicateLesson(a, b) || (a.owner?.scope ?? 'workspace') !== (b.owner?.scope ?? 'workspace')) return false;
  return (!!a.fixKey && a.fixKey === b.fixKey) || sameScope(a.scope, b.scope);
}

/**
 * What a lesson becomes when the same fix is seen again elsewhere: its scope covers both places, the way
 * an episode's files make a scope (narrowestGlobs: folders under one top-level folder meet at their common
 * parent, so `services/billing/**` and `services/shipping/**` become `services/**`, the next service
 * included; `src/**` and `api/server/**` stay two), a glob inside another is dropped, and an empty scope is
 * everywhere already. It is also found by the other errors both episodes met. undefined when nothing grows.
 */
export function scopeGrowth(lesson: Lesson, repeat: Lesson): { scope?: string[]; variantSignatures?: string[] } | undefined {
  const out: { scope?: string[]; variantSignatures?: string[] } = {};
  if (lesson.scope.length) {
    const both = repeat.scope.length ? coveringGlobs(mergedFolders([...lesson.scope, ...repeat.scope])) : [];
    if (!sameScope(both, lesson.scope)) out.scope = both;
  }
  const more = (repeat.variantSignatures ?? []).filter(k => k !== lesson.errorSignature && !(lesson.variantSignatures ?? []).includes(k));
  if (more.length) out.variantSignatures = [...(lesson.variantSignatures ?? []), ...more].slice(0, 8);
  return out.scope || out.variantSignatures ? out : undefined;
}

/** Folder globs (`a/b/**`) joined as narrowestGlobs joins files; other globs as they are. */
function mergedFolders(globs: string[]): string[] {
  const folders = globs.filter(g => /^[^*?[{]+\/\*\*$/.test(g));
  const others = globs.filter(g => !folders.includes(g));
  return [...narrowestGlobs(folders.map(g => `${g.slice(0, -2)}_`)), ...others];
}

/** Globs without the ones another covers (`src/server/**` inside `src/**`), sorted as narrowestGlobs sorts them. */
function coveringGlobs(globs: string[]): string[] {
  const uniq = [...new Set(globs)];
  const dirOf = (g: string) => (g.endsWith('/**') ? g.slice(0, -2) : undefined);
  return uniq.filter(g => !uniq.some(o => o !== g && (o === '**' || (dirOf(o) !== undefined && g.startsWith(dirOf(o)!))))).sort();
}

export function findDuplicateLesson(view: StoreView, m: Lesson): Lesson | undefined {
  for (const id of view.idsWithSignature(m.errorSignature)) {
    const other = view.get(id);
    if (other?.kind === 'lesson' && sameLesson(other, m)) return other;
  }
  return undefined;
}

/** `record`: a new memory, evidence on the lesson it repeats, or a fact that supersedes (core/facts.ts). */
export function planRecord(view: StoreView, input: Memory, ctx: PlanContext): RecordPlan {
  const m = prepareMemory(input, ctx);
  if (m.kind === 'lesson') {
    const dup = findDuplicateLesson(view, m);
    if (dup) {
      const grown = scopeGrowth(dup, m);
      const where = grown?.scope ? `same error fixed the same way in ${m.scope.join(', ') || 'the workspace'}` : 'same error fixed the same way';
      const update = grown ? { type: 'updated' as const, id: dup.id, at: ctx.now, patch: grown, reason: where } : undefined;
      const base = update ? (foldEvent(dup, update) as Lesson | undefined) ?? dup : dup;
      return { id: dup.id, events: [...(update ? [update] : []), ...planEvidence(base, m.evidence.length ? m.evidence : [m.id], where, ctx)] };
    }
  }
  if (m.kind === 'fact') {
    // Profile facts: the newer value supersedes the older, which stays as history; a word-for-word
    // repeat is only marked as seen again.
    const facts = view.facts ? view.facts() : view.all().filter((f): f is Fact => f.kind === 'fact');
    const events = resolveFactUpdate(m, facts, ctx.now);
    return { id: events[0].id, events };
  }
  return { id: m.id, events: [{ type: 'recorded', id: m.id, at: ctx.now, memory: m }] };
}

/**
 * A pattern lesson from the pattern pass (core/patterns.ts): recorded like any captured lesson (so it
 * starts as an observation), then lifted at once by the ladder's own rule on the episodes it cites.
 */
export function planPattern(view: StoreView, lesson: Lesson, ctx: PlanContext): RecordPlan {
  const plan = planRecord(view, lesson, ctx);
  const rec = plan.events[0];
  if (rec?.type !== 'recorded' || rec.id !== lesson.id) return plan;
  const step = promotionAfter(rec.memory, ctx);
  return step ? { ...plan, events: [...plan.events, step] } : plan;
}

/**
 * An import line's memory as the store keeps it. A team file keeps its lines' evidence within the team
 * cap (trust.teamMaturityCap), re-applied here after masking and whatever the parser was told. Evidence
 * is what moves a lesson up the ladder, so an untrusted file may not bring any (`dropped` counts it).
 */
export function prepareImported(parsed: Memory, opts: { trusted?: boolean; team?: boolean }, ctx: PlanContext): { memory: Memory; dropped: number } {
  const m = prepareMemory(parsed, ctx, !!opts.trusted || !!opts.team);
  if (opts.team && !opts.trusted) { m.maturity = teamMaturityCap(m); m.source = 'team'; m.confidence = { ...PRIOR }; }
  let dropped = 0;
  if (m.kind === 'lesson' && !opts.trusted && !opts.team && m.evidence.length) { dropped = m.evidence.length; m.evidence = []; }
  return { memory: m, dropped };
}

/** Evidence ids the lesson does not hold yet, and the promotion they earn. */
export function planEvidence(lesson: Lesson, evidenceIds: readonly string[], reason: string, ctx: PlanContext): MemoryEvent[] {
  const events: MemoryEvent[] = [];
  let cur: Memory = lesson;
  for (const evidenceId of new Set(evidenceIds)) {
    if (lesson.evidence.includes(evidenceId)) continue;
    const ev: MemoryEvent = { type: 'evidence', id: lesson.id, at: ctx.now, evidenceId, reason };
    events.push(ev);
    cur = foldEvent(cur, ev) ?? cur;
  }
  if (!events.length) return events;
  const step = promotionAfter(cur, ctx);
  return step ? [...events, step] : events;
}

/**
 * The automatic step up the ladder `m` (as it is after the write) has earned, as an event: the one
 * place evidence turns into maturity.
 */
export function promotionAfter(m: Memory, ctx: PlanContext & { outcome?: FeedbackOutcome; file?: string; evidence?: ContextStamp[] }): MemoryEvent | undefined {
  const t = evaluatePromotion(m, { now: ctx.now, workspace: ctx.workspace, outcome: ctx.outcome, file: ctx.file, evidence: ctx.evidence });
  return t && { type: t.kind, id: m.id, at: ctx.now, from: m.maturity, to: t.to, reason: t.reason };
}

/**
 * An outcome, and the step up or down the ladder it causes. `replaces`: the user's verdict on a
 * recurrence that already got an automatic outcome (core/capture/outcomeLedger.ts) takes that one back,
 * so the recurrence counts once and as the user said.
 */
export function planFeedback(view: StoreView, m: Memory, outcome: FeedbackOutcome, opts: { reason?: string; auto?: boolean; file?: string; replaces?: FeedbackOutcome }, ctx: PlanContext): MemoryEvent[] {
  const workspace = ctx.workspace;
  const ev: MemoryEvent = {
    type: 'feedback', id: m.id, at: ctx.now, outcome,
    ...maskedReason(opts.reason), ...(opts.auto ? { auto: true } : {}), ...(workspace ? { workspace } : {}),
    ...(opts.replaces && !opts.auto ? { replaces: opts.replaces } : {}),
  };
  const next = foldEvent(m, ev) ?? m;
  if (outcome === 'still_failed') {
    const t = evaluateDemotion(next, workspace);
    return t ? [ev, { type: t.kind, id: m.id, at: ctx.now, from: next.maturity, to: t.to, reason: t.reason }] : [ev];
  }
  const step = promotionAfter(next, { ...ctx, outcome, file: opts.file, evidence: evidenceStamps(view, next, workspace) });
  return step ? [ev, step] : [ev];
}

/** The user's edit of a memory's words, scope or keeping (core/memoryPatch.ts), masked. */
export function planUpdate(m: Memory, patch: MemoryPatch, reason: string | undefined, ctx: PlanContext): MemoryEvent[] {
  const problem = patchProblem(patch);
  if (problem) throw new Error(problem);
  return [updatedEvent(m, patch, reason, ctx)];
}

/**
 * A changed team-file line (core/team.ts teamEdit): its new words with their own injection flags, and
 * `demoteTo` lowers the maturity in the same write (never raises it): new text from outside must not
 * keep the standing the old text earned.
 */
export function planTeamEdit(m: Memory, edit: TeamEdit, reason: string | undefined, ctx: PlanContext): MemoryEvent[] {
  const problem = patchProblem(edit.patch);
  if (problem) throw new Error(problem);
  const events: MemoryEvent[] = [updatedEvent(m, edit.flagged === undefined ? edit.patch : { ...edit.patch, flagged: edit.flagged }, reason, ctx)];
  const to = edit.demoteTo;
  if (to && LADDER.indexOf(to) < LADDER.indexOf(m.maturity)) {
    events.push({ type: 'demoted', id: m.id, at: ctx.now, from: m.maturity, to, reason: reason ? `${maskSecrets(reason)}: new text starts again at ${to}` : `new text starts again at ${to}` });
  }
  return events;
}

function updatedEvent(m: Memory, fields: Record<string, unknown>, reason: string | undefined, ctx: PlanContext): MemoryEvent {
  if (Array.isArray(fields.scope)) { const bad = scopeProblem(fields.scope as string[]); if (bad) throw new Error(bad); }
  const clean = maskRecord(sanitizeRecord(fields));
  return { type: 'updated', id: m.id, at: ctx.now, patch: clean, ...maskedReason(reason) };
}

/** A step up the user asked for; a constraint's check must be one the linear-time engine can run. */
export function planPromote(m: Memory, to: Maturity | undefined, reason: string | undefined, ctx: PlanContext): MemoryEvent[] {
  const plan = planManualPromotion(m, to);
  if (!plan.ok) throw new Error(plan.error);
  const problem = plan.transition.to === 'constraint' ? validateCheck(m.kind === 'lesson' ? m.check : undefined) : undefined;
  if (problem) throw new Error(problem);
  return [{ type: 'promoted', id: m.id, at: ctx.now, from: m.maturity, to: plan.transition.to, reason: reason ? maskSecrets(reason) : plan.transition.reason }];
}

export function planDemote(m: Memory, reason: string | undefined, ctx: PlanContext): MemoryEvent[] {
  const plan = planManualDemotion(m);
  if (!plan.ok) throw new Error(plan.error);
  return [{ type: 'demoted', id: m.id, at: ctx.now, from: m.maturity, to: plan.transition.to, reason: reason ? maskSecrets(reason) : plan.transition.reason }];
}

/**
 * Where and when a memory was seen before the feedback just recorded, for trust.differentContext:
 * its creation, the episodes behind it (their workspace, files and start), and the workspaces that had
 * already confirmed it. "Re-validated in a different context" means different from all of these.
 */
export function evidenceStamps(view: StoreView, m: Memory, workspace: string | undefined): ContextStamp[] {
  const stamps: ContextStamp[] = [{ workspace: m.owner?.workspace, at: m.createdAt }];
  if (m.kind !== 'lesson') return stamps;
  for (const id of m.evidence) {
    const e = view.get(id);
    if (!e) continue;
    const at = e.kind === 'episode' ? e.startedAt ?? e.createdAt : e.createdAt;
    const files = e.kind === 'episode' ? (e.files ?? []).slice(0, 50) : [];
    if (!files.length) stamps.push({ workspace: e.owner?.workspace, at });
    for (const file of files) stamps.push({ workspace: e.owner?.workspace, file, at });
  }
  for (const [ws, t] of Object.entries(m.perWorkspace ?? {})) {
    // The feedback just recorded is already in its workspace's tally: only earlier confirmations count.
    if (t.prevented - (ws === workspace ? 1 : 0) > 0) stamps.push({ workspace: ws, at: m.createdAt });
  }
  return stamps;
}

/** A user-typed reason lands in the log and the history view: it is masked like every other text. */
export function maskedReason(reason: string | undefined): { reason?: string } {
  return reason ? { reason: maskSecrets(reason) } : {};
}

function sameScope(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((g, i) => g === y[i]);
}
