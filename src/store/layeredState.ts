// The folded state of the log as MemoryState (core/reduce.ts) keeps it, over a persisted base (view.bin,
// read through viewFile.ts): memories the base holds are read when asked for; what the log said since the
// base was written is kept in memory on top (changed and new memories, removals, tombstones, history).
// Folding is MemoryState's own (foldEvent, the same tombstone and history rules), so a store opened from
// its view answers exactly as one that replayed the whole log. Without a base it is a MemoryState.
import { historyEntry } from '../core/history';
import { foldEvent } from '../core/reduce';
import type { HistoryEntry, Memory, MemoryEvent, MemoryKind } from '../core/types';
import { ViewDamagedError, type ViewFile } from './viewFile';

const MAX_HISTORY = 200;
/** Base memories parsed for recent reads, kept up to this many (a recall reads a few hundred). */
const MAX_CACHED = 5000;

export class LayeredState {
  /** Changed or new memories (a Memory), or base memories that left (null). New ones in the order recorded. */
  private readonly over = new Map<string, Memory | null>();
  private readonly tombs = new Set<string>();
  /** History entries of this session, after the base's. */
  private readonly hist = new Map<string, HistoryEntry[]>();
  private readonly cache = new Map<string, Memory>();
  /** Every live memory, once all() was asked for (long-lived processes list them often); kept in step. */
  private full?: Map<string, Memory>;
  private version: number;
  private live: number;

  /** `full`: every live memory, when the state this one replaces had them (a new base of the same content). */
  constructor(readonly base?: ViewFile, full?: Map<string, Memory>) {
    this.version = base?.revision ?? 0;
    this.live = base?.docs ?? 0;
    this.full = full;
  }

  /** Every live memory by id, when all() has been asked for (undefined otherwise). */
  materialized(): Map<string, Memory> | undefined { return this.full; }

  get revision(): number { return this.version; }
  get size(): number { return this.live; }
  /** Entries held in memory on top of the base (what the next view written would fold in). */
  get overlaySize(): number { return this.over.size; }

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

  get(id: string): Memory | undefined {
    const o = this.over.get(id);
    if (o !== undefined) return o ?? undefined;
    if (this.full) return this.full.get(id);
    const hit = this.cache.get(id);
    if (hit) return hit;
    const d = this.base ? this.base.docOf(id) : -1;
    if (d < 0) return undefined;
    const m = this.base!.record(d);
    if (!m) return undefined; // damaged: base.damage says so, and the store rebuilds
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(id, m);
    return m;
  }

  has(id: string): boolean {
    const o = this.over.get(id);
    if (o !== undefined) return o !== null;
    return !!this.base && this.base.docOf(id) >= 0;
  }

  isTombstoned(id: string): boolean {
    return this.tombs.has(id) || (!!this.base && this.base.isTombstoned(id));
  }

  /** Live memories in the order first recorded (as MemoryState.all). */
  all(): Memory[] {
    if (!this.full) {
      const full = new Map<string, Memory>();
      for (const m of this.iterate()) full.set(m.id, m);
      this.full = full;
      this.cache.clear();
    }
    return [...this.full.values()];
  }

  /** Live memories of these kinds, in order, reading only theirs from the base. */
  ofKinds(kinds: readonly MemoryKind[]): Memory[] {
    if (this.full) return [...this.full.values()].filter(m => kinds.includes(m.kind));
    return [...this.iterate(kinds)];
  }

  private *iterate(kinds?: readonly MemoryKind[]): IterableIterator<Memory> {
    const base = this.base;
    if (base) {
      const scan = base.scan();
      for (let d = 0; d < base.docs; d++) {
        const id = base.docId(d);
        const o = this.over.get(id);
        if (o === null) continue;
        if (o) { if (!kinds || kinds.includes(o.kind)) yield o; continue; }
        if (kinds && !kinds.includes(base.kind(d))) continue;
        const m = this.cache.get(id) ?? scan.record(d);
        if (m) yield m;
      }
    }
    for (const [id, m] of this.over) if (m && !(base && base.docOf(id) >= 0)) yield m;
  }

