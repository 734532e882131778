// Pattern extraction: episodes of the same domain and error family that keep ending for the same reason
// become one pattern candidate, with the action that worked and the episode ids as its evidence.
// Deterministic: the same episodes (in any order) give the same candidates.
import { narrowestGlobs } from './scope';
import { normaliseSignature } from './signature';
import { PRIOR } from './trust';
import { isAutomaticResolution } from './resolution';
import type { Episode, Lesson, Owner } from './types';

export interface PatternCandidate {
  /** Stable key: domain | family | the cause's leading words. */
  key: string;
  domain: string;
  family: string;
  /** The recurring cause, as the episodes put it. */
  cause: string;
  /** What resolved it most often in successful episodes. */
  recommendedAction: string;
  /** Actions that were tried and did not help in at least two episodes. */
  avoid: string[];
  /** Episode ids, oldest first. */
  evidence: string[];
  /** Share of the group's episodes that ended in success. */
  successRate: number;
  /** Most common error signature in the group. */
  errorSignature?: string;
  /** Workspace-relative files the episodes touched. */
  files: string[];
  /** The fix the episodes share, when they were grouped by it: the captured lesson it repeats has it too. */
  fixKey?: string;
}

/** Causes whose word overlap reaches this are "the same cause". */
export const SAME_CAUSE_MIN_SIMILARITY = 0.3;

const STOP = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'then', 'was', 'were', 'are', 'had', 'has', 'have', 'not', 'but', 'its', 'it', 'to', 'of', 'in', 'on', 'a', 'an', 'is', 'be', 'by', 'at', 'or', 'as', 'fixed', 'fix', 'error']);

function words(s: string): Set<string> {
  const ws = (s || '').toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}_@./-]+/gu) ?? [];
  return new Set(ws.map(w => w.replace(/^[./-]+|[./-]+$/g, '')).filter(w => w.length > 1 && !STOP.has(w)));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Error family of an episode, re-derived from its signature key ("tool:code:text"). */
export function episodeFamily(e: Episode): string {
  const key = e.errorSignature;
  if (!key) return `${e.domain ?? 'generic'}:other`;
  let family = familyCache.get(key);
  if (family === undefined) {
    const [tool, code, ...rest] = key.split(':');
    family = normaliseSignature(rest.join(':'), tool, code && code !== '-' ? code : undefined).family;
    if (familyCache.size > 10_000) familyCache.clear();
    familyCache.set(key, family);
  }
  return family;
}

const familyCache = new Map<string, string>();

function causeText(e: Episode): string {
  return e.lessonsLearned.filter(Boolean).join('. ');
}

/**
 * What fixed the episode, as observed (its fixAction: the commands run, the hunks changed). Never the
 * resolution ("the error is gone", "`cmd` passed") and never the re-run: those say nothing to do.
 */
function actionOf(e: Episode): string | undefined {
  if (e.fixAction?.trim()) return e.fixAction.trim();
  // An episode written by a person or a tool may say in its resolution what fixed it.
  if (!isAutomaticResolution(e.resolution)) return e.resolution!.trim();
  return undefined;
}

function normal(s: string): string { return s.toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '').trim(); }

/** The most frequent value (by normalised form), ties to the earliest; returns the first spelling seen. */
function mostCommon(values: string[]): string | undefined {
  const counts = new Map<string, { n: number; first: number; text: string }>();
  values.forEach((v, i) => {
    const k = normal(v);
    if (!k) return;
    const c = counts.get(k);
    if (c) c.n++; else counts.set(k, { n: 1, first: i, text: v });
  });
  return [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first)[0]?.text;
}

