// The canonical, append-only event log (see docs/ARCHITECTURE.md for the folder layout).
// Longer than ~400 lines on purpose: append, readNew and compact are one state machine over the same
// files, lock and offsets, and the invariants below hold only if they are read and changed together.
// The parts that stand alone are already outside (eventParse.ts, lock.ts, atomicFile.ts, privateFiles.ts).
//
// Invariants that make recovery possible:
// - events.jsonl starts with a header line carrying its generation g; snapshot.json with generation s
//   contains the fold of every log with generation <= s. Replay skips logs with g <= s, so a snapshot
//   is never double-applied, whatever step a compaction crashed at.
// - snapshot.prev.json + events.prev.jsonl fold to the same state as snapshot.json, so a damaged
//   snapshot falls back to them; nothing is ever overwritten with less than it held.
// - Appends are one write of whole lines + fsync under the folder lock: a crash leaves at most one
//   torn line at the tail, which readers skip and the next writer truncates.
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import { MemoryState } from '../core/reduce';
import type { Logger, MemoryEvent } from '../core/types';
import type { LogPosition } from './viewFormat';
import { nullLogger } from '../core/types';
import { copyFileAtomicSync, fsyncDir, removeStaleTempFiles, renameWithRetry, writeFileAtomicSync } from './atomicFile';
import { withLock, type LockOptions } from './lock';
import { mkdirPrivateSync, openNoFollowSync, readFileNoFollowSync } from './privateFiles';
import { parseEvent } from './eventParse';
import { checkSnapshot, readSnapshot, snapshotEvents, writeSnapshotSync, type ParsedSnapshot, type SnapshotSource } from './snapshotFile';

import { EVENTS_FILE, EVENTS_PREV_FILE, SNAPSHOT_FILE, SNAPSHOT_PREV_FILE } from './logFiles';

export { EVENTS_FILE, EVENTS_PREV_FILE, SNAPSHOT_FILE, SNAPSHOT_PREV_FILE };
export const SNAPSHOT_NEXT_FILE = 'snapshot.next.json';

const FORMAT = 1;
/** A position is checked against this many bytes before it (and the header line). */
const TAIL_CHECK_BYTES = 4096;

export interface EventLogOptions {
  logger?: Logger;
  lock?: LockOptions;
  /** Never create or modify files (append/compact throw). */
  readOnly?: boolean;
  /**
   * When the log was replaced in a way that cannot be followed, readNew hands out no events but
   * `reset`, and the caller reads again itself (readFrom a persisted view's position, else readAll)
   * instead of this reading the whole log for it.
   */
  reloadOnReset?: boolean;
}

export interface ReadResult {
  events: MemoryEvent[];
  /** What recovery did, one sentence each (torn line skipped, snapshot damaged, ...). */
  warnings: string[];
}

export interface ReadNewResult extends ReadResult {
  /** True when the log was replaced in a way we could not follow (e.g. two compactions by another process):
   *  `events` is then the FULL state stream and the caller must rebuild its state from scratch. */
  reset: boolean;
}

export interface CompactResult {
  generation: number;
  /** Events other processes appended that the caller had not seen yet: apply them (or rebuild if `reset`). */
  newEvents: MemoryEvent[];
  reset: boolean;
  /** Memories dropped because `expiresAt` passed; the caller should drop them from its state too. */
  expired: string[];
  /** Live memories written to the snapshot. */
  memories: number;
}

/** A write that failed; `code` keeps the errno (ENOSPC, EROFS, EACCES, ...) so the UI can say why. */
export class StoreWriteError extends Error {
  constructor(readonly code: string, readonly filePath: string, cause: unknown) {
    super(`${describeCode(code)}: could not write ${filePath}${cause instanceof Error ? ` (${cause.message})` : ''}`);
    this.name = 'StoreWriteError';
  }
}

