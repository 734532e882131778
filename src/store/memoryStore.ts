// The store facade every surface (extension, CLI, `engram mcp`, the hook) uses: the event log is the truth;
// the state, the word and signature indexes (derivedIndexes.ts) and the vector index are derived from it
// and kept in step on every write. The state and indexes are persisted beside the log as a view
// (viewKeeper.ts: view.bin, as of a log position), so opening reads that view and folds only the log's
// tail instead of the whole log. Writes run one at a time; what each write appends is decided by
// core/writePlan.ts (masking, dedup, evidence, the trust ladder); compactor.ts decides when the log is
// compacted, importer.ts imports.
import { cleanupCandidates, type CleanupPolicy } from '../core/expiry';
import { toExportLine } from '../core/importFormat';
import { maskSecrets } from '../core/mask';
import type { MemoryPatch, TeamEdit } from '../core/memoryPatch';
import type { RecallEngine } from '../core/recall';
import {
  defaultOwner, maskedReason, planDemote, planFeedback, planPattern, planPromote, planRecord, planTeamEdit, planUpdate,
  type PlanContext, type StoreView,
} from '../core/writePlan';
import type {
  Fact, FeedbackOutcome, HistoryEntry, Lesson, Logger, Maturity, Memory, MemoryEvent, MemoryKind, Owner, RecallQuery, RecallResult,
} from '../core/types';
import { nullLogger } from '../core/types';
import { CLEANUP_COMPACT_BYTES, Compactor, type CompactorOptions } from './compactor';
import { DerivedIndexes } from './derivedIndexes';
import type { Embedder } from './embedder';
import { EventLog, logStamp, type CompactResult, type CompactSource } from './eventLog';
import { HashEmbedder } from './hashEmbedder';
import { storeStats, type StoreStats } from './storeStats';
import { importLines, type ImportLinesOptions, type ImportReport } from './importer';
import { LayeredState } from './layeredState';
import type { OversizedLine } from './lineReader';
import { ViewDamagedError } from './viewFile';
import { ViewKeeper } from './viewKeeper';
import { removeViewFiles } from './viewStore';