function order(a: Episode, b: Episode): number {
  return a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function extractPatterns(episodes: Episode[], minGroup = 3): PatternCandidate[] {
  const groups = new Map<string, Episode[]>();
  for (const e of [...episodes].filter(e => e.kind === 'episode' && !e.deleted).sort(order)) {
    const family = episodeFamily(e);
    const domain = e.domain ?? family.split(':')[0];
    const g = `${domain}|${family}`;
    const list = groups.get(g) ?? [];
    list.push(e);
    groups.set(g, list);
  }
  const out: PatternCandidate[] = [];
  for (const [g, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (list.length < minGroup) continue;
    const [domain, family] = g.split('|');
    // Greedy clustering in time order against each cluster's first cause: stable and explainable.
    const clusters: { seed: Set<string>; members: Episode[]; fixKey?: string }[] = [];
    // Episodes that were fixed the same way (same commands, same kind of change) group by that fix;
    // the others by the words of their cause.
    const byFix = new Map<string, { seed: Set<string>; members: Episode[]; fixKey?: string }>();
    for (const e of list) {
      if (e.fixKey) {
        const c = byFix.get(e.fixKey);
        if (c) c.members.push(e);
        else { const nc = { seed: new Set<string>(), members: [e], fixKey: e.fixKey }; byFix.set(e.fixKey, nc); clusters.push(nc); }
        continue;
      }
      const w = words(causeText(e));
      const home = clusters.find(c => c.seed.size && jaccard(c.seed, w) >= SAME_CAUSE_MIN_SIMILARITY);
      if (home) home.members.push(e); else clusters.push({ seed: w, members: [e] });
    }
    for (const c of clusters) {
      if (c.members.length < minGroup) continue;
      const succeeded = c.members.filter(e => e.outcome === 'success' || e.outcome === 'partial');
      const action = mostCommon(succeeded.map(actionOf).filter((a): a is string => !!a));
      if (!action) continue; // nothing worked yet: no advice to give
      const cause = mostCommon(c.members.flatMap(e => e.lessonsLearned)) ?? mostCommon(c.members.map(causeText)) ?? action;
      const failedActions = c.members.flatMap(e => e.steps.filter(s => s.wasEffective === false).map(s => s.action));
      const avoidCounts = new Map<string, { n: number; text: string }>();
      for (const a of failedActions) {
        const k = normal(a);
        const cur = avoidCounts.get(k);
        if (cur) cur.n++; else avoidCounts.set(k, { n: 1, text: a });
      }
      const avoid = [...avoidCounts.values()].filter(x => x.n >= 2 && normal(x.text) !== normal(action)).map(x => x.text);
      const leading = [...words(cause)].slice(0, 6).join(' ');
      out.push({
        key: `${domain}|${family}|${leading}`,
        domain, family, cause, recommendedAction: action, avoid,
        evidence: c.members.map(e => e.id),
        successRate: succeeded.filter(e => e.outcome === 'success').length / c.members.length,
        errorSignature: mostCommon(c.members.map(e => e.errorSignature ?? '').filter(Boolean)),
        files: [...new Set(c.members.flatMap(e => e.files))].sort(),
        ...(c.fixKey ? { fixKey: c.fixKey } : {}),
      });
    }
  }
  return out.sort((a, b) => b.evidence.length - a.evidence.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** A lesson at `pattern` maturity for a candidate (the store records it; trust still has to be earned). */
export function patternLesson(c: PatternCandidate, base: { id: string; now: number; owner: Owner }): Lesson {
  return {
    id: base.id, kind: 'lesson', owner: base.owner, createdAt: base.now, updatedAt: base.now, accessCount: 0,
    importance: Math.min(1, 0.4 + 0.1 * c.evidence.length), source: 'captured', tags: ['pattern', c.domain],
    scope: narrowestGlobs(c.files), confidence: { ...PRIOR }, maturity: 'pattern',
    errorSignature: c.errorSignature ?? `${c.family}:pattern`, errorText: c.cause, errorCategory: c.family,
    stack: [c.domain], rootCause: c.cause,
    fixApproach: c.avoid.length ? `${c.recommendedAction} (did not help: ${c.avoid.join('; ')})` : c.recommendedAction,
    evidence: [...c.evidence], outcome: 'success',
    // With the fix's identity it merges into the lesson those episodes already made (writePlan.sameLesson),
    // growing its evidence and scope, instead of standing beside it.
    ...(c.fixKey ? { fixKey: c.fixKey } : {}),
  };
}
