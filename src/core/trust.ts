// Trust: a Beta posterior per memory and the promotion ladder observation → pattern → rule → constraint.
// Every step has an explicit trigger and a reason a person can read. Gates use a *lower* credible bound,
// so a couple of lucky outcomes never pass for a rule. Pure: the store calls these after feedback and
// evidence events and appends the promoted/demoted events they return.
import type { Confidence, FeedbackOutcome, Lesson, Maturity, Memory } from './types';
import { legacyWorkspaceName, sameWorkspace } from './workspaceId';
import { sameProblem } from './capture/sameProblem';

/** Weak prior: one pseudo-success and one pseudo-failure. */
export const PRIOR: Confidence = Object.freeze({ alpha: 1, beta: 1 }) as Confidence;

/** One-sided 95% normal quantile, the default width of the lower bound. */
export const DEFAULT_Z = 1.645;
/** observation → pattern: the same signature fixed the same way at least this many times. */
export const PATTERN_MIN_EVIDENCE = 2;
/** pattern → rule: the lower bound must reach this (with the prior, 3 clean `prevented` do; 2 do not). */
export const RULE_MIN_LOWER_BOUND = 0.5;
/** "Another week": re-validated at least this long after the first evidence. */
export const REVALIDATION_MIN_GAP_MS = 7 * 24 * 60 * 60 * 1000;
/** pattern → observation: at least this many `still_failed` and more failures than successes. */
export const PATTERN_DEMOTE_MIN_FAILURES = 2;
/** constraint → rule: a user's gate is only taken back after this many failures outweigh successes. */
export const CONSTRAINT_DEMOTE_MIN_FAILURES = 3;

export const LADDER: readonly Maturity[] = ['observation', 'pattern', 'rule', 'constraint'];

export function mean(c: Confidence): number {
  const n = c.alpha + c.beta;
  return n > 0 ? c.alpha / n : 0.5;
}

/**
 * Lower credible bound of the Beta(α, β) posterior by its normal approximation, clipped to [0, 1].
 * With the (1,1) prior: 2 successes → 0.43, 3 → 0.53, 5 → 0.65; one failure among 4 → 0.37.
 */
export function lowerBound(c: Confidence, z = DEFAULT_Z): number {
  const a = Math.max(c.alpha, 1e-9);
  const b = Math.max(c.beta, 1e-9);
  const n = a + b;
  const m = a / n;
  const sd = Math.sqrt((a * b) / (n * n * (n + 1)));
  return Math.min(1, Math.max(0, m - z * sd));
}

/** Posterior after one more outcome (the reducer does the same when it folds a feedback event). */
export function update(c: Confidence, outcome: FeedbackOutcome): Confidence {
  return outcome === 'prevented' ? { alpha: c.alpha + 1, beta: c.beta } : { alpha: c.alpha, beta: c.beta + 1 };
}

/** Observed (non-prior) outcomes. */
export function outcomeCounts(c: Confidence): { prevented: number; stillFailed: number } {
  return { prevented: Math.max(0, c.alpha - PRIOR.alpha), stillFailed: Math.max(0, c.beta - PRIOR.beta) };
}

export interface Transition { to: Maturity; reason: string; kind: 'promoted' | 'demoted' }

/** Where and when a memory was seen or confirmed. */
export interface ContextStamp { workspace?: string; file?: string; at: number }

/** What the store knows about the event that triggered an evaluation. */
export interface PromotionContext {
  now: number;
  /** The feedback just recorded, if the evaluation follows a feedback event. */
  outcome?: FeedbackOutcome;
  /** Workspace id where the feedback came from. */
  workspace?: string;
  /** Workspace-relative file the feedback was about. */
  file?: string;
  /** Where the memory's evidence was seen. Defaults to its creation (owner.workspace, createdAt). */
  evidence?: ContextStamp[];
}

interface Tally { prevented: number; stillFailed: number }

function rawTallies(m: Memory): [string, Tally][] {
  return m.kind === 'lesson' && m.perWorkspace ? Object.entries(m.perWorkspace) : [];
}

function add(a: Tally | undefined, b: Tally): Tally {
  return { prevented: (a?.prevented ?? 0) + b.prevented, stillFailed: (a?.stillFailed ?? 0) + b.stillFailed };
}

