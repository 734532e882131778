// When the store compacts its log: after a forget or an expiry (removed text must leave the disk), when
// the log outgrew its bounds, or when an earlier session still owes it. Debounced, so a burst compacts
// once; the debt is kept in a file so it survives a closed window or a CLI process.
import * as fs from 'fs';
import * as path from 'path';
import type { Logger, MemoryEvent } from '../core/types';
import { writeFileAtomicSync } from './atomicFile';
import { EVENTS_FILE, SNAPSHOT_FILE, type CompactResult } from './eventLog';
import { openNoFollowSync, readFileNoFollowSync } from './privateFiles';

/**
 * How many compactions the folder still owes to removed text ("2" after a forget or expiry: the first
 * keeps it in the .prev pair, the second drops it).
 */
export const COMPACT_PENDING_FILE = '.compact-pending';

/** Cleanup compacts when the log has grown past this (or half the snapshot), even if nothing expired. */
export const CLEANUP_COMPACT_BYTES = 4 * 1024 * 1024;
/**
 * After appends: compact when the log passes either bound (see CompactorOptions), or for a large store
 * the snapshot's own size: a compaction rewrites the whole snapshot, so a fixed bound made a long import
 * rewrite it again every few megabytes (quadratic); growing with the snapshot keeps the rewrites
 * geometric (linear in total). Opening does not replay the log since the view covers it (viewKeeper.ts).
 */
const AUTO_COMPACT_BYTES = 8 * 1024 * 1024;
const AUTO_COMPACT_EVENTS = 20_000;
/** The event bound grows with the snapshot too: one event per this many snapshot bytes. */
const SNAPSHOT_BYTES_PER_EVENT = 256;
const COMPACT_DELAY_MS = 2000;
/** A debounce that keeps being re-armed (a long import, a stream of forgets) still runs by then. */
const COMPACT_MAX_WAIT_MS = 30_000;
/** The shortest event line (an `accessed` event): below events × this many bytes, the event bound cannot be hit. */
const MIN_EVENT_BYTES = 32;

export interface CompactorOptions {
  /** Quiet time before a compaction runs (default 2 s); the follow-up that clears the .prev pair waits as long again. */
  compactDelayMs?: number;
  /** Compact once events.jsonl is larger than this (default 8 MB). */
  compactLogBytes?: number;
  /** Compact once events.jsonl holds more events than this since the last snapshot (default 20 000). */
  compactLogEvents?: number;
}

/** What a compaction needs of the store. */
export interface CompactHost {
  compactLog(): Promise<CompactResult>;
  /** The log was replaced under us: rebuild the state from these events. */
  reset(events: MemoryEvent[]): Promise<void>;
  apply(events: MemoryEvent[]): Promise<void>;
  now(): number;
}

export class Compactor {
  /** A compaction is due (debounced by the timer). */
  private wanted = false;
  private askedAt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  /** Events in events.jsonl, counted on first need and then kept up to date (undefined: not counted). */
  private logEvents?: number;

  /** `run` compacts (in the store's write queue) and calls `compacted` with its outcome; false when it failed. */
  constructor(
    private readonly dir: string,
    private readonly opts: CompactorOptions,
    private readonly logger: Logger,
    private readonly run: () => Promise<boolean>,
    private readonly inactive: () => boolean,
  ) {}

  get due(): boolean { return this.wanted; }

  /** At open: removed text an earlier session could not finish clearing, or a log that outgrew its bounds. */
  checkAtOpen(): void {
    if (owedCompactions(this.dir) > 0 || this.logTooBig()) this.schedule();
  }

  /** After an append of ours: removed text leaves the disk at compaction, two of them (COMPACT_PENDING_FILE). */
  appended(events: MemoryEvent[]): void {
    if (this.logEvents !== undefined) this.logEvents += events.length;
    if (events.some(e => e.type === 'deleted' || e.type === 'expired')) {
      setOwedCompactions(this.dir, 2, this.logger);
      this.schedule();
    } else if (!this.wanted && this.logTooBig()) {
      this.schedule();
    }
  }

  /** Events other writers appended (counted), or a log replaced under us (counted again when needed). */
  readOthers(n: number, reset: boolean): void {
    if (reset) this.logEvents = undefined;
    else if (this.logEvents !== undefined) this.logEvents += n;
  }

  /** True when cleanup should compact even though nothing expired. */
  logOver(bytes: number): boolean { return logBytes(this.dir) > Math.max(bytes, snapshotBytes(this.dir) / 2); }

