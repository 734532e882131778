// The store facade every surface (extension, CLI) uses: the event log is the truth; the state, the word
// and signature indexes (derivedIndexes.ts) and the vector index are derived from it and kept in step on
// every write. Writes run one at a time; what each write appends is decided by core/writePlan.ts (masking,
// dedup, evidence, the trust ladder); compactor.ts decides when the log is compacted, importer.ts imports.
import { cleanupCandidates, type CleanupPolicy } from '../core/expiry';
import { toExportLine } from '../core/importFormat';
import { maskSecrets } from '../core/mask';
import type { MemoryPatch, TeamEdit } from '../core/memoryPatch';
import type { RecallEngine } from '../core/recall';
import { MemoryState } from '../core/reduce';
import {
  defaultOwner, maskedReason, planDemote, planFeedback, planPattern, planPromote, planRecord, planTeamEdit, planUpdate,
  type PlanContext, type StoreView,
} from '../core/writePlan';
import type {
  FeedbackOutcome, HistoryEntry, Lesson, Logger, Maturity, Memory, MemoryEvent, MemoryKind, Owner, RecallQuery, RecallResult,
} from '../core/types';
import { nullLogger } from '../core/types';
import { CLEANUP_COMPACT_BYTES, Compactor, type CompactorOptions } from './compactor';
import { DerivedIndexes } from './derivedIndexes';
import type { Embedder } from './embedder';
import { EventLog, logStamp } from './eventLog';
import { HashEmbedder } from './hashEmbedder';
import { storeStats, type StoreStats } from './storeStats';
import { importLines, type ImportLinesOptions, type ImportReport } from './importer';
import type { OversizedLine } from './lineReader';

export { COMPACT_PENDING_FILE, owedCompactions } from './compactor';
export { MAX_REPORTED_ERRORS, type ImportLinesOptions, type ImportReport } from './importer';
export type { StoreStats } from './storeStats';

export interface StoreOptions extends CompactorOptions {
  logger?: Logger;
  /** Default: HashEmbedder (model-free). */
  embedder?: Embedder;
  /** Tenant id stamped on new memories' owner and on feedback, for per-workspace evidence. */
  workspaceId?: string;
  now?: () => number;
  readOnly?: boolean;
  /** Skip the vector index entirely (lexical + signature recall only). */
  vectors?: boolean;
}

export class MemoryStore {
  readonly warnings: string[] = [];
  private readonly indexes: DerivedIndexes;
  private readonly listeners = new Set<(ids: string[]) => void>();
  private readonly engine: RecallEngine;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly compactor: Compactor;
  /** The store as the write plan reads it (state through `this.state`, which a reset replaces). */
  private readonly view: StoreView;
  private writes: Promise<unknown> = Promise.resolve();
  private vectorsReady?: Promise<void>;
  private closed = false;
  private lastLogStamp?: string;
  private refreshing?: Promise<void>;
  private closing?: Promise<void>;

  private constructor(
    readonly dir: string,
    private readonly log: EventLog,
    private state: MemoryState,
    private readonly embedder: Embedder,
    private readonly ownsEmbedder: boolean,
    private readonly opts: StoreOptions,
  ) {
    this.logger = opts.logger ?? nullLogger;
    this.now = opts.now ?? Date.now;
    this.indexes = new DerivedIndexes({ dir, embedder, logger: this.logger, readOnly: opts.readOnly, warnings: this.warnings });
    // The engine reads through `this.state`, which refresh() may replace after another process compacts.
    this.engine = this.indexes.recallEngine(() => this.state, opts.workspaceId);
    this.compactor = new Compactor(dir, opts, this.logger, () => this.runDueCompaction(), () => !!this.opts.readOnly || this.closed);
    const self = this;
    this.view = {
      get: id => self.state.get(id),
      has: id => self.state.has(id),
      isTombstoned: id => self.state.isTombstoned(id),
      all: () => self.state.all(),
      idsWithSignature: key => self.indexes.idsWithSignature(key),
    };
  }

