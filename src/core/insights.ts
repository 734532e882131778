// Aggregates the memory log into the numbers the Insights view draws. Pure: callers pass the memories,
// their history and "now", so the same inputs always give the same charts and tests need no clock.
import type { HistoryEntry, Maturity, Memory, Outcome } from './types';

export const OUTCOMES: readonly Outcome[] = ['success', 'partial', 'failure', 'abandoned'];
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export interface WeekBucket {
  /** Monday 00:00 UTC of the week, epoch ms. */
  weekStart: number;
  counts: Record<Outcome, number>;
}

export interface SignatureCount {
  signature: string;
  /** Human-readable label: the lesson's error text when known, else the signature itself. */
  label: string;
  /** Episodes seen with this signature (or the lesson's evidence count when episodes were pruned). */
  count: number;
}

export interface PromotionPoint {
  at: number;
  /** Promotions so far (cumulative), after this one. */
  total: number;
  to: Maturity;
}

export interface TimeSavedRow {
  signature: string;
  label: string;
  prevented: number;
  /** Median duration of this signature's episodes; undefined when none had a duration. */
  medianMs?: number;
}

export interface InsightsData {
  now: number;
  totals: { memories: number; episodes: number; lessons: number; rules: number; facts: number; constraints: number };
  weeks: WeekBucket[];
  signatures: SignatureCount[];
  promotions: PromotionPoint[];
  timeSaved: {
    totalMs: number;
    prevented: number;
    /** Prevented outcomes whose signature had no timed episode, so they add nothing to totalMs. */
    unestimated: number;
    rows: TimeSavedRow[];
  };
}

export interface InsightsInput {
  memories: readonly Memory[];
  history: (id: string) => readonly HistoryEntry[];
  now: number;
  /** How many weeks the outcome chart covers, ending with the current week. */
  weeks?: number;
  /** How many signatures the recurrence chart lists. */
  topSignatures?: number;
}

/** Monday 00:00 UTC of the week containing `t`. */
export function weekStart(t: number): number {
  const d = new Date(t);
  const day = (d.getUTCDay() + 6) % 7; // Monday = 0
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
}

export function median(values: readonly number[]): number | undefined {
  if (!values.length) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function emptyCounts(): Record<Outcome, number> {
  return { success: 0, partial: 0, failure: 0, abandoned: 0 };
}

function firstLine(s: string): string {
  const line = s.split('\n').find(l => l.trim())?.trim() ?? '';
  return line.length > 100 ? line.slice(0, 99) + '…' : line;
}

/** The signature's readable part: keys look like "tsc:TS2322:type <str> is not …". */
function signatureLabel(sig: string): string {
  const parts = sig.split(':');
  return parts.length > 2 ? `${parts[1]}: ${parts.slice(2).join(':')}` : sig;
}

export function computeInsights(input: InsightsInput): InsightsData {
  const { memories, history, now } = input;
  const weekCount = Math.max(1, input.weeks ?? 12);
  const top = Math.max(1, input.topSignatures ?? 8);

  const episodes = memories.filter((m): m is Extract<Memory, { kind: 'episode' }> => m.kind === 'episode');
  const lessons = memories.filter((m): m is Extract<Memory, { kind: 'lesson' }> => m.kind === 'lesson');

  // Episodes per week by outcome, including empty weeks so the bars keep a steady time axis.
  const lastWeek = weekStart(now);
  const firstWeek = lastWeek - (weekCount - 1) * WEEK_MS;
  const weeks: WeekBucket[] = [];
  for (let w = firstWeek; w <= lastWeek; w += WEEK_MS) weeks.push({ weekStart: w, counts: emptyCounts() });
  for (const e of episodes) {
    const w = weekStart(e.startedAt);
    if (w < firstWeek || w > lastWeek) continue;
    const bucket = weeks[Math.round((w - firstWeek) / WEEK_MS)];
    if (bucket && OUTCOMES.includes(e.outcome)) bucket.counts[e.outcome]++;
  }

  // Recurrence and durations by signature.
  const labels = new Map<string, string>();
  const episodeCount = new Map<string, number>();
  const durations = new Map<string, number[]>();
  for (const l of lessons) {
    if (l.errorSignature && !labels.has(l.errorSignature)) labels.set(l.errorSignature, firstLine(l.errorText || '') || signatureLabel(l.errorSignature));
  }
  for (const e of episodes) {
    const sig = e.errorSignature;
    if (!sig) continue;
    episodeCount.set(sig, (episodeCount.get(sig) ?? 0) + 1);
    const d = e.duration ?? (e.endedAt !== undefined ? e.endedAt - e.startedAt : undefined);
    if (d !== undefined && Number.isFinite(d) && d > 0) {
      const list = durations.get(sig) ?? [];
      list.push(d);
      durations.set(sig, list);
    }
    if (!labels.has(sig)) labels.set(sig, firstLine(e.trigger || '') || signatureLabel(sig));
  }
  const recurrence = new Map(episodeCount);
  for (const l of lessons) {
    // Old episodes may have been cleaned up while the lesson kept their ids as evidence.
    if (l.errorSignature) recurrence.set(l.errorSignature, Math.max(recurrence.get(l.errorSignature) ?? 0, l.evidence.length));
  }
  const signatures = [...recurrence.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([signature, count]) => ({ signature, count, label: labels.get(signature) ?? signatureLabel(signature) }));

  // Promotions over time, from every memory's history.
  const promotionEvents: { at: number; to: Maturity }[] = [];
  const preventedBySig = new Map<string, number>();
  let prevented = 0;
  let unestimated = 0;
  for (const m of memories) {
    const sig = m.kind === 'lesson' || m.kind === 'episode' ? m.errorSignature : undefined;
    for (const h of history(m.id)) {
      if (h.type === 'promoted') {
        promotionEvents.push({ at: h.at, to: h.to });
      } else if (h.type === 'feedback') {
        // A verdict that replaces an automatic outcome takes that one back: one recurrence counts once.
        const n = (h.outcome === 'prevented' ? 1 : 0) - (h.replaces === 'prevented' ? 1 : 0);
        if (!n) continue;
        prevented += n;
        if (sig) preventedBySig.set(sig, (preventedBySig.get(sig) ?? 0) + n);
        else unestimated += n;
      }
    }
  }
  promotionEvents.sort((a, b) => a.at - b.at);
  const promotions = promotionEvents.map((p, i) => ({ at: p.at, to: p.to, total: i + 1 }));

  // Time saved: each prevented outcome is worth the median time this signature used to cost.
  let totalMs = 0;
  const rows: TimeSavedRow[] = [];
  for (const [signature, n] of preventedBySig) {
    if (n <= 0) continue;
    const medianMs = median(durations.get(signature) ?? []);
    if (medianMs === undefined) unestimated += n;
    else totalMs += n * medianMs;
    rows.push({ signature, label: labels.get(signature) ?? signatureLabel(signature), prevented: n, medianMs });
  }
  rows.sort((a, b) => (b.prevented * (b.medianMs ?? 0)) - (a.prevented * (a.medianMs ?? 0)) || b.prevented - a.prevented);

  return {
    now,
    totals: {
      memories: memories.length,
      episodes: episodes.length,
      lessons: lessons.length,
      rules: memories.filter(m => m.kind === 'rule').length,
      facts: memories.filter(m => m.kind === 'fact').length,
      constraints: memories.filter(m => m.maturity === 'constraint').length,
    },
    weeks,
    signatures,
    promotions,
    timeSaved: { totalMs, prevented, unestimated, rows: rows.slice(0, top) },
  };
}