/**
 * One tally per workspace. Evidence from before workspace ids carried a hash is keyed by the bare folder
 * name; it is folded into the id that carries that name (core/workspaceId.ts), so a folder's old and new
 * outcomes are one workspace, not two that might "disagree" or count as two confirmations.
 */
function tallies(m: Memory): [string, Tally][] {
  const raw = rawTallies(m);
  const out = new Map<string, Tally>();
  for (const [w, t] of raw) {
    const carrier = raw.map(([k]) => k).filter(k => legacyWorkspaceName(k) === w).sort()[0];
    const key = carrier ?? w;
    out.set(key, add(out.get(key), t));
  }
  return [...out];
}

/** This workspace's own tally: its id's and its legacy name's, or undefined when it has none. */
function ownTally(m: Memory, workspace: string): Tally | undefined {
  let own: Tally | undefined;
  for (const [w, t] of rawTallies(m)) if (sameWorkspace(w, workspace)) own = add(own, t);
  return own;
}

function leaning(t: Tally): -1 | 0 | 1 {
  return t.prevented > t.stillFailed ? 1 : t.prevented < t.stillFailed ? -1 : 0;
}

/** True when one workspace mostly confirms the memory and another mostly refutes it. */
export function workspacesDisagree(m: Memory): boolean {
  const leans = new Set(tallies(m).map(([, t]) => leaning(t)));
  return leans.has(1) && leans.has(-1);
}

/**
 * Confidence used for gating in `workspace`. Outcomes of projects that disagree are never averaged:
 * when they conflict, the workspace's own tally (on the prior) decides; a workspace with no tally of its
 * own gets the most pessimistic one, so a disputed memory proves itself here before it is trusted here.
 */
export function effectiveConfidence(m: Memory, workspace?: string): Confidence {
  if (!workspacesDisagree(m)) return m.confidence;
  const all = tallies(m);
  const own = workspace !== undefined ? ownTally(m, workspace) : undefined;
  const pick = own ?? all.map(([, t]) => t).sort((x, y) => mean(fromTally(x)) - mean(fromTally(y)))[0];
  return fromTally(pick);
}

/** The confidence ranking uses for a memory in `workspace` (recall.ts): every surface shows this one. */
export function workspaceConfidence(m: Memory, workspace?: string): number {
  return mean(effectiveConfidence(m, workspace));
}

function fromTally(t: Tally): Confidence {
  return { alpha: PRIOR.alpha + t.prevented, beta: PRIOR.beta + t.stillFailed };
}

/** Which workspaces confirmed or refuted a memory (for display). */
export function workspaceEvidence(m: Memory): { workspace: string; prevented: number; stillFailed: number; verdict: 'confirmed' | 'refuted' | 'mixed' }[] {
  return tallies(m)
    .map(([workspace, t]) => ({ workspace, ...t, verdict: leaning(t) > 0 ? 'confirmed' as const : leaning(t) < 0 ? 'refuted' as const : 'mixed' as const }))
    .sort((a, b) => a.workspace.localeCompare(b.workspace));
}

function pct(x: number): string { return `${Math.round(x * 100)}%`; }

function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '' : file.slice(0, i);
}

/** Why the current context differs from every earlier one, or undefined when it does not. */
export function differentContext(m: Memory, ctx: PromotionContext): string | undefined {
  const stamps = ctx.evidence?.length ? ctx.evidence : [{ workspace: m.owner.workspace, at: m.createdAt }];
  if (ctx.workspace && stamps.every(s => s.workspace !== undefined && !sameWorkspace(s.workspace, ctx.workspace))) {
    return `confirmed in another workspace (${ctx.workspace})`;
  }
  const confirming = tallies(m).filter(([, t]) => t.prevented > 0).map(([w]) => w);
  if (confirming.length >= 2) return `confirmed in ${confirming.length} workspaces`;
  if (ctx.file) {
    const dir = dirOf(ctx.file);
    const files = stamps.map(s => s.file).filter((f): f is string => !!f);
    if (files.length && files.every(f => dirOf(f) !== dir)) return `confirmed in another place (${ctx.file})`;
  }
  const first = Math.min(...stamps.map(s => s.at));
  if (Number.isFinite(first) && ctx.now - first >= REVALIDATION_MIN_GAP_MS) {
    const days = Math.floor((ctx.now - first) / 86_400_000);
    return `confirmed again ${days} days after it was first seen`;
  }
  return undefined;
}

