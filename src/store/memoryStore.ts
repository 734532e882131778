// The store facade every surface (extension, CLI) uses: the event log is the truth; state, the BM25
// index, the signature map and the vector index are derived from it and kept in step on every write.
// Masking and the poisoning guard run here, before anything reaches disk.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { validateCheck } from '../core/checkPattern';
import { cleanupCandidates, type CleanupPolicy } from '../core/expiry';
import { resolveFactUpdate } from '../core/facts';
import { newId } from '../core/ids';
import { parseImportLine, toExportLine, type ImportOptions } from '../core/importFormat';
import { Bm25Index } from '../core/lexical';
import { LessonDedup } from '../core/lessonDedup';
import { findSecrets, maskRecord, maskSecrets } from '../core/mask';
import { memorySignatures, memoryText } from '../core/memoryText';
import { detectMemoryInjection } from '../core/poison';
import { scopeProblem } from '../core/scopeCheck';
import { sanitizeRecord } from '../core/text';
import { RecallEngine, signatureKeyOf } from '../core/recall';
import { MemoryState } from '../core/reduce';
import {
  evaluateDemotion, evaluatePromotion, isDuplicateLesson, LADDER, planManualDemotion, planManualPromotion, PRIOR, teamMaturityCap, type ContextStamp,
} from '../core/trust';
import type {
  Fact, FeedbackOutcome, HistoryEntry, Lesson, Logger, Maturity, Memory, MemoryEvent, MemoryKind, RecallQuery, RecallResult,
} from '../core/types';
import { nullLogger } from '../core/types';
import type { Embedder } from './embedder';
import { EVENTS_FILE, EventLog } from './eventLog';
import { writeFileAtomicSync } from './atomicFile';
import { readFileNoFollowSync } from './privateFiles';
import { HashEmbedder } from './hashEmbedder';
import { oversizedLineError, type OversizedLine } from './lineReader';
import type { IndexItemInput, VectorIndex } from './vectorIndex';

export interface StoreOptions {
  logger?: Logger;
  /** Default: HashEmbedder (model-free). */
  embedder?: Embedder;
  /** Tenant id stamped on new memories' owner and on feedback, for per-workspace evidence. */
  workspaceId?: string;
  now?: () => number;
  readOnly?: boolean;
  /** Skip the vector index entirely (lexical + signature recall only). */
  vectors?: boolean;
  /**
   * Quiet time before a compaction asked for by forget/expiry or a grown log runs, so a burst compacts
   * once (default 2 s); the follow-up compaction that clears the .prev pair waits as long again.
   */
  compactDelayMs?: number;
  /** Compact once events.jsonl is larger than this (default 8 MB). */
  compactLogBytes?: number;
  /** Compact once events.jsonl holds more events than this since the last snapshot (default 20 000). */
  compactLogEvents?: number;
}

export interface ImportReport {
  imported: number;
  skipped: number;
  /** The first MAX_REPORTED_ERRORS bad lines; `errorsOmitted` counts the rest. */
  errors: { line: number; error: string }[];
  errorsOmitted?: number;
  /** Lessons merged as evidence into an existing lesson (same signature, same fix, same scope). */
  merged?: number;
  /** Lines imported with a change worth knowing (evidence not kept); never repeats the line's text. */
  notes?: { line: number; note: string }[];
  notesOmitted?: number;
}

/**
 * Bad lines (and notes) an import report keeps: a file of three million bad lines made a 266 MB report.
 * The rest are counted, not listed.
 */
export const MAX_REPORTED_ERRORS = 1000;

export interface StoreStats {
  memories: number;
  byKind: Record<MemoryKind, number>;
  byMaturity: Record<Maturity, number>;
  quarantined: number;
  flagged: number;
  /** "hash" when no model is in use, otherwise the model's id. */
  embedder: string;
  vectors: number;
  revision: number;
  warnings: string[];
}

export interface ImportLinesOptions extends ImportOptions {
  batchSize?: number;
  onProgress?(n: number): void;
  signal?: AbortSignal;
}

/** Cleanup compacts when the log has grown past this, even if nothing expired. */
const COMPACT_LOG_BYTES = 4 * 1024 * 1024;
/** After appends: compact when the log passes either bound (see StoreOptions). */
const AUTO_COMPACT_BYTES = 8 * 1024 * 1024;
const AUTO_COMPACT_EVENTS = 20_000;
const COMPACT_DELAY_MS = 2000;
/** A debounce that keeps being re-armed (a long import, a stream of forgets) still runs by then. */
const COMPACT_MAX_WAIT_MS = 30_000;
/** The shortest event line (an `accessed` event): below events × this many bytes, the event bound cannot be hit. */
const MIN_EVENT_BYTES = 32;
/**
 * How many compactions the folder still owes to removed text ("2" after a forget or expiry: the first
 * keeps it in the .prev pair, the second drops it). Kept on disk so the debt survives a closed window
 * or a CLI process, and the next open pays it.
 */
