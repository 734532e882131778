// Expiry and cleanup policy: what to let go of, and why. Pure; the store turns candidates into `expired`
// events, so deletion propagates from the log to every derived copy.
import type { Memory } from './types';

const DAY = 86_400_000;

export interface CleanupPolicy {
  /** Unused for this many days → expired. 0 disables the retention rule. */
  ttlDays: number;
  /** The low-value rule only looks at memories older than this. */
  minAgeDays?: number;
  /** …recalled fewer times than this… */
  minAccesses?: number;
  /** …and less important than this. */
  minImportance?: number;
}

export interface CleanupCandidate { id: string; reason: string }

function day(t: number): string { return new Date(t).toISOString().slice(0, 10); }

/**
 * Memories to expire at `now`, each with a reason. Pinned memories never; constraints never by age
 * (a user made them gates), only by an explicit `expiresAt`. Deterministic and ordered by id.
 */
export function cleanupCandidates(memories: Iterable<Memory>, now: number, policy: CleanupPolicy): CleanupCandidate[] {
  const minAgeDays = policy.minAgeDays ?? 90;
  const minAccesses = policy.minAccesses ?? 2;
  const minImportance = policy.minImportance ?? 0.3;
  const out: CleanupCandidate[] = [];
  for (const m of memories) {
    if (m.deleted || m.pinned) continue;
    if (m.expiresAt !== undefined && m.expiresAt <= now) {
      out.push({ id: m.id, reason: `expired on ${day(m.expiresAt)}` });
      continue;
    }
    if (m.maturity === 'constraint') continue;
    const lastUse = Math.max(m.lastAccessedAt ?? 0, m.updatedAt ?? 0, m.createdAt);
    const unusedDays = Math.floor((now - lastUse) / DAY);
    if (policy.ttlDays > 0 && unusedDays >= policy.ttlDays) {
      out.push({ id: m.id, reason: `not used for ${unusedDays} days (retention ${policy.ttlDays} days)` });
      continue;
    }
    const ageDays = Math.floor((now - m.createdAt) / DAY);
    // A superseded fact is history the newer one links to; it goes with the newer one, not on its own.
    if (m.kind === 'fact' && m.supersededBy) continue;
    if (ageDays >= minAgeDays && m.accessCount < minAccesses && m.importance < minImportance) {
      out.push({ id: m.id, reason: `older than ${minAgeDays} days, recalled ${m.accessCount} time${m.accessCount === 1 ? '' : 's'}, importance ${m.importance.toFixed(2)}` });
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
