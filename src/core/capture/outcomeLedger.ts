// Which memories an episode gives an automatic outcome, and how that meets the user's own word, decided
// once for every surface. A memory shown while an error is being fixed earns `prevented` when it is fixed
// (and `still_failed` when it comes back), but only a memory about that error (its own signature: a
// lesson about TS2322 says nothing about a TS2353 fixed next to it), and the user's verdict on a
// recurrence is final: a memory the user judged during the episode gets no automatic outcome for it,
// and a verdict given just after one replaces it, so one recurrence counts once. Pure: the window's
// services hold one ledger, capture asks it and the store writes what it decides.
import { memorySignatures } from '../memoryText';
import type { FeedbackOutcome, Memory } from '../types';

/** How long after an automatic outcome the user's verdict still speaks of the same recurrence. */
export const SAME_RECURRENCE_MS = 15 * 60_000;
const MAX_SHOWN = 2000;

interface Shown { id: string; file?: string; at: number }
interface Judged { outcome: FeedbackOutcome; at: number }

export class OutcomeLedger {
  private readonly shown: Shown[] = [];
  private readonly verdicts = new Map<string, Judged>();
  private readonly automatic = new Map<string, Judged>();

  /** A surface showed these memories (for `file`, when it is about one). */
  noteShown(ids: readonly string[], file: string | undefined, at: number): void {
    for (const id of ids) this.shown.push({ id, file, at });
    if (this.shown.length > MAX_SHOWN) this.shown.splice(0, this.shown.length - MAX_SHOWN / 2);
  }

  /** Ids of memories shown since `since` (for `file` when given). */
  shownSince(since: number, file?: string): string[] {
    const ids = new Set<string>();
    for (const s of this.shown) if (s.at >= since && (!file || !s.file || s.file === file)) ids.add(s.id);
    return [...ids];
  }

  /**
   * Memories that may get an automatic outcome for an episode that began at `since` in `file`: shown
   * since then and not judged by the user since then (the user's word is final for that recurrence).
   * Whether the outcome applies is then `appliesTo` on the memory itself.
   */
  candidates(since: number, file?: string): string[] {
    return this.shownSince(since, file).filter(id => !this.userJudgedSince(id, since));
  }

  /** Has the user judged the memory since `since`? Then no automatic outcome is written for that recurrence. */
  userJudgedSince(id: string, since: number): boolean {
    return (this.verdicts.get(id)?.at ?? -Infinity) >= since;
  }

  /** An automatic outcome was written: a verdict the user gives soon after replaces it. */
  recordedAutomatic(id: string, outcome: FeedbackOutcome, at: number): void {
    this.automatic.set(id, { outcome, at });
    this.trim(this.automatic);
  }

  /**
   * The user's verdict on a memory. Returns the automatic outcome of the same recurrence it replaces
   * (written in the last SAME_RECURRENCE_MS and not replaced yet), which the store then takes back.
   */
  userVerdict(id: string, outcome: FeedbackOutcome, at: number): FeedbackOutcome | undefined {
    this.verdicts.set(id, { outcome, at });
    this.trim(this.verdicts);
    const auto = this.automatic.get(id);
    if (!auto || at - auto.at > SAME_RECURRENCE_MS) return undefined;
    this.automatic.delete(id);
    return auto.outcome;
  }

  private trim(map: Map<string, Judged>): void {
    if (map.size > MAX_SHOWN) map.delete(map.keys().next().value as string);
  }
}

/** An automatic outcome for an error applies to a memory only when the memory is about that error. */
export function appliesTo(m: Memory | undefined, errorKey: string | undefined): boolean {
  return !!m && !!errorKey && memorySignatures(m).includes(errorKey);
}