  history(id: string): HistoryEntry[] {
    const own = this.hist.get(id) ?? [];
    if (this.over.get(id) === null) return [];
    const d = this.base ? this.base.docOf(id) : -1;
    if (d < 0) return own;
    const all = [...this.base!.history(d), ...own];
    return all.length > MAX_HISTORY ? all.slice(-MAX_HISTORY) : all;
  }

  tombstoneIds(): string[] {
    const out = new Set(this.tombs);
    if (this.base) for (let i = 0; i < this.base.tombstoneCount; i++) out.add(this.base.tombstoneAt(i));
    return [...out];
  }

  /**
   * Live memories' JSON for a snapshot (snapshotFile.ts), in order, with whether each is past its expiry:
   * the ones the base holds unchanged as the bytes it stores (nothing parsed). Throws ViewDamagedError
   * when one of those fails its check.
   */
  *snapshotMemories(now: number): IterableIterator<{ id: string; json: string | Uint8Array; expired: boolean }> {
    const due = (at: number | undefined, pinned: boolean | undefined) => at !== undefined && at <= now && !pinned;
    const base = this.base;
    if (base) {
      const scan = base.scan();
      for (let d = 0; d < base.docs; d++) {
        const id = base.docId(d);
        const o = this.over.get(id);
        if (o === null) continue;
        if (o) { yield { id, json: JSON.stringify(o), expired: due(o.expiresAt, o.pinned) }; continue; }
        const raw = scan.rawRecord(d);
        if (!raw) throw new ViewDamagedError(base.damage ?? `memory ${d} of the view is damaged`);
        yield { id, json: raw, expired: due(base.expiresAt(d), base.pinned(d)) };
      }
    }
    for (const m of this.added()) yield { id: m.id, json: JSON.stringify(m), expired: due(m.expiresAt, m.pinned) };
  }

  // ---- for the view writer (viewBuilder.ts) ----

  /** undefined: as the base has it; null: gone; a Memory: changed since. */
  overlayOf(id: string): Memory | null | undefined { return this.over.get(id); }
  /** Memories recorded since the base, in order. */
  *added(): IterableIterator<Memory> {
    for (const [id, m] of this.over) if (m && !(this.base && this.base.docOf(id) >= 0)) yield m;
  }
  /** Every overlay entry, in order: changed and new memories, and base ids that left (null). */
  overlayEntries(): IterableIterator<[string, Memory | null]> { return this.over.entries(); }
  sessionHistory(id: string): HistoryEntry[] { return this.hist.get(id) ?? []; }
  sessionTombstones(): Iterable<string> { return this.tombs; }

  private applyInner(ev: MemoryEvent): boolean {
    if (ev.type === 'recorded') {
      if (this.isTombstoned(ev.id)) return false;
      if (!this.has(ev.id)) this.live++;
      this.set(ev.id, { ...ev.memory, id: ev.id } as Memory);
      return true;
    }
    const m = this.get(ev.id);
    if (!m) return false;
    if (ev.type === 'deleted' || ev.type === 'expired') {
      // The text goes with the memory: derived copies drop it, compaction drops it from disk.
      if (this.base && this.base.docOf(ev.id) >= 0) this.over.set(ev.id, null); else this.over.delete(ev.id);
      this.full?.delete(ev.id);
      this.cache.delete(ev.id);
      this.tombs.add(ev.id);
      this.live--;
      return true;
    }
    const next = foldEvent(m, ev);
    if (!next) return false;
    this.set(ev.id, next);
    return true;
  }

  private set(id: string, m: Memory): void {
    this.over.set(id, m);
    this.cache.delete(id);
    this.full?.set(id, m);
  }

  private pushHistory(ev: MemoryEvent): void {
    if (ev.type === 'deleted' || ev.type === 'expired') { this.hist.delete(ev.id); return; }
    const list = this.hist.get(ev.id) ?? [];
    list.push(historyEntry(ev));
    if (list.length > MAX_HISTORY) list.splice(0, list.length - MAX_HISTORY);
    this.hist.set(ev.id, list);
  }
}