export { COMPACT_PENDING_FILE, owedCompactions } from './compactor';
export { VIEW_FILE } from './viewFormat';
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
  private readonly views: ViewKeeper;
  private readonly listeners = new Set<(ids: string[]) => void>();
  private readonly engine: RecallEngine;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly compactor: Compactor;
  /** The store as the write plan reads it (state through `this.state`, which a reset replaces). */
  private readonly view: StoreView;
  private state = new LayeredState();
  private writes: Promise<unknown> = Promise.resolve();
  private vectorsReady?: Promise<void>;
  private closed = false;
  private lastLogStamp?: string;
  private refreshing?: Promise<void>;
  private closing?: Promise<void>;
  private recovering?: Promise<void>;
  /** eraseRemoved is paying owed compactions one after another. */
  private settling = false;

  private constructor(
    readonly dir: string,
    private readonly log: EventLog,
    private readonly embedder: Embedder,
    private readonly ownsEmbedder: boolean,
    private readonly opts: StoreOptions,
  ) {
    this.logger = opts.logger ?? nullLogger;
    this.now = opts.now ?? Date.now;
    const self = this;
    this.indexes = new DerivedIndexes({ dir, embedder, logger: this.logger, readOnly: opts.readOnly, vectors: opts.vectors, warnings: this.warnings }, () => this.state);
    this.views = new ViewKeeper({
      dir, log, logger: this.logger, readOnly: !!opts.readOnly, indexes: this.indexes,
      get state() { return self.state; },
      set state(s: LayeredState) { self.state = s; },
    }, () => { void this.writeView().catch(e => this.logger.warn(`could not write the store's view: ${(e as Error).message}`)); });
    // The engine reads through the indexes' getters, which follow `this.state` when a reset replaces it.
    this.engine = this.indexes.recallEngine(opts.workspaceId);
    this.compactor = new Compactor(dir, opts, this.logger, () => this.runDueCompaction(), () => !!this.opts.readOnly || this.closed);
    this.view = {
      get: id => self.state.get(id),
      has: id => self.state.has(id),
      isTombstoned: id => self.state.isTombstoned(id),
      all: () => self.state.all(),
      facts: () => self.state.ofKinds(['fact']) as Fact[],
      idsWithSignature: key => self.indexes.idsWithSignature(key),
    };
  }

  /**
   * Opens the store in `dir`: from its view and the log's tail when the view covers the log, else from
   * the whole log (then a writer writes the view soon). Resolves when recall and writes are ready; a
   * server that must answer before that (engram mcp) starts this and awaits it where it needs the store
   * (see `openInBackground`).
   */
  static async open(dir: string, opts: StoreOptions = {}): Promise<MemoryStore> {
    const logger = opts.logger ?? nullLogger;
    // A log replaced under us is read again by this store (from the view when it can), not by the log.
    const log = await EventLog.open(dir, { logger, readOnly: opts.readOnly, reloadOnReset: true });
    const embedder = opts.embedder ?? new HashEmbedder();
    const store = new MemoryStore(dir, log, embedder, !opts.embedder, opts);
    store.lastLogStamp = logStamp(dir); // before reading: a write that lands meanwhile shows up as a change
    try {
      await store.load();
    } catch (e) {
      store.views.close();
      if (!opts.embedder) await embedder.dispose();
      throw e;
    }
    if (!opts.readOnly) store.compactor.checkAtOpen();
    return store;
  }

  /**
   * The state from the view (and the log's tail after it), or from the whole log when the view is
   * missing, stale or damaged; returns the ids whose memories this changed (for listeners on a reload).
   */
  private async load(): Promise<string[] | 'all'> {
    const v = await this.views.open();
    if ('state' in v) {
      const old = this.state.base;
      this.state = v.state;
      this.indexes.rebase();
      if (old) this.views.retire(old);
      this.warnings.push(...v.warnings);
      const f = this.fold(v.tail);
      await this.reindex(f, false);
      this.views.noteChange();
      return [...f.touched];
    }
    await this.stateFromLog(v.problem && `${v.problem}; rebuilt it from the log`);
    return 'all';
  }

  /**
   * The state and every index again from the whole log (the view missing, stale or damaged, or the user
   * asked), `why` logged as a warning. readAll recovers what it can and says so; it never hands back an
   * empty state over data it could read.
   */
  private async stateFromLog(why?: string): Promise<void> {
    if (why) {
      this.warnings.push(why);
      this.logger.warn(why);
    }
    const { events, warnings } = await this.log.readAll();
    this.warnings.push(...warnings);
    const state = new LayeredState();
    state.applyAll(events);
    if (this.state.base) this.views.retire(this.state.base);
    this.state = state;
    await this.indexes.reset();
    this.views.noteChange();
  }

  /**
   * Vectors load on the first recall, not at open: the vector module (Vectra) is large, and commands that
   * never recall (import, export, stats, forget) should not pay for it. Writes before then need no vector
   * work, because sync() reconciles the index with the log when it loads.
   */
  private ensureVectors(): Promise<void> {
    if (this.opts.vectors === false) return Promise.resolve();
    // In the write queue, so no write lands between the sync and `this.vectors` being set.
    this.vectorsReady ??= this.serial(() => this.indexes.openVectors(() => this.state.all()));
    return this.vectorsReady;
  }

  // ---- reading ----

  onDidChange(listener: (ids: string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  get(id: string): Memory | undefined { return this.state.get(id); }

  list(filter: { kinds?: MemoryKind[]; includeQuarantined?: boolean } = {}): Memory[] {
    // A kind filter reads only those memories (the pattern pass lists episodes after every ingest).
    return (filter.kinds?.length ? this.state.ofKinds(filter.kinds) : this.state.all())
      .filter(m => filter.includeQuarantined || !m.quarantined)
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  history(id: string): HistoryEntry[] { return this.state.history(id); }

  async recall(q: RecallQuery): Promise<RecallResult[]> {
    if (this.closed) throw new Error('the memory store is closed');
    this.refreshIfChanged();
    await this.ensureVectors();
    const query = { ...q, now: q.now ?? this.now() };
    const results = await this.engine.recall(query);
    if (!this.state.base?.damage) return results;
    // A piece of the view failed its check while this recall read it: answer from the log instead.
    await this.recoverFromDamage();
    return this.engine.recall(query);
  }

  exportLines(): string[] {
    return this.state.all().sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)).map(toExportLine);
  }

  /** Live memories, without reading any of them (stats() reads every memory: O(store) at open). */
  count(): number { return this.state.size; }

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

  async feedback(id: string, outcome: FeedbackOutcome, opts: { reason?: string; auto?: boolean; file?: string; replaces?: FeedbackOutcome } = {}): Promise<void> {
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
    return this.serial(() => this.catchUp());
  }

  /** Takes what other processes appended (in the write queue); a log replaced beyond following is read again. */
  private async catchUp(): Promise<void> {
    const r = await this.log.readNew();
    if (r.warnings.length) this.warnings.push(...r.warnings);
    this.compactor.readOthers(r.events.length, r.reset);
    if (r.reset) {
      const changed = await this.load();
      this.fire(changed === 'all' ? this.state.all().map(m => m.id) : changed);
      return;
    }
    if (!r.events.length) return;
    await this.applyDerived(r.events);
  }

  /** The view failed a check after it was opened: the state and indexes again, from the whole log. */
  private recoverFromDamage(): Promise<void> {
    this.recovering ??= this.serial(async () => {
      const damage = this.state.base?.damage;
      if (damage) await this.stateFromLog(`${damage}; the store's view is rebuilt from the log`);
    }).finally(() => { this.recovering = undefined; });
    return this.recovering;
  }

  /**
   * Writes the store's view now instead of when idle or at close (in the write queue, after taking what
   * others appended), so the next process to open the store folds no tail: for a caller that knows a
   * pause follows, and for tests. A read-only store writes nothing.
   */
  async saveView(): Promise<void> {
    return this.writeView();
  }

  private async writeView(): Promise<void> {
    if (this.opts.readOnly || this.closed) return;
    return this.serial(() => this.writeViewInner());
  }

  private async writeViewInner(): Promise<void> {
    await this.catchUp();
    try {
      await this.views.write();
    } catch (e) {
      if (!(e instanceof ViewDamagedError)) throw e;
      await this.stateFromLog(`${e.message}; the store's view is rebuilt from the log`);
    }
  }

  /**
   * Folds the log into a fresh snapshot and starts a new generation (EventLog.compact): forgotten and
   * expired text leaves the disk, and open() replays less. Safe with other writers (under the lock).
   */
  async compact(): Promise<{ generation: number; memories: number }> {
    return this.serial(() => this.compactInner());
  }

  private async compactInner(): Promise<{ generation: number; memories: number }> {
    const r = await this.compactor.compact({
      compactLog: () => this.compactLog(),
      reset: async () => { /* compactLog folds a reset itself */ },
      apply: events => this.applyDerived(events),
      now: this.now,
    });
    // The old generation's views are gone (they may hold removed text): write this one's, unless another
    // compaction follows at once (eraseRemoved writes it after the last).
    if (!this.opts.readOnly && !(this.settling && this.compactor.due)) {
      await this.views.write().catch(e => this.logger.warn(`could not write the store's view: ${(e as Error).message}`));
    }
    return r;
  }

  /**
   * EventLog.compact over this store's state: what others appended is folded in under the lock, the
   * snapshot is written from the state as it streams (unchanged memories copied from the view as bytes),
   * and every view of the old generation is removed before the lock is released. A view that fails its
   * check on the way is replaced by the whole log, and the compaction tried once more.
   */
  private async compactLog(retry = true): Promise<CompactResult> {
    let folded: ReturnType<MemoryStore['fold']> | undefined;
    let reset = false;
    const source: CompactSource = {
      catchUp: fresh => {
        if (fresh.reset) {
          const state = new LayeredState();
          state.applyAll(fresh.events);
          if (this.state.base) this.views.retire(this.state.base);
          this.state = state;
          reset = true;
        } else {
          folded = this.fold(fresh.events);
        }
      },
      memories: now => this.state.snapshotMemories(now),
      tombstones: () => this.state.tombstoneIds(),
      rotated: () => removeViewFiles(this.dir),
    };
    let r: CompactResult;
    try {
      r = await this.log.compact(source, { now: this.now() });
    } catch (e) {
      if (!(e instanceof ViewDamagedError) || !retry) throw e;
      await this.stateFromLog(`${e.message}; the store's view is rebuilt from the log`);
      return this.compactLog(false);
    } finally {
      if (reset) {
        await this.indexes.reset();
        this.fire(this.state.all().map(m => m.id));
      } else if (folded) {
        await this.reindex(folded);
      }
    }
    return r;
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
    // The view is written once, after the last of them, not after each (each write is a pass over the store).
    this.settling = true;
    try {
      return await this.compactor.settle();
    } finally {
      this.settling = false;
      const base = this.state.base;
      const stale = base ? base.header.log.generation !== this.log.readPosition.generation : this.state.size > 0;
      if (!this.opts.readOnly && !this.closed && stale) await this.writeView().catch(e => this.logger.warn(`could not write the store's view: ${(e as Error).message}`));
    }
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

  /** Every derived copy again from the log: the state, the word and signature indexes, the vectors, the view. */
  async rebuildIndex(opts: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {}): Promise<void> {
    await this.ensureVectors();
    return this.serial(async () => {
      await this.stateFromLog();
      await this.indexes.rebuildVectors({ onProgress: opts.onProgress, signal: opts.signal });
      if (!this.opts.readOnly) await this.views.write();
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
    // What this process added on top of the view is written, so the next process does not fold it again.
    if (this.views.due()) await this.writeView().catch(e => this.logger.warn(`could not write the store's view: ${(e as Error).message}`));
    this.closed = true;
    await this.refreshing;
    await this.writes.catch(() => undefined);
    await this.vectorsReady?.catch(() => undefined);
    this.listeners.clear();
    await this.indexes.close();
    this.views.close();
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

  /** Durable append, then fold into state and every derived index (in the write queue). */
  private async commit(events: MemoryEvent[]): Promise<void> {
    if (!events.length) return;
    await this.log.append(events);
    await this.applyDerived(events);
    if (!this.opts.readOnly) this.compactor.appended(events);
    // Memory held on top of the view past its share (a large import): merged into the next view now.
    if (this.views.noteChange() === 'now') await this.writeViewInner();
  }

  private async applyDerived(events: MemoryEvent[]): Promise<void> {
    await this.reindex(this.fold(events));
  }

  /** Folds events into the state (synchronous, so it can run under the log's lock). */
  private fold(events: MemoryEvent[]): { text: Set<string>; touched: Set<string> } {
    const text = new Set<string>();
    const touched = new Set<string>();
    for (const ev of events) {
      if (!this.state.apply(ev)) continue;
      touched.add(ev.id);
      if (ev.type === 'recorded' || ev.type === 'updated' || ev.type === 'deleted' || ev.type === 'expired') text.add(ev.id);
    }
    return { text, touched };
  }

  /** Brings the indexes in step with what a fold changed, and tells the listeners. */
  private async reindex(f: { text: Set<string>; touched: Set<string> }, notify = true): Promise<void> {
    await this.indexes.changed(f.text, id => this.state.get(id));
    if (notify && f.touched.size) this.fire([...f.touched]);
  }

  private fire(ids: string[]): void {
    for (const l of [...this.listeners]) {
      try { l(ids); } catch (e) { this.logger.error(e as Error); }
    }
  }
}
