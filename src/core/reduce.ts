// Folds the canonical event log into current state. Pure and deterministic: the same events in the same
// order always give the same memories, so every derived copy (index, caches, instruction files) can be
// rebuilt from the log at any time.
import { historyEntry, type HistoryEntry } from './history';
import type { Memory, MemoryEvent } from './types';

const MAX_HISTORY = 200;

/** Keys a patch may never set: identity, kind, and prototype-polluting names. */
const FORBIDDEN_PATCH_KEYS = new Set(['id', 'kind', '__proto__', 'constructor', 'prototype']);

export class MemoryState {
  private readonly memories = new Map<string, Memory>();
  private readonly histories = new Map<string, HistoryEntry[]>();
  /** Ids whose deletion or expiry has been applied (tombstones), so a late duplicate record is ignored. */
  private readonly tombstones = new Set<string>();
  private version = 0;

  /** Increments on every applied event; cheap change detection for derived caches. */
  get revision(): number { return this.version; }

  apply(ev: MemoryEvent): boolean {
    const changed = this.applyInner(ev);
    if (changed) {
      this.version++;
      this.pushHistory(ev);
    }
    return changed;
  }

  applyAll(events: Iterable<MemoryEvent>): void {
    for (const ev of events) this.apply(ev);
  }

  get(id: string): Memory | undefined { return this.memories.get(id); }
  has(id: string): boolean { return this.memories.has(id); }
  isTombstoned(id: string): boolean { return this.tombstones.has(id); }
  /** Live memories (not deleted/expired). */
  all(): Memory[] { return [...this.memories.values()]; }
  get size(): number { return this.memories.size; }
  history(id: string): HistoryEntry[] { return this.histories.get(id) ?? []; }
  tombstoneIds(): string[] { return [...this.tombstones]; }

  private applyInner(ev: MemoryEvent): boolean {
    if (ev.type === 'recorded') {
      if (this.tombstones.has(ev.id)) return false;
      this.memories.set(ev.id, { ...ev.memory, id: ev.id } as Memory);
      return true;
    }
    const m = this.memories.get(ev.id);
    if (!m) return false;
    if (ev.type === 'deleted' || ev.type === 'expired') {
      // The text goes with the memory: derived copies drop it, compaction drops it from disk.
      this.memories.delete(ev.id);
      this.tombstones.add(ev.id);
      return true;
    }
    const next = foldEvent(m, ev);
    if (!next) return false;
    this.memories.set(ev.id, next);
    return true;
  }

  private pushHistory(ev: MemoryEvent): void {
    const list = this.histories.get(ev.id) ?? [];
    list.push(historyEntry(ev));
    if (list.length > MAX_HISTORY) list.splice(0, list.length - MAX_HISTORY);
    this.histories.set(ev.id, list);
    if (ev.type === 'deleted' || ev.type === 'expired') this.histories.delete(ev.id);
  }
}

/**
 * One memory after one event that keeps it (not recorded, deleted or expired); undefined when the event
 * changes nothing. The state folds with it, and the write plan (core/writePlan.ts) folds its own events
 * with it to see what a promotion would be evaluated on.
 */
export function foldEvent(m: Memory, ev: Exclude<MemoryEvent, { type: 'recorded' | 'deleted' | 'expired' }>): Memory | undefined {
  switch (ev.type) {
    case 'updated': {
      const next: Record<string, unknown> = { ...m };
      for (const [k, v] of Object.entries(ev.patch)) {
        if (FORBIDDEN_PATCH_KEYS.has(k)) continue;
        if (v === null) delete next[k]; else next[k] = v;
      }
      next.updatedAt = ev.at;
      return next as unknown as Memory;
    }
    case 'feedback': {
      const confidence = { ...m.confidence };
      if (ev.outcome === 'prevented') confidence.alpha += 1; else confidence.beta += 1;
      // The user's verdict that replaces an automatic outcome takes that one back (never below the prior).
      if (ev.replaces === 'prevented') confidence.alpha = Math.max(1, confidence.alpha - 1);
      else if (ev.replaces === 'still_failed') confidence.beta = Math.max(1, confidence.beta - 1);
      const next = { ...m, confidence, updatedAt: ev.at } as Memory;
      if (next.kind === 'lesson' && ev.workspace) {
        const per = { ...(next.perWorkspace ?? {}) };
        let cur = per[ev.workspace] ?? { prevented: 0, stillFailed: 0 };
        if (ev.replaces === 'prevented') cur = { ...cur, prevented: Math.max(0, cur.prevented - 1) };
        else if (ev.replaces === 'still_failed') cur = { ...cur, stillFailed: Math.max(0, cur.stillFailed - 1) };
        per[ev.workspace] = ev.outcome === 'prevented'
          ? { ...cur, prevented: cur.prevented + 1 } : { ...cur, stillFailed: cur.stillFailed + 1 };
        next.perWorkspace = per;
      }
      return next;
    }
    case 'evidence':
      if (m.kind !== 'lesson' || m.evidence.includes(ev.evidenceId)) return undefined;
      return { ...m, evidence: [...m.evidence, ev.evidenceId], updatedAt: ev.at };
    case 'promoted':
    case 'demoted':
      return { ...m, maturity: ev.to, updatedAt: ev.at } as Memory;
    case 'accessed':
      return { ...m, accessCount: m.accessCount + (ev.count ?? 1), lastAccessedAt: ev.at } as Memory;
    case 'quarantined':
      return { ...m, quarantined: { reason: ev.reason, at: ev.at } } as Memory;
    case 'restored': {
      const next = { ...m } as Memory;
      delete next.quarantined;
      return next;
    }
  }
}