  static async open(dir: string, opts: StoreOptions = {}): Promise<MemoryStore> {
    const logger = opts.logger ?? nullLogger;
    const log = await EventLog.open(dir, { logger, readOnly: opts.readOnly });
    const stamp = logStamp(dir); // before reading: a write that lands meanwhile shows up as a change
    // readAll recovers what it can and says so; it never hands back an empty state over data it could read.
    const { events, warnings } = await log.readAll();
    const state = new MemoryState();
    state.applyAll(events);
    const embedder = opts.embedder ?? new HashEmbedder();
    const store = new MemoryStore(dir, log, state, embedder, !opts.embedder, opts);
    store.warnings.push(...warnings);
    store.lastLogStamp = stamp;
    await store.indexes.rebuildInSlices(state.all());
    if (!opts.readOnly) store.compactor.checkAtOpen();
    return store;
  }

  /**
   * Vectors load on the first recall, not at open: the vector module (Vectra) is large, and commands that
   * never recall (import, export, stats, forget) should not pay for it. Writes before then need no vector
   * work, because sync() reconciles the index with the log when it loads.
   */
  private ensureVectors(): Promise<void> {
    if (this.opts.vectors === false) return Promise.resolve();
    // In the write queue, so no write lands between the sync and `this.vectors` being set.
    this.vectorsReady ??= this.serial(() => this.indexes.openVectors(this.state.all()));
    return this.vectorsReady;
  }

  // ---- reading ----