/**
 * The one automatic step up the ladder this memory has earned, if any. Never promotes to constraint:
 * that takes a user and a check (see planManualPromotion).
 */
export function evaluatePromotion(m: Memory, ctx: PromotionContext): Transition | undefined {
  if (m.kind !== 'lesson' || m.deleted || m.quarantined) return undefined;
  // An unexplained lesson says nothing to follow: it never climbs.
  if (m.unexplained) return undefined;
  if (m.maturity === 'observation') {
    if (m.evidence.length < PATTERN_MIN_EVIDENCE) return undefined;
    if (ctx.outcome === 'still_failed') return undefined;
    return {
      to: 'pattern', kind: 'promoted',
      reason: `the same error was resolved the same way ${m.evidence.length} times`,
    };
  }
  if (m.maturity === 'pattern') {
    if (ctx.outcome !== 'prevented') return undefined;
    // Instruction-like text never becomes an instruction.
    if (m.flagged?.length) return undefined;
    const where = differentContext(m, ctx);
    if (!where) return undefined;
    const lb = lowerBound(effectiveConfidence(m, ctx.workspace));
    if (lb < RULE_MIN_LOWER_BOUND) return undefined;
    return { to: 'rule', kind: 'promoted', reason: `prevented the error again: ${where}; confidence at least ${pct(lb)}` };
  }
  return undefined;
}

/** The one step down the ladder that `still_failed` outcomes have forced, if any. */
export function evaluateDemotion(m: Memory, workspace?: string): Transition | undefined {
  if (m.deleted) return undefined;
  const c = effectiveConfidence(m, workspace);
  const { prevented, stillFailed } = outcomeCounts(c);
  if (stillFailed === 0) return undefined; // only failures take trust away
  switch (m.maturity) {
    case 'constraint':
      if (stillFailed >= CONSTRAINT_DEMOTE_MIN_FAILURES && stillFailed > prevented) {
        return { to: 'rule', kind: 'demoted', reason: `the error still happened ${stillFailed} times despite the constraint` };
      }
      return undefined;
    case 'rule': {
      const lb = lowerBound(c);
      if (lb < RULE_MIN_LOWER_BOUND) {
        return { to: 'pattern', kind: 'demoted', reason: `still failed ${stillFailed} of ${stillFailed + prevented} times; confidence fell to ${pct(lb)} (below ${pct(RULE_MIN_LOWER_BOUND)})` };
      }
      return undefined;
    }
    case 'pattern':
      if (stillFailed >= PATTERN_DEMOTE_MIN_FAILURES && stillFailed > prevented) {
        return { to: 'observation', kind: 'demoted', reason: `the fix did not help ${stillFailed} times (helped ${prevented})` };
      }
      return undefined;
    case 'observation':
      return undefined;
  }
}

const STOPWORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'then', 'was', 'are', 'use', 'using', 'instead', 'of', 'to', 'a', 'an', 'in', 'on', 'it', 'is']);

// Word sets of recent fix texts: finding a repeated lesson compares one fix with the same recent ones again
// and again (core/lessonDedup.ts), and splitting the text was most of that cost. Callers never mutate them.
const fixWordsCache = new Map<string, Set<string>>();
const FIX_WORDS_CACHE_MAX = 4096;

export function fixWords(s: string): Set<string> {
  const key = s || '';
  let set = fixWordsCache.get(key);
  if (set) return set;
  const words = key.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}_.@/-]+/gu) ?? [];
  set = new Set(words.map(w => w.replace(/^[.\-/]+|[.\-/]+$/g, '')).filter(w => w.length >= 2 && !STOPWORDS.has(w)));
  if (key.length <= 4096) {
    if (fixWordsCache.size >= FIX_WORDS_CACHE_MAX) fixWordsCache.clear();
    fixWordsCache.set(key, set);
  }
  return set;
}

/** Token overlap of two fix descriptions (Jaccard over meaning-carrying words). */
export function fixSimilarity(a: string, b: string): number {
  const x = fixWords(a);
  const y = fixWords(b);
  if (!x.size && !y.size) return 1;
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return inter / (x.size + y.size - inter);
}

export const SAME_FIX_MIN_SIMILARITY = 0.5;