  /**
   * Compacts (the caller is in the write queue) and folds what the compaction found into the store.
   * The .prev pair keeps one step back, so text removed before this compaction (or expired by it) is
   * still on disk until the next one: that one is owed and scheduled.
   */
  async compact(host: CompactHost): Promise<{ generation: number; memories: number }> {
    // Whatever was pending is served by this compaction; a follow-up is scheduled below if one is owed.
    this.cancel();
    this.wanted = false;
    const owed = owedCompactions(this.dir);
    const r = await host.compactLog();
    this.logEvents = 0;
    if (r.reset) {
      // Another process replaced the log in a way we could not follow: newEvents is the full state.
      await host.reset(r.newEvents);
    } else if (r.newEvents.length) {
      await host.apply(r.newEvents);
    }
    // Past-expiry memories the snapshot dropped are dropped here too (no event: the snapshot is the record).
    if (r.expired.length) await host.apply(r.expired.map(id => ({ type: 'expired' as const, id, at: host.now(), reason: 'expired at compaction' })));
    const still = Math.max(owed - 1, r.expired.length ? 1 : 0);
    setOwedCompactions(this.dir, still, this.logger);
    if (still > 0) this.schedule();
    return { generation: r.generation, memories: r.memories };
  }

  /** Asks for a compaction after the quiet time; repeated asks re-arm the timer, up to COMPACT_MAX_WAIT_MS. */
  schedule(): void {
    if (this.inactive()) return;
    const t = Date.now(); // wall clock: the debounce is about real bursts, not the store's notion of now
    if (!this.wanted) { this.wanted = true; this.askedAt = t; }
    this.cancel();
    const quiet = Math.max(0, this.opts.compactDelayMs ?? COMPACT_DELAY_MS);
    const delay = Math.max(0, Math.min(quiet, this.askedAt + Math.max(quiet, COMPACT_MAX_WAIT_MS) - t));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delay);
    // A pending compaction never keeps a CLI process alive; close() runs it instead.
    this.timer.unref?.();
  }

  /**
   * Pays every compaction owed now (the two a forget or an expiry needs, a debt from an earlier session),
   * so removed text is in no file of the folder when this resolves; true when one ran. Bounded: each
   * compaction owes at most one more, and a failed one stops the loop (its debt stays on disk).
   */
  async settle(): Promise<boolean> {
    let ran = false;
    for (let i = 0; i < 3 && this.wanted; i++) {
      if (!(await this.flush())) break;
      ran = true;
    }
    return ran;
  }

  /** Runs the due compaction now instead of after its quiet time; true when one ran. */
  async flush(): Promise<boolean> {
    this.cancel();
    if (!this.wanted || this.inactive()) return false;
    return this.run();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** True when events.jsonl passed the size or event-count bound. One stat; lines are counted once. */
  private logTooBig(): boolean {
    const bytes = logBytes(this.dir);
    const snap = this.opts.compactLogBytes === undefined ? snapshotBytes(this.dir) : 0;
    if (bytes > Math.max(this.opts.compactLogBytes ?? AUTO_COMPACT_BYTES, snap)) return true;
    const maxEvents = Math.max(this.opts.compactLogEvents ?? AUTO_COMPACT_EVENTS, snap / SNAPSHOT_BYTES_PER_EVENT);
    if (this.logEvents === undefined) {
      if (bytes <= maxEvents * MIN_EVENT_BYTES) return false;
      this.logEvents = countLines(path.join(this.dir, EVENTS_FILE)) - 1; // minus the header
    }
    return this.logEvents > maxEvents;
  }
}

/**
 * Compactions the folder still owes to removed text (0 when none, or the marker is unreadable). A reader
 * that finds a debt opens the store for writing so it can pay it (the CLI's reading commands).
 */
export function owedCompactions(dir: string): number {
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

/** Lines in a file, read in chunks (a log can be large). */
function countLines(file: string): number {
  let fd: number;
  try { fd = openNoFollowSync(file, fs.constants.O_RDONLY); } catch { return 0; }
  try {
    const buf = Buffer.alloc(1 << 20);
    let n = 0;
    for (let pos = 0; ;) {
      const got = fs.readSync(fd, buf, 0, buf.length, pos);
      if (!got) return n;
      pos += got;
      for (let i = buf.indexOf(0x0a); i >= 0 && i < got; i = buf.indexOf(0x0a, i + 1)) n++;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Size of the current event log (0 when missing). */
function logBytes(dir: string): number {
  try { return fs.statSync(path.join(dir, EVENTS_FILE)).size; } catch { return 0; }
}

function snapshotBytes(dir: string): number {
  try { return fs.statSync(path.join(dir, SNAPSHOT_FILE)).size; } catch { return 0; }
}