  onDidChange(listener: (ids: string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  get(id: string): Memory | undefined { return this.state.get(id); }

  list(filter: { kinds?: MemoryKind[]; includeQuarantined?: boolean } = {}): Memory[] {
    return this.state.all()
      .filter(m => (!filter.kinds?.length || filter.kinds.includes(m.kind)) && (filter.includeQuarantined || !m.quarantined))
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  history(id: string): HistoryEntry[] { return this.state.history(id); }

  async recall(q: RecallQuery): Promise<RecallResult[]> {
    this.refreshIfChanged();
    await this.ensureVectors();
    return this.engine.recall({ ...q, now: q.now ?? this.now() });
  }

  exportLines(): string[] {
    return this.state.all().sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)).map(toExportLine);
  }

  stats(): StoreStats {
    return storeStats(this.state.all(), {
      embedder: this.embedder.kind === 'hash' ? 'hash' : this.embedder.id,
      vectors: this.indexes.vectorCount, // 0 until the first recall loads them
      revision: this.state.revision,
      warnings: [...this.warnings],
    });
  }

  /** The owner new memories get when they name none. */
  defaultOwner(): Owner { return defaultOwner(this.opts.workspaceId); }

  /** True when the id was forgotten or expired here (its tombstone outlives compaction). */
  isForgotten(id: string): boolean { return this.state.isTombstoned(id); }

  // ---- writing ----

  /** Masks, fills defaults, and dedups lessons (evidence instead of a copy); resolves to the memory kept. */
  async record(input: Memory): Promise<Memory> {
    return this.write(ctx => planRecord(this.view, input, ctx));
  }

  /** A pattern lesson from the pattern pass (store/patternPass.ts): recorded, then lifted on its evidence. */
  async recordPattern(lesson: Lesson): Promise<Memory> {
    return this.write(ctx => planPattern(this.view, lesson, ctx));
  }

  /** The user's edit of a memory's words, scope or keeping; maturity and confidence are not in a patch. */
  async update(id: string, patch: MemoryPatch, reason?: string): Promise<void> {
    return this.change(id, (m, ctx) => planUpdate(m, patch, reason, ctx));
  }

  /** A changed team-file line: its words and flags, and a drop to the team cap in the same write. */
  async applyTeamEdit(id: string, edit: TeamEdit, reason?: string): Promise<void> {
    return this.change(id, (m, ctx) => planTeamEdit(m, edit, reason, ctx));
  }

  async feedback(id: string, outcome: FeedbackOutcome, opts: { reason?: string; auto?: boolean; file?: string } = {}): Promise<void> {
    return this.change(id, (m, ctx) => planFeedback(this.view, m, outcome, opts, ctx));
  }

  async promote(id: string, to?: Maturity, reason?: string): Promise<void> {
    return this.change(id, (m, ctx) => planPromote(m, to, reason, ctx));
  }

  async demote(id: string, reason?: string): Promise<void> {
    return this.change(id, (m, ctx) => planDemote(m, reason, ctx));
  }

  async forget(id: string, reason?: string): Promise<void> {
    return this.change(id, (_, { now }) => [{ type: 'deleted', id, at: now, ...maskedReason(reason) }]);
  }

  async quarantine(id: string, reason: string): Promise<void> {
    return this.change(id, (_, { now }) => [{ type: 'quarantined', id, at: now, reason: maskSecrets(reason) }]);
  }

  async restore(id: string): Promise<void> {
    return this.change(id, (_, { now }) => [{ type: 'restored', id, at: now }]);
  }

  async markAccessed(ids: string[]): Promise<void> {
    const live = [...new Set(ids)].filter(id => this.state.has(id));
    if (!live.length) return;
    return this.serial(async () => {
      const at = this.now();
      await this.commit(live.map(id => ({ type: 'accessed' as const, id, at })));
    });
  }

  /** Imports JSON lines (store/importer.ts): bad lines reported, repeats merged, durable batch by batch. */
  async importLines(lines: Iterable<string | OversizedLine> | AsyncIterable<string | OversizedLine>, opts: ImportLinesOptions = {}): Promise<ImportReport> {
    return importLines({
      view: this.view, workspace: this.opts.workspaceId, now: () => this.now(),
      serial: fn => this.serial(fn), commit: events => this.commit(events),
    }, lines, opts);
  }

  /** Expires memories past their TTL, and old + rarely recalled + unimportant ones (core/expiry.ts). Pinned never. */
  async cleanup(policy: Partial<CleanupPolicy> & { now?: number } = {}): Promise<string[]> {
    return this.serial(async () => {
      const now = policy.now ?? this.now();
      const found = cleanupCandidates(this.state.all(), now, { ...policy, ttlDays: policy.ttlDays ?? 0 });
      await this.commit(found.map(c => ({ type: 'expired' as const, id: c.id, at: now, reason: c.reason })));
      // Expired and forgotten text leaves the disk only at compaction; cleanup is the periodic moment for it.
      if (!this.opts.readOnly && (found.length || this.compactor.logOver(CLEANUP_COMPACT_BYTES))) {
        await this.compactInner().catch(e => this.logger.warn(`compaction after cleanup failed: ${(e as Error).message}`));
      }
      return found.map(c => c.id);
    });
  }

  /**
   * When the log changed since we last read it (another window, `engram import`), picks the changes up
   * in the background: this recall answers from what is loaded, the next one sees the rest. Never waits
   * for another process's lock on the hot path. Our own writes also change the log; the refresh that
   * follows them is cheap (it finds nothing new).
   */
  private refreshIfChanged(): void {
    if (this.opts.readOnly || this.closed || this.refreshing) return;
    const stamp = logStamp(this.dir);
    if (stamp === this.lastLogStamp) return;
    this.refreshing = this.refresh()
      .then(() => { this.lastLogStamp = stamp; })
      .catch(e => this.logger.warn(`could not read other writers' changes: ${(e as Error).message}`))
      .finally(() => { this.refreshing = undefined; });
  }

  /** Picks up events other processes (another window, the CLI) appended since we last looked. */
  async refresh(): Promise<void> {
    return this.serial(async () => {
      const r = await this.log.readNew();
      if (r.warnings.length) this.warnings.push(...r.warnings);
      this.compactor.readOthers(r.events.length, r.reset);
      if (r.reset) {
        await this.resetTo(r.events);
        return;
      }
      if (!r.events.length) return;
      await this.applyDerived(r.events);
    });
  }

  /** Replaces the state with `events` (the full state after another process reset the log) and every derived copy with it. */
  private async resetTo(events: MemoryEvent[]): Promise<void> {
    const state = new MemoryState();
    state.applyAll(events);
    this.state = state;
    await this.indexes.reset(this.state.all());
    this.fire(this.state.all().map(m => m.id));
  }

  /**
   * Folds the log into a fresh snapshot and starts a new generation (EventLog.compact): forgotten and
   * expired text leaves the disk, and open() replays less. Safe with other writers (under the lock).
   */
  async compact(): Promise<{ generation: number; memories: number }> {
    return this.serial(() => this.compactInner());
  }

  private compactInner(): Promise<{ generation: number; memories: number }> {
    return this.compactor.compact({
      compactLog: () => this.log.compact(this.state, { now: this.now() }),
      reset: events => this.resetTo(events),
      apply: events => this.applyDerived(events),
      now: this.now,
    });
  }

  /**
   * Runs the compaction that is due (after forget or expiry, when the log outgrew its bounds, or owed by
   * an earlier session) now instead of after its quiet time. Resolves true when one ran. A follow-up that
   * the first one owes stays scheduled: call again to run it too.
   */
  async flushCompaction(): Promise<boolean> {
    return this.compactor.flush();
  }

  /**
   * Pays every compaction owed now (Compactor.settle): when this resolves, forgotten and expired text is
   * in no file of the folder, the .prev pair included. True when one ran. For a caller that must not
   * return before then (the MCP `forget` tool); close() does the same.
   */
  async eraseRemoved(): Promise<boolean> {
    return this.compactor.settle();
  }

  private async runDueCompaction(): Promise<boolean> {
    try {
      await this.serial(() => this.compactInner());
      return true;
    } catch (e) {
      this.logger.warn(`compaction failed (retried later): ${(e as Error).message}`);
      return false;
    }
  }

  async rebuildIndex(opts: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {}): Promise<void> {
    await this.ensureVectors();
    return this.serial(async () => {
      await this.indexes.rebuildAll(this.state.all(), { onProgress: opts.onProgress, signal: opts.signal });
    });
  }

  async close(): Promise<void> {
    this.closing ??= this.closeInner();
    return this.closing;
  }

  private async closeInner(): Promise<void> {
    // Compactions still owed run now, the follow-up that clears the .prev pair included: forgotten text
    // must not wait for the next session (a CLI `forget` exits right after).
    if (this.compactor.due) await this.eraseRemoved();
    this.compactor.cancel();
    this.closed = true;
    await this.refreshing;
    await this.writes.catch(() => undefined);
    await this.vectorsReady?.catch(() => undefined);
    this.listeners.clear();
    await this.indexes.close();
    if (this.ownsEmbedder) await this.embedder.dispose();
  }

  // ---- internals ----

  /** Writes run one at a time in this process (the log's lock orders them across processes). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the memory store is closed'));
    const run = this.writes.then(fn, fn);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private context(): PlanContext {
    return { now: this.now(), workspace: this.opts.workspaceId };
  }

  /** Appends what `plan` decides and resolves to the memory it names. */
  private write(plan: (ctx: PlanContext) => { events: MemoryEvent[]; id: string }): Promise<Memory> {
    return this.serial(async () => {
      const p = plan(this.context());
      await this.commit(p.events);
      const kept = this.state.get(p.id);
      if (kept) return kept;
      const rec = p.events.find(e => e.type === 'recorded' && e.id === p.id);
      if (rec?.type === 'recorded') return rec.memory;
      throw new Error(`no memory with id ${p.id}`);
    });
  }

  /** Appends what `plan` decides about an existing memory. */
  private change(id: string, plan: (m: Memory, ctx: PlanContext) => MemoryEvent[]): Promise<void> {
    return this.serial(async () => {
      const m = this.state.get(id);
      if (!m) throw new Error(`no memory with id ${id}`);
      await this.commit(plan(m, this.context()));
    });
  }

  /** Durable append, then fold into state and every derived index. */
  private async commit(events: MemoryEvent[]): Promise<void> {
    if (!events.length) return;
    await this.log.append(events);
    await this.applyDerived(events);
    if (!this.opts.readOnly) this.compactor.appended(events);
  }

  private async applyDerived(events: MemoryEvent[]): Promise<void> {
    const textChanged = new Set<string>();
    const touched = new Set<string>();
    for (const ev of events) {
      if (!this.state.apply(ev)) continue;
      touched.add(ev.id);
      if (ev.type === 'recorded' || ev.type === 'updated' || ev.type === 'deleted' || ev.type === 'expired') textChanged.add(ev.id);
    }
    await this.indexes.changed(textChanged, id => this.state.get(id));
    if (touched.size) this.fire([...touched]);
  }

  private fire(ids: string[]): void {
    for (const l of [...this.listeners]) {
      try { l(ids); } catch (e) { this.logger.error(e as Error); }
    }
  }
}