function describeCode(code: string): string {
  switch (code) {
    case 'ENOSPC': return 'The disk is full';
    case 'EDQUOT': return 'The disk quota is exceeded';
    case 'EROFS': return 'The memory folder is on a read-only file system';
    case 'EACCES': case 'EPERM': return 'No permission to write the memory folder';
    case 'ELOCKED': return 'The memory folder is locked by another process';
    default: return `Write failed (${code})`;
  }
}

function wrapWriteError(err: unknown, file: string): Error {
  if (err instanceof StoreWriteError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  return code ? new StoreWriteError(code, file, err) : (err as Error);
}

interface LogHeader { engram: 'events'; v: number; generation: number; createdAt: number }

interface ParsedLog {
  file: string;
  exists: boolean;
  generation?: number;
  events: MemoryEvent[];
  /** Bytes up to and including the last complete line. */
  consumed: number;
  size: number;
  ino: number;
  warnings: string[];
  headerOk: boolean;
}


function header(generation: number): string {
  const h: LogHeader = { engram: 'events', v: FORMAT, generation, createdAt: Date.now() };
  return JSON.stringify(h) + '\n';
}

function parseHeader(line: string): number | undefined {
  try {
    const v = JSON.parse(line) as Partial<LogHeader>;
    if (v && v.engram === 'events' && typeof v.generation === 'number' && Number.isInteger(v.generation) && v.generation > 0) return v.generation;
  } catch { /* not a header */ }
  return undefined;
}

/** Parses log bytes from `start`; only complete lines are consumed, a torn tail is reported. */
/** `byteBase`: `buf` is the file from that byte on (a tail read); lines are then named by their byte. */
function parseLogBytes(buf: Buffer, start: number, name: string, out: ParsedLog, expectHeader: boolean, byteBase?: number): void {
  const last = buf.lastIndexOf(0x0a);
  const end = last >= start ? last + 1 : start;
  let pos = start;
  // Line numbers are 1-based over the whole file; count lines before `start` only when needed.
  let lineNo = start === 0 || byteBase !== undefined ? 0 : countNewlines(buf, start);
  let lineAt = 0;
  const where = () => (byteBase === undefined ? `line ${lineNo}` : `the line at byte ${byteBase + lineAt}`);
  while (pos < end) {
    const nl = buf.indexOf(0x0a, pos);
    const line = buf.toString('utf8', pos, nl);
    lineAt = pos;
    pos = nl + 1;
    lineNo++;
    if (!line.trim()) continue;
    if (expectHeader && lineNo === 1) {
      const g = parseHeader(line);
      if (g !== undefined) { out.generation = g; out.headerOk = true; continue; }
      out.warnings.push(`${name}: line 1 is not a valid header; reading the file as events`);
    }
    let value: unknown;
    try { value = JSON.parse(line); } catch {
      out.warnings.push(`${name}: skipped garbled ${where()}`);
      continue;
    }
    const ev = parseEvent(value);
    if (typeof ev === 'string') { out.warnings.push(`${name}: skipped ${where()} (${ev})`); continue; }
    out.events.push(ev);
  }
  out.consumed = end;
  if (buf.length > end) out.warnings.push(`${name}: skipped an incomplete last line (${buf.length - end} bytes), left by an interrupted write`);
}

function countNewlines(buf: Buffer, end: number): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i >= 0 && i < end; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

function emptyLog(file: string): ParsedLog {
  return { file, exists: false, events: [], consumed: 0, size: 0, ino: 0, warnings: [], headerOk: false };
}

/** The generation in a log's header, reading only its first line (undefined: missing or no header). */
function peekGeneration(file: string): number | undefined {
  let fd: number;
  try { fd = openNoFollowSync(file, fs.constants.O_RDONLY); } catch { return undefined; }
  try {
    const buf = Buffer.alloc(512);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const nl = buf.subarray(0, n).indexOf(0x0a);
    return nl < 0 ? undefined : parseHeader(buf.toString('utf8', 0, nl));
  } finally {
    fs.closeSync(fd);
  }
}

function readLog(file: string, name: string): ParsedLog {
  const out = emptyLog(file);
  let buf: Buffer;
  try {
    ({ buf, ino: out.ino } = readFileNoFollowSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    // Unreadable is not empty: carrying on would show no memories and let a compaction drop them.
    throw err;
  }
  out.exists = true;
  out.size = buf.length;
  if (buf.length === 0) { out.warnings.push(`${name} is empty (no header)`); return out; }
  parseLogBytes(buf, 0, name, out, true);
  return out;
}

export class EventLog {
  private gen = 1;
  private ino = 0;
  private offset = 0;
  private pending: MemoryEvent[] = [];
  private pendingWarnings: string[] = [];
  private pendingReset = false;
  /** reloadOnReset: the caller must read again (readAll or readFrom) before anything more is handed out. */
  private reloadNeeded = false;
  /** Set when recovery could not prove it found everything, so compaction keeps damaged files aside. */
  private lossSuspected = false;
  private readonly logger: Logger;

  private constructor(readonly dir: string, private readonly opts: EventLogOptions) {
    this.logger = opts.logger ?? nullLogger;
  }

  static async open(dir: string, opts: EventLogOptions = {}): Promise<EventLog> {
    if (!opts.readOnly) {
      mkdirPrivateSync(dir);
      removeStaleTempFiles(dir);
    }
    return new EventLog(dir, opts);
  }

  get generation(): number { return this.gen; }
  /** How far this reader has read events.jsonl (bytes), in which generation. */
  get readPosition(): { generation: number; offset: number } { return { generation: this.gen, offset: this.offset }; }
  private p(name: string): string { return path.join(this.dir, name); }

  /** Full recovery read: best snapshot + every newer log. Resets what readNew() tracks. */
  async readAll(): Promise<ReadResult> {
    if (!this.opts.readOnly) {
      try {
        await withLock(this.dir, () => this.finishInterruptedCompaction(), this.opts.lock);
      } catch (err) {
        // Reading must still work on a read-only medium; replay handles the interrupted state too.
        this.logger.warn(`Could not complete an interrupted compaction: ${(err as Error).message}`);
      }
    }
    const r = this.readAllSync();
    this.pending = [];
    this.pendingWarnings = [];
    this.pendingReset = false;
    this.reloadNeeded = false;
    for (const w of r.warnings) this.logger.warn(w);
    return r;
  }

  private readAllSync(): ReadResult {
    const warnings: string[] = [];
    // Read only what recovery needs: the prev pair is parsed when the newer snapshot is not intact.
    const snaps = [SNAPSHOT_FILE, SNAPSHOT_NEXT_FILE].map(n => readSnapshot(this.p(n), n));
    if (!snaps.some(x => x.ok)) snaps.push(readSnapshot(this.p(SNAPSHOT_PREV_FILE), SNAPSHOT_PREV_FILE));
    const bestGen = Math.max(0, ...snaps.filter(x => x.ok).map(x => x.generation ?? 0));
    const prevGen = peekGeneration(this.p(EVENTS_PREV_FILE));
    const prev = prevGen !== undefined && prevGen <= bestGen
      ? { ...emptyLog(this.p(EVENTS_PREV_FILE)), exists: true, generation: prevGen, headerOk: true }
      : readLog(this.p(EVENTS_PREV_FILE), EVENTS_PREV_FILE);
    const cur = readLog(this.p(EVENTS_FILE), EVENTS_FILE);
    this.lossSuspected = false;

    const valid = snaps.filter(s => s.ok).sort((a, b) => (b.generation ?? 0) - (a.generation ?? 0));
    const main = snaps[0];
    let base: ParsedSnapshot | undefined = valid[0];
    let baseGen = base?.generation ?? 0;
    if (main.exists && !main.ok) {
      warnings.push(`${main.problem}; recovering from ${base ? path.basename(base.file) : 'the event logs'}`);
    }
    // Logs to replay, in generation order. A headerless current log belongs after everything known.
    const knownGens = [baseGen, ...snaps.map(s => s.generation ?? 0), prev.generation ?? 0];
    if (cur.exists && cur.generation === undefined) cur.generation = Math.max(...knownGens) + 1;
    const logs = [prev, cur].filter(l => l.exists && l.generation !== undefined && l.generation > baseGen)
      .sort((a, b) => a.generation! - b.generation!);
    if (!base) {
      const damaged = snaps.filter(s => s.exists && !s.ok).sort((a, b) => (b.generation ?? 0) - (a.generation ?? 0));
      const firstLogGen = logs[0]?.generation ?? Infinity;
      if (damaged.length && firstLogGen > 1) {
        // No intact snapshot and the logs do not reach back to the beginning: keep what still parses.
        base = damaged[0];
        baseGen = base.generation ?? firstLogGen - 1;
        this.lossSuspected = true;
        warnings.push(`No intact snapshot: salvaged ${base.memories.length} memories from ${path.basename(base.file)}; some may be missing. The damaged file is kept.`);
      }
    }
    const events: MemoryEvent[] = base ? snapshotEvents(base) : [];
    let expect = baseGen + 1;
    for (const l of logs) {
      if (l.generation! > expect && !(l === cur && !cur.headerOk)) {
        this.lossSuspected = true;
        warnings.push(`Events of generation ${expect}${l.generation! - 1 > expect ? `–${l.generation! - 1}` : ''} are missing; memories from that period may be lost`);
      }
      expect = l.generation! + 1;
      warnings.push(...l.warnings);
      for (const e of l.events) events.push(e);
    }
    if (prev.exists && prev.generation === undefined && prev.size > 0) {
      warnings.push(...prev.warnings, `${EVENTS_PREV_FILE} has no readable header and was not replayed`);
    }
    if (cur.exists && cur.size === 0) warnings.push(...cur.warnings);

    this.gen = cur.generation ?? Math.max(...knownGens, prev.generation ?? 0) + 1;
    if (cur.exists && cur.generation !== undefined && cur.generation <= baseGen) {
      warnings.push(`${EVENTS_FILE} (generation ${cur.generation}) is older than the snapshot; it is already included`);
    }
    this.ino = cur.ino;
    this.offset = cur.consumed;
    return { events, warnings: dedupe(warnings) };
  }

  /**
   * Completes a compaction that crashed after writing snapshot.next.json, so the current log never has
   * a generation the snapshot already covers (appends there would be skipped on replay). Lock held.
   */
  private finishInterruptedCompaction(): void {
    const S = this.p(SNAPSHOT_FILE), SN = this.p(SNAPSHOT_NEXT_FILE), SP = this.p(SNAPSHOT_PREV_FILE);
    const L = this.p(EVENTS_FILE), LP = this.p(EVENTS_PREV_FILE);
    if (!fs.existsSync(SN)) return;
    const next = checkSnapshot(SN, SNAPSHOT_NEXT_FILE);
    const cur = checkSnapshot(S, SNAPSHOT_FILE);
    if (!next.ok || (cur.ok && (cur.generation ?? 0) >= (next.generation ?? 0))) {
      fs.unlinkSync(SN); // leftover of a compaction that finished, or never completed its write
      return;
    }
    const g = next.generation!;
    this.logger.warn(`Completing an interrupted compaction (generation ${g})`);
    if (cur.ok) renameWithRetry(S, SP);
    else copyFileAtomicSync(SN, SP);
    const log = readLog(L, EVENTS_FILE);
    if (log.exists && log.generation === g) renameWithRetry(L, LP);
    renameWithRetry(SN, S);
    if (!fs.existsSync(L)) writeFileAtomicSync(L, header(g + 1));
    fsyncDir(this.dir);
  }

  /** Appends events durably: when this resolves they are on disk (fsync) and other processes can read them. */
  async append(events: MemoryEvent[]): Promise<void> {
    if (!events.length) return;
    if (this.opts.readOnly) throw new StoreWriteError('EROFS', this.dir, new Error('store opened read-only'));
    let data = '';
    for (const e of events) data += JSON.stringify(e) + '\n';
    const buf = Buffer.from(data, 'utf8');
    const file = this.p(EVENTS_FILE);
    try {
      await withLock(this.dir, () => {
        this.catchUpLocked();
        const fd = this.openCurrentForAppend(file);
        try {
          const size = fs.fstatSync(fd).size;
          let off = 0;
          try {
            while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off, size + off);
            fs.fsyncSync(fd);
          } catch (err) {
            // Leave no partial line behind: the caller is told it failed, so it must not half-exist.
            try { fs.ftruncateSync(fd, size); fs.fsyncSync(fd); } catch { /* the next writer truncates the torn tail */ }
            throw err;
          }
          this.offset = size + buf.length;
          // After a reset the caller rebuilds from `pending`, which was read before these were written
          // (with reloadNeeded it reads the log again, these included).
          if (this.pendingReset && !this.reloadNeeded) this.pending.push(...events);
        } finally {
          fs.closeSync(fd);
        }
      }, this.opts.lock);
    } catch (err) {
      throw wrapWriteError(err, file);
    }
  }

  /** Opens events.jsonl for writing, creating it with a header and dropping a torn tail. Lock held. */
  private openCurrentForAppend(file: string): number {
    let fd: number;
    try {
      fd = openNoFollowSync(file, fs.constants.O_RDWR);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      writeFileAtomicSync(file, header(this.gen));
      fd = openNoFollowSync(file, fs.constants.O_RDWR);
      this.ino = fs.fstatSync(fd).ino;
      this.offset = fs.fstatSync(fd).size;
      return fd;
    }
    const st = fs.fstatSync(fd);
    if (st.size === 0) {
      // Emptied (damage, or a crash right after creation): restore the header so readers know the generation.
      const h = Buffer.from(header(this.gen));
      fs.writeSync(fd, h, 0, h.length, 0);
      fs.fsyncSync(fd);
      this.offset = h.length;
      this.ino = st.ino;
    } else if (st.size > this.offset && st.ino === this.ino) {
      // catchUpLocked consumed every complete line, so what remains is a torn write by a crashed writer.
      this.logger.warn(`${EVENTS_FILE}: dropped an incomplete last line (${st.size - this.offset} bytes) left by an interrupted write`);
      fs.ftruncateSync(fd, this.offset);
      fs.fsyncSync(fd);
    }
    return fd;
  }

  /** Events other processes appended since we last read (including across their compactions). */
  async readNew(): Promise<ReadNewResult> {
    if (this.opts.readOnly) this.catchUpLocked();
    else await withLock(this.dir, () => this.catchUpLocked(), this.opts.lock);
    return this.takePending();
  }

  private takePending(): ReadNewResult {
    const r = { events: this.pending, warnings: this.pendingWarnings, reset: this.pendingReset };
    this.pending = [];
    this.pendingWarnings = [];
    this.pendingReset = false;
    for (const w of r.warnings) this.logger.warn(w);
    return r;
  }

  /**
   * Reads what others appended into `pending`. Must run under the lock (or read-only). `fullOnReset`:
   * a log that cannot be followed is read whole here even with reloadOnReset (compaction needs it now).
   */
  private catchUpLocked(fullOnReset = false): void {
    if (this.reloadNeeded) {
      if (!fullOnReset) return;
      this.reloadNeeded = false;
      this.readEverything();
      return;
    }
    const file = this.p(EVENTS_FILE);
    let st: fs.Stats | undefined;
    try { st = fs.lstatSync(file); } catch { /* missing: nothing new, or we create it on append */ }
    if (!st) return;
    if (this.ino === 0) {
      // We saw no log when we last read; another process has since created it. Adopt it if it continues
      // our generation, else start over.
      const cur = readLog(file, EVENTS_FILE);
      if (cur.generation === undefined || cur.generation === this.gen) {
        this.pending.push(...cur.events);
        this.pendingWarnings.push(...cur.warnings.filter(w => !w.includes('incomplete last line')));
        this.ino = cur.ino;
        this.offset = cur.consumed;
        return;
      }
    }
    // The same file is the same inode AND the same generation: after two compactions in a row the new
    // log can get the inode number our deleted one had (file systems reuse them at once), and reading it
    // from our old offset would skip everything before that offset without a word.
    if (st.ino === this.ino && st.size >= this.offset && this.sameGeneration(file)) {
      if (st.size === this.offset) return;
      this.readTail(file, EVENTS_FILE, this.offset);
      return;
    }
    // The file was replaced: another process compacted. If only once, the rest of our generation is in
    // events.prev.jsonl and the new log continues it; otherwise start over from the snapshot.
    const prevFile = this.p(EVENTS_PREV_FILE);
    let prevSt: fs.Stats | undefined;
    try { prevSt = fs.statSync(prevFile); } catch { /* none */ }
    const cur = readLog(file, EVENTS_FILE);
    if (prevSt && prevSt.ino === this.ino && this.ino !== 0 && cur.generation === this.gen + 1 && this.sameGeneration(prevFile)) {
      this.readTail(prevFile, EVENTS_PREV_FILE, this.offset);
      this.pending.push(...cur.events);
      this.pendingWarnings.push(...cur.warnings);
      this.gen = cur.generation;
      this.ino = cur.ino;
      this.offset = cur.consumed;
      return;
    }
    if (this.opts.reloadOnReset && !fullOnReset) {
      this.pending = [];
      this.pendingReset = true;
      this.reloadNeeded = true;
      return;
    }
    this.readEverything();
  }

  private readEverything(): void {
    const all = this.readAllSync();
    this.pending = all.events;
    this.pendingWarnings.push(...all.warnings);
    this.pendingReset = true;
  }

  /** The log file carries our generation in its header (a headerless legacy log is judged by inode alone). */
  private sameGeneration(file: string): boolean {
    const g = peekGeneration(file);
    return g === undefined || g === this.gen;
  }

  /** Parses what follows `from` in a log, reading only that part (a log can be far larger than its tail). */
  private readTail(file: string, name: string, from: number): void {
    const fd = openNoFollowSync(file, fs.constants.O_RDONLY);
    let buf: Buffer;
    try {
      const size = fs.fstatSync(fd).size;
      buf = Buffer.alloc(Math.max(0, size - from));
      let off = 0;
      while (off < buf.length) { const n = fs.readSync(fd, buf, off, buf.length - off, from + off); if (!n) break; off += n; }
      buf = buf.subarray(0, off);
    } finally {
      fs.closeSync(fd);
    }
    const out: ParsedLog = { file, exists: true, events: [], consumed: 0, size: from + buf.length, ino: this.ino, warnings: [], headerOk: true };
    parseLogBytes(buf, 0, name, out, false, from);
    this.pending.push(...out.events);
    // A torn tail seen while reading someone else's log may still be being written: say nothing yet.
    this.pendingWarnings.push(...out.warnings.filter(w => !w.includes('incomplete last line')));
    this.offset = from + out.consumed;
  }

  /**
   * Writes the state as a snapshot and starts a new generation. Content of deleted and expired memories
   * is not written; after two compactions it is gone from every file (the .prev pair keeps one step back).
   * With a MemoryState, `state` is not modified: events others appended meanwhile are folded into the
   * snapshot and returned. A CompactSource is handed those events under the lock instead (it folds them
   * into itself before it is written) and `newEvents` comes back empty.
   */
  async compact(state: MemoryState | CompactSource, opts: { now?: number } = {}): Promise<CompactResult> {
    if (this.opts.readOnly) throw new StoreWriteError('EROFS', this.dir, new Error('store opened read-only'));
    const now = opts.now ?? Date.now();
    try {
      return await withLock(this.dir, () => {
        const r = this.compactLocked(state, now);
        // Still under the lock: whatever was derived from the old generation goes (it may hold removed text).
        if (!(state instanceof MemoryState)) state.rotated();
        return r;
      }, this.opts.lock);
    } catch (err) {
      throw wrapWriteError(err, this.p(SNAPSHOT_FILE));
    }
  }

  private compactLocked(state: MemoryState | CompactSource, now: number): CompactResult {
    this.catchUpLocked(true);
    const fresh = this.takePending();
    let source: SnapshotSource;
    let handed = false;
    if (state instanceof MemoryState) {
      let folded = state;
      if (fresh.reset || fresh.events.length) {
        folded = new MemoryState();
        if (!fresh.reset) folded.applyAll(snapshotEvents({ memories: state.all(), tombstones: state.tombstoneIds() }));
        folded.applyAll(fresh.events);
      }
      source = stateSource(folded);
    } else {
      state.catchUp(fresh);
      handed = true;
      source = state;
    }
    const g = this.gen;
    const S = this.p(SNAPSHOT_FILE), SN = this.p(SNAPSHOT_NEXT_FILE), SP = this.p(SNAPSHOT_PREV_FILE);
    const L = this.p(EVENTS_FILE), LP = this.p(EVENTS_PREV_FILE);
    // 1. the new snapshot, complete and durable, under a name recovery already understands
    const written = writeSnapshotSync(SN, g, now, source);
    // 2. the old snapshot becomes prev (only if intact: a damaged one must not replace a good prev)
    const old = checkSnapshot(S, SNAPSHOT_FILE);
    if (old.ok) {
      renameWithRetry(S, SP);
    } else {
      copyFileAtomicSync(SN, SP); // prev := new state, so prev + events.prev (generation g) is still exact
      if (old.exists) {
        if (this.lossSuspected) renameWithRetry(S, this.p(`snapshot.damaged-${now}.json`));
        else fs.unlinkSync(S);
      }
    }
    // 3. the current log becomes prev; it must carry its generation so replay can skip it
    if (peekGeneration(L) !== undefined) renameWithRetry(L, LP);
    else {
      const cur = readLog(L, EVENTS_FILE);
      let data = header(g);
      for (const e of cur.events) data += JSON.stringify(e) + '\n';
      writeFileAtomicSync(LP, data);
      try { fs.unlinkSync(L); } catch { /* was missing */ }
    }
    // 4. publish the snapshot, 5. start the next generation
    renameWithRetry(SN, S);
    writeFileAtomicSync(L, header(g + 1));
    fsyncDir(this.dir);
    const st = fs.statSync(L);
    this.gen = g + 1;
    this.ino = st.ino;
    this.offset = st.size;
    this.lossSuspected = false;
    if (!handed) return { generation: g + 1, newEvents: fresh.events, reset: fresh.reset, expired: written.expired, memories: written.count };
    return { generation: g + 1, newEvents: [], reset: false, expired: written.expired, memories: written.count };
  }

  // ---- positions: what a persisted view (viewStore.ts) covers ----

  /**
   * Where this reader stands in the log: every event before it has been handed out (readAll, readFrom,
   * readNew, or written by append with nothing pending). Undefined when that cannot be told (no header,
   * events pending, or the file replaced since).
   */
  position(): LogPosition | undefined {
    if (this.pending.length || this.pendingReset || !this.ino) return undefined;
    let fd: number;
    try { fd = openNoFollowSync(this.p(EVENTS_FILE), fs.constants.O_RDONLY); } catch { return undefined; }
    try {
      const st = fs.fstatSync(fd);
      if (st.ino !== this.ino || st.size < this.offset) return undefined;
      const ident = logIdentity(fd, this.offset);
      if (!ident || ident.generation !== this.gen) return undefined;
      return { generation: this.gen, offset: this.offset, head: ident.head, tail: ident.tail };
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Starts reading at a position a view covers instead of from the snapshot: the events after it, when
   * events.jsonl is still the log the position was taken in (same generation, same header, the same bytes
   * before the offset). Undefined when it is not: the caller then reads everything (readAll).
   */
  async readFrom(pos: LogPosition): Promise<ReadResult | undefined> {
    if (!this.opts.readOnly && fs.existsSync(this.p(SNAPSHOT_NEXT_FILE))) {
      try { await withLock(this.dir, () => this.finishInterruptedCompaction(), this.opts.lock); } catch { return undefined; }
    }
    let fd: number;
    try { fd = openNoFollowSync(this.p(EVENTS_FILE), fs.constants.O_RDONLY); } catch { return undefined; }
    try {
      const st = fs.fstatSync(fd);
      if (st.size < pos.offset) return undefined;
      const ident = logIdentity(fd, pos.offset);
      if (!ident || ident.generation !== pos.generation || ident.head !== pos.head || ident.tail !== pos.tail) return undefined;
      const buf = Buffer.alloc(st.size - pos.offset);
      let off = 0;
      while (off < buf.length) { const n = fs.readSync(fd, buf, off, buf.length - off, pos.offset + off); if (!n) break; off += n; }
      const out: ParsedLog = { ...emptyLog(this.p(EVENTS_FILE)), exists: true, ino: st.ino, headerOk: true };
      parseLogBytes(buf.subarray(0, off), 0, EVENTS_FILE, out, false, pos.offset);
      this.gen = pos.generation;
      this.ino = st.ino;
      this.offset = pos.offset + out.consumed;
      this.pending = [];
      this.pendingWarnings = [];
      this.pendingReset = false;
      this.reloadNeeded = false;
      this.lossSuspected = false;
      for (const w of out.warnings) this.logger.warn(w);
      return { events: out.events, warnings: out.warnings };
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** What compaction asks of a store that folds the log itself (MemoryStore): the events to fold first. */
export interface CompactSource extends SnapshotSource {
  /** Under the lock, before the snapshot is written: what others appended (or, on reset, the full state). */
  catchUp(fresh: ReadNewResult): void;
  /** Under the lock, once the new generation has started. */
  rotated(): void;
}

function stateSource(state: MemoryState): SnapshotSource {
  return {
    *memories(now: number) {
      for (const m of state.all()) {
        yield { id: m.id, json: JSON.stringify(m), expired: m.expiresAt !== undefined && m.expiresAt <= now && !m.pinned };
      }
    },
    tombstones: () => state.tombstoneIds(),
  };
}

/** True when events.jsonl in `dir` is still the log `pos` was taken in (its first `offset` bytes unchanged). */
export function logCovers(dir: string, pos: LogPosition): boolean {
  let fd: number;
  try { fd = openNoFollowSync(path.join(dir, EVENTS_FILE), fs.constants.O_RDONLY); } catch { return false; }
  try {
    if (fs.fstatSync(fd).size < pos.offset) return false;
    const ident = logIdentity(fd, pos.offset);
    return !!ident && ident.generation === pos.generation && ident.head === pos.head && ident.tail === pos.tail;
  } finally {
    fs.closeSync(fd);
  }
}

/** Bytes of the log's identity: its header line's hash and generation, and the hash of what precedes `offset`. */
function logIdentity(fd: number, offset: number): { generation: number; head: string; tail: string } | undefined {
  const headBuf = Buffer.alloc(512);
  const n = fs.readSync(fd, headBuf, 0, headBuf.length, 0);
  const nl = headBuf.subarray(0, n).indexOf(0x0a);
  if (nl < 0 || offset < nl + 1) return undefined;
  const generation = parseHeader(headBuf.toString('utf8', 0, nl));
  if (generation === undefined) return undefined;
  const from = Math.max(0, offset - TAIL_CHECK_BYTES);
  const tailBuf = Buffer.alloc(offset - from);
  let off = 0;
  while (off < tailBuf.length) { const r = fs.readSync(fd, tailBuf, off, tailBuf.length - off, from + off); if (!r) return undefined; off += r; }
  if (tailBuf[tailBuf.length - 1] !== 0x0a) return undefined; // a position is always at a line's end
  return {
    generation,
    head: createHash('sha1').update(headBuf.subarray(0, nl + 1)).digest('hex'),
    tail: createHash('sha1').update(tailBuf).digest('hex'),
  };
}

/**
 * Identity + size + mtime of the current log: changes whenever anyone appends or compacts, so a reader
 * can tell cheaply that another process wrote ('none' when there is no log).
 */
export function logStamp(dir: string): string {
  try {
    const st = fs.statSync(path.join(dir, EVENTS_FILE));
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'none';
  }
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}