export const COMPACT_PENDING_FILE = '.compact-pending';
/** Sources that may not claim a maturity: what arrives this way earns trust like everything else. */
const UNTRUSTED_SOURCES = new Set(['chat', 'imported', 'team', 'captured']);

export class MemoryStore {
  readonly warnings: string[] = [];
  private readonly lexical = new Bm25Index();
  private readonly bySignature = new Map<string, Set<string>>();
  /** id → key it is filed under, so a forgotten memory (gone from state) can be unfiled. */
  /** Memory id → the signature keys it is filed under (its own, and the errors its episode met on the way). */
  private readonly sigOf = new Map<string, string[]>();
  private readonly listeners = new Set<(ids: string[]) => void>();
  private readonly engine: RecallEngine;
  private readonly logger: Logger;
  private readonly now: () => number;
  private writes: Promise<unknown> = Promise.resolve();
  private vectors?: VectorIndex;
  private vectorsReady?: Promise<void>;
  private closed = false;
  private lastLogStamp?: string;
  private refreshing?: Promise<void>;
  private closing?: Promise<void>;
  /** A compaction is due (debounced by compactTimer). */
  private compactWanted = false;
  private compactAskedAt = 0;
  private compactTimer?: ReturnType<typeof setTimeout>;
  /** Events in events.jsonl, counted on first need and then kept up to date (undefined: not counted). */
  private logEvents?: number;

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
    this.engine = this.makeEngine();
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
    await store.rebuildDerivedInSlices();
    // Removed text an earlier session could not finish clearing (or a log that outgrew its bounds).
    if (!opts.readOnly && (owedCompactions(dir) > 0 || store.logTooBig())) store.scheduleCompaction();
    return store;
  }

  private makeEngine(): RecallEngine {
    const self = this;
    return new RecallEngine({
      // The engine reads through `this.state`, which refresh() may replace after another process compacts.
      get state() { return self.state; },
      lexical: this.lexical,
      bySignature: this.bySignature,
      // A model's vectors are searched in full; hash vectors only rescore what words and signatures found.
      get vectors() { return self.embedder.kind === 'hash' ? undefined : self.vectors; },
      get vectorOf() {
        const vi = self.vectors;
        return self.embedder.kind === 'hash' && vi ? (id: string) => vi.vectorOf(id) : undefined;
      },
      get embedQuery() {
        return self.vectors ? async (text: string) => (await self.embedder.embed([text]))[0] : undefined;
      },
      workspaceId: this.opts.workspaceId,
    });
  }

  /**
   * Vectors load on the first recall, not at open: the vector module (Vectra) is large, and commands that
   * never recall (import, export, stats, forget) should not pay for it. Writes before then need no vector
   * work, because sync() reconciles the index with the log when it loads. Hash vectors are kept in memory
   * only (read-only index): recomputing them is cheaper than parsing them back from disk; a model's
   * vectors are persisted.
   */
  private ensureVectors(): Promise<void> {
    if (this.opts.vectors === false) return Promise.resolve();
    // In the write queue, so no write lands between the sync and `this.vectors` being set.
    this.vectorsReady ??= this.serial(() => this.openVectors());
    return this.vectorsReady;
  }

  private async openVectors(): Promise<void> {
    try {
      const { VectorIndex } = await import('./vectorIndex');
      const readOnly = this.opts.readOnly || this.embedder.kind === 'hash';
      const vi = await VectorIndex.open(path.join(this.dir, 'index'), { logger: this.logger, readOnly });
      const r = await vi.sync(this.state.all().map(vectorItem), this.embedder);
      if (r?.warnings?.length && !readOnly) this.warnings.push(...r.warnings);
      this.vectors = vi;
    } catch (e) {
      // Vectors are derived and optional: recall still works on words and signatures.
      const msg = `vector index unavailable, recalling by words and signatures only (${(e as Error).message})`;
      this.warnings.push(msg);
      this.logger.warn(msg);
      this.vectors = undefined;
    }
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
    const byKind: Record<MemoryKind, number> = { lesson: 0, episode: 0, fact: 0, rule: 0 };
    const byMaturity: Record<Maturity, number> = { observation: 0, pattern: 0, rule: 0, constraint: 0 };
    let quarantined = 0, flagged = 0;
    const all = this.state.all();
    for (const m of all) {
      byKind[m.kind] = (byKind[m.kind] ?? 0) + 1;
      byMaturity[m.maturity] = (byMaturity[m.maturity] ?? 0) + 1;
      if (m.quarantined) quarantined++;
      if (m.flagged?.length) flagged++;
    }
    return {
      memories: all.length, byKind, byMaturity, quarantined, flagged,
      embedder: this.embedder.kind === 'hash' ? 'hash' : this.embedder.id,
      vectors: this.vectors?.size ?? 0, // 0 until the first recall loads them
      revision: this.state.revision,
      warnings: [...this.warnings],
    };
  }

  // ---- writing ----

  async record(input: Memory): Promise<Memory> {
    return this.serial(async () => {
      const now = this.now();
      const m = this.prepare(input, now, false);
      if (m.kind === 'lesson') {
        const dup = this.findDuplicate(m);
        if (dup) {
          await this.mergeEvidence(dup, m, now);
          return this.state.get(dup.id) ?? dup;
        }
      }
      if (m.kind === 'fact') {
        // Profile facts: the newer value supersedes the older, which stays as history; a word-for-word
        // repeat is only marked as seen again (core/facts.ts).
        const facts = this.state.all().filter((f): f is Fact => f.kind === 'fact');
        const events = resolveFactUpdate(m, facts, now);
        await this.commit(events);
        return this.state.get(events[0].id) ?? m;
      }
      await this.commit([{ type: 'recorded', id: m.id, at: now, memory: m }]);
      return this.state.get(m.id) ?? m;
    });
  }

  /**
   * Changes fields of a memory. `demoteTo` lowers its maturity in the same write (never raises it): new
   * text from outside (a changed team line) must not keep the standing the old text earned.
   */
  async update(id: string, patch: Record<string, unknown>, reason?: string, opts: { demoteTo?: Maturity } = {}): Promise<void> {
    return this.serial(async () => {
      const m = this.require(id);
      if (Array.isArray(patch.scope)) { const bad = scopeProblem(patch.scope as string[]); if (bad) throw new Error(bad); }
      const clean = maskRecord(sanitizeRecord(patch));
      const at = this.now();
      const events: MemoryEvent[] = [{ type: 'updated', id, at, patch: clean, ...maskedReason(reason) }];
      const to = opts.demoteTo;
      if (to && LADDER.indexOf(to) < LADDER.indexOf(m.maturity)) {
        events.push({ type: 'demoted', id, at, from: m.maturity, to, reason: reason ? `${maskSecrets(reason)}: new text starts again at ${to}` : `new text starts again at ${to}` });
      }
      await this.commit(events);
    });
  }

  async feedback(id: string, outcome: FeedbackOutcome, opts: { reason?: string; auto?: boolean; file?: string } = {}): Promise<void> {
    return this.serial(async () => {
      this.require(id);
      const now = this.now();
      const workspace = this.opts.workspaceId;
      await this.commit([{
        type: 'feedback', id, at: now, outcome,
        ...maskedReason(opts.reason), ...(opts.auto ? { auto: true } : {}), ...(workspace ? { workspace } : {}),
      }]);
      const m = this.state.get(id);
      if (!m) return;
      const t = outcome === 'still_failed'
        ? evaluateDemotion(m, workspace)
        : evaluatePromotion(m, { now, outcome, workspace, file: opts.file, evidence: this.evidenceStamps(m, workspace) });
      if (t) await this.commit([{ type: t.kind, id, at: now, from: m.maturity, to: t.to, reason: t.reason }]);
    });
  }

  async promote(id: string, to?: Maturity, reason?: string): Promise<void> {
    return this.serial(async () => {
      const m = this.require(id);
      const plan = planManualPromotion(m, to);
      if (!plan.ok) throw new Error(plan.error);
      // A constraint's check runs in the editor: it must be one the linear-time engine can run.
      const problem = plan.transition.to === 'constraint' ? validateCheck(m.kind === 'lesson' ? m.check : undefined) : undefined;
      if (problem) throw new Error(problem);
      await this.commit([{ type: 'promoted', id, at: this.now(), from: m.maturity, to: plan.transition.to, reason: reason ? maskSecrets(reason) : plan.transition.reason }]);
    });
  }

  async demote(id: string, reason?: string): Promise<void> {
    return this.serial(async () => {
      const m = this.require(id);
      const plan = planManualDemotion(m);
      if (!plan.ok) throw new Error(plan.error);
      await this.commit([{ type: 'demoted', id, at: this.now(), from: m.maturity, to: plan.transition.to, reason: reason ? maskSecrets(reason) : plan.transition.reason }]);
    });
  }

  async forget(id: string, reason?: string): Promise<void> {
    return this.serial(async () => {
      this.require(id);
      await this.commit([{ type: 'deleted', id, at: this.now(), ...maskedReason(reason) }]);
    });
  }

  async quarantine(id: string, reason: string): Promise<void> {
    return this.serial(async () => {
      this.require(id);
      await this.commit([{ type: 'quarantined', id, at: this.now(), reason: maskSecrets(reason) }]);
    });
  }

  async restore(id: string): Promise<void> {
    return this.serial(async () => {
      this.require(id);
      await this.commit([{ type: 'restored', id, at: this.now() }]);
    });
  }

  async markAccessed(ids: string[]): Promise<void> {
    const live = [...new Set(ids)].filter(id => this.state.has(id));
    if (!live.length) return;
    return this.serial(async () => {
      const at = this.now();
      await this.commit(live.map(id => ({ type: 'accessed' as const, id, at })));
    });
  }

  /**
   * Imports JSON lines (see core/importFormat.ts). Bad lines are reported and skipped; good lines are
   * appended in batches, each durable before the next, so an interrupted import keeps what it wrote.
   * Duplicate ids (within the file, or already in the store) are reported and skipped: the first wins.
   * Lessons without an explicit id that repeat an existing lesson (same signature, same fix, same scope)
   * become evidence on it instead of a copy; lines with an explicit id are always kept as themselves.
   */
  async importLines(lines: Iterable<string | OversizedLine> | AsyncIterable<string | OversizedLine>, opts: ImportLinesOptions = {}): Promise<ImportReport> {
    const batchSize = Math.max(1, opts.batchSize ?? 500);
    const report: ImportReport = { imported: 0, skipped: 0, errors: [], merged: 0, notes: [] };
    const recorded = new Set<string>(); // ids this import has written (evidence may name them)
    const seen = new Set<string>();
    let batch: MemoryEvent[] = [];
    // Lessons this import wrote or queued, and the store's own lessons of every signature it met, so a
    // repeat is found by key instead of by comparing it with every earlier lesson of its signature.
    const dedup = new LessonDedup();
    const seededSigs = new Set<string>();
    const evidenceOf = new Map<string, Set<string>>();
    const merged = new Set<string>();
    let lineNo = 0;
    const error = (line: number, text: string) => {
      if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push({ line, error: text });
      else report.errorsOmitted = (report.errorsOmitted ?? 0) + 1;
      report.skipped++;
    };
    const note = (line: number, text: string) => {
      if (report.notes!.length < MAX_REPORTED_ERRORS) report.notes!.push({ line, note: text });
      else report.notesOmitted = (report.notesOmitted ?? 0) + 1;
    };
    const flush = async () => {
      if (!batch.length) return;
      const events = batch;
      batch = [];
      evidenceOf.clear();
      await this.serial(async () => {
        await this.commit(events);
        // Evidence may have earned a promotion; evaluate once per lesson per batch.
        const now = this.now();
        const steps: MemoryEvent[] = [];
        for (const id of merged) {
          const cur = this.state.get(id);
          const t = cur && evaluatePromotion(cur, { now, workspace: this.opts.workspaceId });
          if (cur && t) steps.push({ type: t.kind, id, at: now, from: cur.maturity, to: t.to, reason: t.reason });
        }
        merged.clear();
        await this.commit(steps);
      });
      opts.onProgress?.(report.imported);
    };
    for await (const rawLine of lines as AsyncIterable<string | OversizedLine>) {
      lineNo++;
      if (opts.signal?.aborted) break;
      // A reader that bounds lines before buffering them (store/lineReader.ts) hands over only the size.
      if (typeof rawLine !== 'string') { error(lineNo, oversizedLineError(rawLine.bytes)); continue; }
      const line = rawLine.replace(/^\uFEFF/, '').replace(/\r$/, '');
      if (!line.trim()) continue;
      const now = this.now();
      const parsed = parseImportLine(line, lineNo, now, { ...opts, owner: opts.owner ?? this.defaultOwner() });
      if (!parsed.ok) { error(lineNo, parsed.error); continue; }
      const id = parsed.memory.id;
      if (seen.has(id) || this.state.has(id) || this.state.isTombstoned(id)) {
        error(lineNo, `duplicate id "${id}": ${seen.has(id) ? 'an earlier line has it' : 'already in the store'}; line skipped`);
        continue;
      }
      seen.add(id);
      // A team file keeps its lines' evidence, within the team cap (trust.teamMaturityCap), re-applied here
      // after masking and whatever the parser was told.
      const m = this.prepare(parsed.memory, now, !!opts.trusted || !!opts.team);
      if (opts.team && !opts.trusted) { m.maturity = teamMaturityCap(m); m.source = 'team'; m.confidence = { ...PRIOR }; }
      // Evidence is what moves a lesson up the ladder (observation -> pattern), so an untrusted file may
      // not bring any: neither ids it lists nor copies of one lesson counted as separate sightings.
      // A trusted backup keeps what it lists; a merge adds only ids that exist, never the merged line's
      // own id, which does not become a memory.
      if (m.kind === 'lesson' && !opts.trusted && !opts.team && m.evidence.length) {
        note(lineNo, `${m.evidence.length} evidence id(s) not kept: evidence from an untrusted file does not count toward promotion`);
        m.evidence = [];
      }
      if (m.kind === 'lesson' && !seededSigs.has(m.errorSignature)) {
        seededSigs.add(m.errorSignature);
        for (const sid of this.bySignature.get(m.errorSignature) ?? []) {
          const other = this.state.get(sid);
          if (other?.kind === 'lesson') dedup.add(other);
        }
      }
      if (m.kind === 'lesson' && !parsed.explicitId) {
        const found = dedup.find(m);
        // Only a lesson still in the store or queued by this import (one forgotten meanwhile is gone).
        const dup = found && (this.state.has(found.id) || recorded.has(found.id)) ? found : undefined;
        if (dup) {
          let have = evidenceOf.get(dup.id);
          if (!have) { have = new Set(this.state.get(dup.id)?.kind === 'lesson' ? (this.state.get(dup.id) as Lesson).evidence : dup.evidence); evidenceOf.set(dup.id, have); }
          for (const evidenceId of m.evidence.filter(e => this.state.has(e) || recorded.has(e))) {
            if (have.has(evidenceId)) continue;
            have.add(evidenceId);
            batch.push({ type: 'evidence', id: dup.id, at: now, evidenceId, reason: 'same error fixed the same way (import)' });
          }
          merged.add(dup.id);
          report.merged!++;
          report.skipped++;
          if (batch.length >= batchSize) await flush();
          continue;
        }
      }
      // A line with its own id is kept as itself, but a later id-less repeat merges into it.
      if (m.kind === 'lesson') dedup.add(m);
      batch.push({ type: 'recorded', id: m.id, at: now, memory: m });
      recorded.add(m.id);
      report.imported++;
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    return report;
  }

  /** Expires memories past their TTL, and old + rarely recalled + unimportant ones (core/expiry.ts). Pinned never. */
  async cleanup(policy: Partial<CleanupPolicy> & { now?: number } = {}): Promise<string[]> {
    return this.serial(async () => {
      const now = policy.now ?? this.now();
      const found = cleanupCandidates(this.state.all(), now, { ...policy, ttlDays: policy.ttlDays ?? 0 });
      await this.commit(found.map(c => ({ type: 'expired' as const, id: c.id, at: now, reason: c.reason })));
      // Expired and forgotten text leaves the disk only at compaction; cleanup is the periodic moment for it.
      if (!this.opts.readOnly && (found.length || logBytes(this.dir) > COMPACT_LOG_BYTES)) {
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
      if (r.reset) {
        this.logEvents = undefined;
        await this.resetTo(r.events);
        return;
      }
      if (!r.events.length) return;
      if (this.logEvents !== undefined) this.logEvents += r.events.length;
      await this.applyDerived(r.events);
    });
  }

  /** Replaces the state with `events` (the full state after another process reset the log) and every derived copy with it. */
  private async resetTo(events: MemoryEvent[]): Promise<void> {
    const state = new MemoryState();
    state.applyAll(events);
    this.state = state;
    this.rebuildDerived();
    if (this.vectors) {
      await this.vectors.sync(this.state.all().map(vectorItem), this.embedder)
        .catch((e: unknown) => this.logger.warn(`vector sync failed: ${(e as Error).message}`));
    }
    this.fire(this.state.all().map(m => m.id));
  }

  /**
   * Folds the log into a fresh snapshot and starts a new generation (EventLog.compact): forgotten and
   * expired text leaves the disk, and open() replays less. Safe with other writers (under the lock).
   */
  async compact(): Promise<{ generation: number; memories: number }> {
    return this.serial(() => this.compactInner());
  }

  private async compactInner(): Promise<{ generation: number; memories: number }> {
    // Whatever was pending is served by this compaction; a follow-up is scheduled below if one is owed.
    this.cancelCompactionTimer();
    this.compactWanted = false;
    const owed = owedCompactions(this.dir);
    const r = await this.log.compact(this.state, { now: this.now() });
    this.logEvents = 0;
    if (r.reset) {
      // Another process replaced the log in a way we could not follow: newEvents is the full state.
      await this.resetTo(r.newEvents);
    } else if (r.newEvents.length) {
      await this.applyDerived(r.newEvents);
    }
    // Past-expiry memories the snapshot dropped are dropped here too (no event: the snapshot is the record).
    if (r.expired.length) await this.applyDerived(r.expired.map(id => ({ type: 'expired' as const, id, at: this.now(), reason: 'expired at compaction' })));
    // The .prev pair keeps one step back, so text removed before this compaction (or expired by it) is
    // still in snapshot.prev.json / events.prev.jsonl until the next one.
    const still = Math.max(owed - 1, r.expired.length ? 1 : 0);
    setOwedCompactions(this.dir, still, this.logger);
    if (still > 0) this.scheduleCompaction();
    return { generation: r.generation, memories: r.memories };
  }

  /**
   * Runs the compaction that is due (after forget or expiry, when the log outgrew its bounds, or owed by
   * an earlier session) now instead of after its quiet time. Resolves true when one ran. A follow-up that
   * the first one owes stays scheduled: call again to run it too.
   */
  async flushCompaction(): Promise<boolean> {
    this.cancelCompactionTimer();
    if (!this.compactWanted || this.opts.readOnly || this.closed) return false;
    try {
      await this.serial(() => this.compactInner());
      return true;
    } catch (e) {
      this.logger.warn(`compaction failed (retried later): ${(e as Error).message}`);
      return false;
    }
  }

  /** Asks for a compaction after the quiet time; repeated asks re-arm the timer, up to COMPACT_MAX_WAIT_MS. */
  private scheduleCompaction(): void {
    if (this.opts.readOnly || this.closed) return;
    const t = Date.now(); // wall clock: the debounce is about real bursts, not the store's notion of now
    if (!this.compactWanted) { this.compactWanted = true; this.compactAskedAt = t; }
    this.cancelCompactionTimer();
    const quiet = Math.max(0, this.opts.compactDelayMs ?? COMPACT_DELAY_MS);
    const delay = Math.max(0, Math.min(quiet, this.compactAskedAt + Math.max(quiet, COMPACT_MAX_WAIT_MS) - t));
    this.compactTimer = setTimeout(() => {
      this.compactTimer = undefined;
      void this.flushCompaction();
    }, delay);
    // A pending compaction never keeps a CLI process alive; close() runs it instead.
    this.compactTimer.unref?.();
  }

  private cancelCompactionTimer(): void {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = undefined;
  }

  /** True when events.jsonl passed the size or event-count bound. One stat; lines are counted once. */
  private logTooBig(): boolean {
    const bytes = logBytes(this.dir);
    if (bytes > (this.opts.compactLogBytes ?? AUTO_COMPACT_BYTES)) return true;
    const maxEvents = this.opts.compactLogEvents ?? AUTO_COMPACT_EVENTS;
    if (this.logEvents === undefined) {
      if (bytes <= maxEvents * MIN_EVENT_BYTES) return false;
      this.logEvents = countLines(path.join(this.dir, EVENTS_FILE)) - 1; // minus the header
    }
    return this.logEvents > maxEvents;
  }

  async rebuildIndex(opts: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {}): Promise<void> {
    await this.ensureVectors();
    return this.serial(async () => {
      this.rebuildDerived();
      if (this.vectors) await this.vectors.rebuild(this.state.all().map(vectorItem), this.embedder, { onProgress: opts.onProgress, signal: opts.signal });
    });
  }

  async close(): Promise<void> {
    this.closing ??= this.closeInner();
    return this.closing;
  }

  private async closeInner(): Promise<void> {
    // A compaction still waiting for its quiet time runs now: forgotten text must not wait for the next
    // session (a CLI `forget` exits right after). A follow-up it owes is paid at the next open.
    if (this.compactWanted) await this.flushCompaction();
    this.cancelCompactionTimer();
    this.closed = true;
    await this.refreshing;
    await this.writes.catch(() => undefined);
    await this.vectorsReady?.catch(() => undefined);
    this.listeners.clear();
    await this.vectors?.close();
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

  private require(id: string): Memory {
    const m = this.state.get(id);
    if (!m) throw new Error(`no memory with id ${id}`);
    return m;
  }

  private defaultOwner() {
    return { scope: 'workspace' as const, ...(this.opts.workspaceId ? { workspace: this.opts.workspaceId } : {}) };
  }

  /** Masks, fills defaults, computes the signature key, clamps maturity, and flags instruction-like text. */
  private prepare(input: Memory, now: number, trusted: boolean): Memory {
    // Masking first: nothing below (not even the duplicate check) sees a secret. maskRecord also takes
    // out, in any case, what a caller derived from the raw text (a lower-cased signature key).
    // An id is a name, never silently rewritten by masking (two e-mail ids would become one «email»).
    if (input.id && findSecrets(input.id).length) throw new Error('a memory id may not hold personal data or a secret (it would be masked and collide)');
    // eslint-disable-next-line no-control-regex
    if (input.id && /[\x00-\x1f\x7f-\x9f]/.test(input.id)) throw new Error('a memory id may not hold control characters');
    // Terminal escapes and control characters leave here, before anything is stored or shown.
    const m = maskRecord(sanitizeRecord({ ...input })) as Memory;
    m.id = m.id || newId(m.kind[0]);
    m.createdAt ??= now;
    m.updatedAt ??= m.createdAt;
    m.accessCount ??= 0;
    m.importance ??= 0.5;
    m.tags ??= [];
    m.scope ??= [];
    const badScope = scopeProblem(m.scope);
    if (badScope) throw new Error(badScope);
    m.source ??= 'manual';
    m.owner ??= this.defaultOwner();
    m.confidence ??= { ...PRIOR };
    m.maturity ??= 'observation';
    if (!trusted && UNTRUSTED_SOURCES.has(m.source) && m.maturity !== 'observation') m.maturity = 'observation';
    if (m.kind === 'lesson') {
      m.evidence ??= [];
      m.stack ??= [];
      m.errorText ??= '';
      if (!m.errorSignature && m.errorText) m.errorSignature = signatureKeyOf(m.errorText) ?? '';
    }
    const reasons = detectMemoryInjection(m);
    if (reasons.length) m.flagged = [...new Set([...(m.flagged ?? []), ...reasons])];
    return m;
  }

  /**
   * Where and when a memory was seen before the feedback just recorded, for trust.differentContext:
   * its creation, the episodes behind it (their workspace, files and start), and the workspaces that had
   * already confirmed it. "Re-validated in a different context" means different from all of these.
   */
  private evidenceStamps(m: Memory, workspace: string | undefined): ContextStamp[] {
    const stamps: ContextStamp[] = [{ workspace: m.owner?.workspace, at: m.createdAt }];
    if (m.kind !== 'lesson') return stamps;
    for (const id of m.evidence) {
      const e = this.state.get(id);
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

  private findDuplicate(m: Lesson): Lesson | undefined {
    const ids = this.bySignature.get(m.errorSignature);
    if (!ids) return undefined;
    for (const id of ids) {
      const other = this.state.get(id);
      if (other?.kind === 'lesson' && this.sameLesson(other, m)) return other;
    }
    return undefined;
  }

  /** Same lesson = same signature and fix (trust.isDuplicateLesson), and the same scope and owner:
   *  a twin in another scope is a different memory, whatever its fix says. */
  private sameLesson(a: Lesson, b: Lesson): boolean {
    return isDuplicateLesson(a, b) && sameScope(a.scope, b.scope) && (a.owner?.scope ?? 'workspace') === (b.owner?.scope ?? 'workspace');
  }

  private async mergeEvidence(existing: Lesson, m: Lesson, now: number): Promise<void> {
    const evidenceIds = m.evidence.length ? m.evidence : [m.id];
    const events: MemoryEvent[] = evidenceIds
      .filter(e => !existing.evidence.includes(e))
      .map(evidenceId => ({ type: 'evidence' as const, id: existing.id, at: now, evidenceId, reason: 'same error fixed the same way' }));
    if (!events.length) return;
    await this.commit(events);
    const cur = this.state.get(existing.id);
    if (!cur) return;
    const t = evaluatePromotion(cur, { now, workspace: this.opts.workspaceId });
    if (t) await this.commit([{ type: t.kind, id: cur.id, at: now, from: cur.maturity, to: t.to, reason: t.reason }]);
  }

  /** Durable append, then fold into state and every derived index. */
  private async commit(events: MemoryEvent[]): Promise<void> {
    if (!events.length) return;
    await this.log.append(events);
    if (this.logEvents !== undefined) this.logEvents += events.length;
    await this.applyDerived(events);
    if (this.opts.readOnly) return;
    if (events.some(e => e.type === 'deleted' || e.type === 'expired')) {
      // Removed text leaves the disk at compaction, two of them (see COMPACT_PENDING_FILE).
      setOwedCompactions(this.dir, 2, this.logger);
      this.scheduleCompaction();
    } else if (!this.compactWanted && this.logTooBig()) {
      this.scheduleCompaction();
    }
  }

  private async applyDerived(events: MemoryEvent[]): Promise<void> {
    const textChanged = new Set<string>();
    const touched = new Set<string>();
    for (const ev of events) {
      if (!this.state.apply(ev)) continue;
      touched.add(ev.id);
      if (ev.type === 'recorded' || ev.type === 'updated' || ev.type === 'deleted' || ev.type === 'expired') textChanged.add(ev.id);
    }
    const upserts: Memory[] = [];
    for (const id of textChanged) {
      const m = this.state.get(id);
      if (m) { this.index(m); upserts.push(m); } else this.unindex(id);
    }
    if (this.vectors && textChanged.size) {
      try {
        const gone = [...textChanged].filter(id => !this.state.has(id));
        if (gone.length) this.vectors.remove(gone);
        if (upserts.length) await this.vectors.upsert(upserts.map(vectorItem), this.embedder);
      } catch (e) {
        this.logger.warn(`vector index update failed (recall continues on words): ${(e as Error).message}`);
      }
    }
    if (touched.size) this.fire([...touched]);
  }

  private rebuildDerived(): void {
    for (const id of [...this.sigOf.keys()]) this.unindex(id);
    for (const m of this.state.all()) this.index(m);
  }

  /**
   * The same as rebuildDerived, for open(): the word index of a large store takes seconds to build, and
   * in the extension host that thread is the editor's, so it is given back every ~16 ms. Nothing else
   * can write meanwhile: the store is not handed out until open() resolves.
   */
  private async rebuildDerivedInSlices(): Promise<void> {
    for (const id of [...this.sigOf.keys()]) this.unindex(id);
    let sliceStart = performance.now();
    for (const m of this.state.all()) {
      this.index(m);
      if (performance.now() - sliceStart > 16) {
        await new Promise<void>(resolve => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  private index(m: Memory): void {
    this.lexical.add(m.id, memoryText(m));
    const keys = memorySignatures(m);
    const old = this.sigOf.get(m.id);
    if (old && old.join('\n') === keys.join('\n')) return;
    if (old) this.unfile(m.id);
    for (const key of keys) {
      let set = this.bySignature.get(key);
      if (!set) { set = new Set(); this.bySignature.set(key, set); }
      set.add(m.id);
    }
    if (keys.length) this.sigOf.set(m.id, keys);
  }

  private unindex(id: string): void {
    this.lexical.remove(id);
    this.unfile(id);
  }

  private unfile(id: string): void {
    for (const key of this.sigOf.get(id) ?? []) {
      const set = this.bySignature.get(key);
      set?.delete(id);
      if (set && !set.size) this.bySignature.delete(key);
    }
    this.sigOf.delete(id);
  }

  private fire(ids: string[]): void {
    for (const l of [...this.listeners]) {
      try { l(ids); } catch (e) { this.logger.error(e as Error); }
    }
  }
}

/** A user-typed reason lands in the log and the history view: it is masked like every other text. */
function maskedReason(reason: string | undefined): { reason?: string } {
  return reason ? { reason: maskSecrets(reason) } : {};
}

function vectorItem(m: Memory): IndexItemInput {
  const text = memoryText(m);
  return { id: m.id, text, hash: createHash('sha1').update(text).digest('hex') };
}

/** Identity + size + mtime of the current log: changes whenever anyone appends or compacts. */
function logStamp(dir: string): string {
  try {
    const st = fs.statSync(path.join(dir, EVENTS_FILE));
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/** Compactions the folder still owes to removed text (0 when none, or the marker is unreadable). */
function owedCompactions(dir: string): number {
  try {
    const n = Number(readFileNoFollowSync(path.join(dir, COMPACT_PENDING_FILE)).buf.toString('utf8').trim());
    return Number.isInteger(n) && n > 0 ? Math.min(n, 2) : 0;
  } catch {
    return 0;
  }
}

function setOwedCompactions(dir: string, n: number, logger: Logger): void {
  const file = path.join(dir, COMPACT_PENDING_FILE);
  try {
    // Replaced, not written through: a link planted at this name is swapped out, its target untouched.
    if (n > 0) { if (owedCompactions(dir) !== n) writeFileAtomicSync(file, String(n)); } else fs.rmSync(file, { force: true });
  } catch (e) {
    // Only the next-open reminder is lost: this session still compacts on its timer.
    logger.warn(`could not update ${COMPACT_PENDING_FILE}: ${(e as Error).message}`);
  }
}

function countLines(file: string): number {
  let buf: Buffer;
  try { buf = readFileNoFollowSync(file).buf; } catch { return 0; }
  let n = 0;
  for (let i = buf.indexOf(0x0a); i >= 0; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** Size of the current event log (0 when missing). */
function logBytes(dir: string): number {
  try { return fs.statSync(path.join(dir, EVENTS_FILE)).size; } catch { return 0; }
}

function sameScope(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((g, i) => g === y[i]);
}