/** Same normalised signature fixed the same way: the second one is evidence on the first, not a copy. */
export function isDuplicateLesson(a: Lesson, b: Lesson): boolean {
  if (!a.errorSignature || a.errorSignature !== b.errorSignature) return false;
  // The same error about another test, module or type is another problem, whatever fixed it.
  if (!sameProblem({ key: a.errorSignature, message: a.errorText ?? '' }, { key: b.errorSignature, message: b.errorText ?? '' })) return false;
  // Nothing explains an unexplained lesson: it cannot be "fixed the same way" as anything.
  if (a.unexplained || b.unexplained) return false;
  // Captured lessons know what fixed them (the same commands or the same changed lines): merge only on
  // that, never on shared template words ("Edit …", "the error is gone").
  if (a.fixKey || b.fixKey) return a.fixKey === b.fixKey;
  const fa = (a.fixApproach || '').trim();
  const fb = (b.fixApproach || '').trim();
  if (!fa || !fb) return !fa && !fb;
  return fixSimilarity(fa, fb) >= SAME_FIX_MIN_SIMILARITY;
}

/**
 * Highest maturity a memory from a team file may have (never a rule or a constraint; above observation
 * only with evidence). Applied when the file is parsed, when its lines enter the store, and when a changed
 * line updates a memory already loaded: a team file is reviewed text, not a trusted backup.
 */
export function teamMaturityCap(m: Memory): Maturity {
  if (m.maturity === 'observation') return 'observation';
  return m.kind === 'lesson' && m.evidence.length >= PATTERN_MIN_EVIDENCE ? 'pattern' : 'observation';
}

/**
 * Problem with the shape of a constraint check (a glob and a pattern), in words. Whether the pattern can
 * run is decided in core/checkPattern.ts (validateCheck), which the store applies on promotion: this
 * module stays free of the regex engine, so the extension's entry bundle does not carry it.
 */
export function checkShapeProblem(check: { glob?: unknown; pattern?: unknown; flags?: unknown } | undefined): string | undefined {
  if (!check) return 'a constraint needs a check (a file glob and a pattern)';
  if (typeof check.glob !== 'string' || !check.glob.trim()) return 'the check needs a file glob, e.g. src/**/*.ts';
  if (typeof check.pattern !== 'string' || !check.pattern) return 'the check needs a regular expression';
  const flags = check.flags === undefined ? '' : check.flags;
  if (typeof flags !== 'string' || !/^[imsu]*$/.test(flags)) return 'flags may only contain i, m, s, u';
  return undefined;
}

/**
 * A step the user asked for (engram.promote / engram.makeConstraint). Users may skip the evidence gates
 * up to rule; constraint still needs a rule and a valid check, because it raises warnings in files.
 */
export function planManualPromotion(m: Memory, to?: Maturity): { ok: true; transition: Transition } | { ok: false; error: string } {
  const i = LADDER.indexOf(m.maturity);
  const target = to ?? LADDER[i + 1];
  if (!target) return { ok: false, error: 'already a constraint, the top of the ladder' };
  const j = LADDER.indexOf(target);
  if (j <= i) return { ok: false, error: `already ${m.maturity}` };
  if (target === 'constraint') {
    if (m.kind !== 'lesson') return { ok: false, error: 'only lessons can become constraints' };
    if (m.maturity !== 'rule') return { ok: false, error: 'only a rule can become a constraint' };
    const problem = checkShapeProblem(m.check);
    if (problem) return { ok: false, error: problem };
    return { ok: true, transition: { to: 'constraint', kind: 'promoted', reason: `made a constraint by the user (check ${m.check!.glob})` } };
  }
  if (m.flagged?.length && j >= LADDER.indexOf('rule')) {
    return { ok: false, error: `its text looks like an instruction to the agent (${m.flagged.join('; ')}); it stays data` };
  }
  return { ok: true, transition: { to: target, kind: 'promoted', reason: 'promoted by the user' } };
}

/** One step down, as the user asked. */
export function planManualDemotion(m: Memory): { ok: true; transition: Transition } | { ok: false; error: string } {
  const i = LADDER.indexOf(m.maturity);
  if (i <= 0) return { ok: false, error: 'already an observation, the bottom of the ladder' };
  return { ok: true, transition: { to: LADDER[i - 1], kind: 'demoted', reason: 'demoted by the user' } };
}
