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
import type { Logger, Memory, MemoryEvent } from '../core/types';
import { nullLogger } from '../core/types';
import { fsyncDir, removeStaleTempFiles, renameWithRetry, writeFileAtomicSync } from './atomicFile';
import { withLock, type LockOptions } from './lock';
import { mkdirPrivateSync, openNoFollowSync, readFileNoFollowSync } from './privateFiles';
import { parseEvent, parseMemory } from './eventParse';

export const EVENTS_FILE = 'events.jsonl';
export const EVENTS_PREV_FILE = 'events.prev.jsonl';
export const SNAPSHOT_FILE = 'snapshot.json';
export const SNAPSHOT_PREV_FILE = 'snapshot.prev.json';
export const SNAPSHOT_NEXT_FILE = 'snapshot.next.json';

const FORMAT = 1;

export interface EventLogOptions {
  logger?: Logger;
  lock?: LockOptions;
  /** Never create or modify files (append/compact throw). */
  readOnly?: boolean;
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

interface ParsedSnapshot {
  file: string;
  exists: boolean;
  ok: boolean;
  generation?: number;
  memories: Memory[];
  tombstones: string[];
  problem?: string;
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
function parseLogBytes(buf: Buffer, start: number, name: string, out: ParsedLog, expectHeader: boolean): void {
  const last = buf.lastIndexOf(0x0a);
  const end = last >= start ? last + 1 : start;
  let pos = start;
  // Line numbers are 1-based over the whole file; count lines before `start` only when needed.
  let lineNo = start === 0 ? 0 : countNewlines(buf, start);
  while (pos < end) {
    const nl = buf.indexOf(0x0a, pos);
    const line = buf.toString('utf8', pos, nl);
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
      out.warnings.push(`${name}: skipped garbled line ${lineNo}`);
      continue;
    }
    const ev = parseEvent(value);
    if (typeof ev === 'string') { out.warnings.push(`${name}: skipped line ${lineNo} (${ev})`); continue; }
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

function snapshotBody(memories: Memory[], tombstones: string[]): string {
  let body = '';
  for (const m of memories) body += JSON.stringify({ m }) + '\n';
  for (const t of tombstones) body += JSON.stringify({ t }) + '\n';
  return body;
}

function readSnapshot(file: string, name: string): ParsedSnapshot {
  const out: ParsedSnapshot = { file, exists: false, ok: false, memories: [], tombstones: [] };
  let text: string;
  try { text = readFileNoFollowSync(file).buf.toString('utf8'); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err; // see readLog
  }
  out.exists = true;
  if (!text.length) { out.problem = `${name} is empty`; return out; }
  const nl = text.indexOf('\n');
  let head: { engram?: string; generation?: number; sha256?: string; count?: number } | undefined;
  try { head = JSON.parse(nl < 0 ? text : text.slice(0, nl)); } catch { /* damaged header */ }
  const body = nl < 0 ? '' : text.slice(nl + 1);
  if (head && head.engram === 'snapshot' && typeof head.generation === 'number') out.generation = head.generation;
  // Salvage what parses even when damaged: it is the last resort when no older copy can replace it.
  for (const line of body.split('\n')) {
    if (!line) continue;
    try {
      const v = JSON.parse(line) as { m?: unknown; t?: unknown };
      if (v.m !== undefined) { const m = parseMemory(v.m); if (typeof m !== 'string') out.memories.push(m); }
      else if (typeof v.t === 'string') out.tombstones.push(v.t);
    } catch { /* counted as damage through the checksum */ }
  }
  if (out.generation === undefined) { out.problem = `${name} has a damaged header`; return out; }
  const sha = createHash('sha256').update(body, 'utf8').digest('hex');
  if (head?.sha256 !== sha) { out.problem = `${name} is damaged (checksum mismatch)`; return out; }
  out.ok = true;
  return out;
}

/** Events that rebuild a snapshot's state: a record per live memory, and a stub record + delete per
 *  tombstone so a late duplicate of a forgotten memory stays forgotten. Stubs carry no content. */
function snapshotEvents(s: { memories: Memory[]; tombstones: string[] }): MemoryEvent[] {
  const events: MemoryEvent[] = [];
  for (const m of s.memories) events.push({ type: 'recorded', id: m.id, at: m.updatedAt ?? m.createdAt ?? 0, memory: m });
  for (const id of s.tombstones) {
    const stub = { id, kind: 'fact', content: '', tags: [], scope: [] } as unknown as Memory;
    events.push({ type: 'recorded', id, at: 0, memory: stub }, { type: 'deleted', id, at: 0, reason: 'forgotten (from snapshot)' });
  }
  return events;
}

export class EventLog {
  private gen = 1;
  private ino = 0;
  private offset = 0;
  private pending: MemoryEvent[] = [];
  private pendingWarnings: string[] = [];
  private pendingReset = false;
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
    const next = readSnapshot(SN, SNAPSHOT_NEXT_FILE);
    const cur = readSnapshot(S, SNAPSHOT_FILE);
    if (!next.ok || (cur.ok && (cur.generation ?? 0) >= (next.generation ?? 0))) {
      fs.unlinkSync(SN); // leftover of a compaction that finished, or never completed its write
      return;
    }
    const g = next.generation!;
    this.logger.warn(`Completing an interrupted compaction (generation ${g})`);
    if (cur.ok) renameWithRetry(S, SP);
    else writeFileAtomicSync(SP, readFileNoFollowSync(SN).buf);
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
          // After a reset the caller rebuilds from `pending`, which was read before these were written.
          if (this.pendingReset) this.pending.push(...events);
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

  /** Reads what others appended into `pending`. Must run under the lock (or read-only). */
  private catchUpLocked(): void {
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

  private readTail(file: string, name: string, from: number): void {
    const { buf } = readFileNoFollowSync(file);
    const out: ParsedLog = { file, exists: true, events: [], consumed: from, size: buf.length, ino: this.ino, warnings: [], headerOk: true };
    parseLogBytes(buf, from, name, out, false);
    this.pending.push(...out.events);
    // A torn tail seen while reading someone else's log may still be being written: say nothing yet.
    this.pendingWarnings.push(...out.warnings.filter(w => !w.includes('incomplete last line')));
    this.offset = out.consumed;
  }

  /**
   * Writes the state as a snapshot and starts a new generation. Content of deleted and expired memories
   * is not written; after two compactions it is gone from every file (the .prev pair keeps one step back).
   * `state` is not modified: events others appended meanwhile are folded into the snapshot and returned.
   */
  async compact(state: MemoryState, opts: { now?: number } = {}): Promise<CompactResult> {
    if (this.opts.readOnly) throw new StoreWriteError('EROFS', this.dir, new Error('store opened read-only'));
    const now = opts.now ?? Date.now();
    try {
      return await withLock(this.dir, () => this.compactLocked(state, now), this.opts.lock);
    } catch (err) {
      throw wrapWriteError(err, this.p(SNAPSHOT_FILE));
    }
  }

  private compactLocked(state: MemoryState, now: number): CompactResult {
    this.catchUpLocked();
    const fresh = this.takePending();
    let folded = state;
    if (fresh.reset || fresh.events.length) {
      folded = new MemoryState();
      if (!fresh.reset) folded.applyAll(snapshotEvents({ memories: state.all(), tombstones: state.tombstoneIds() }));
      folded.applyAll(fresh.events);
    }
    const expired: string[] = [];
    const memories: Memory[] = [];
    for (const m of folded.all()) {
      if (m.expiresAt !== undefined && m.expiresAt <= now && !m.pinned) expired.push(m.id);
      else memories.push(m);
    }
    const tombstones = [...folded.tombstoneIds(), ...expired];
    const g = this.gen;
    const body = snapshotBody(memories, tombstones);
    const sha = createHash('sha256').update(body, 'utf8').digest('hex');
    const text = JSON.stringify({ engram: 'snapshot', v: FORMAT, generation: g, createdAt: now, count: memories.length, sha256: sha }) + '\n' + body;

    const S = this.p(SNAPSHOT_FILE), SN = this.p(SNAPSHOT_NEXT_FILE), SP = this.p(SNAPSHOT_PREV_FILE);
    const L = this.p(EVENTS_FILE), LP = this.p(EVENTS_PREV_FILE);
    // 1. the new snapshot, complete and durable, under a name recovery already understands
    writeFileAtomicSync(SN, text);
    // 2. the old snapshot becomes prev (only if intact: a damaged one must not replace a good prev)
    const old = readSnapshot(S, SNAPSHOT_FILE);
    if (old.ok) {
      renameWithRetry(S, SP);
    } else {
      writeFileAtomicSync(SP, text); // prev := new state, so prev + events.prev (generation g) is still exact
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
    return { generation: g + 1, newEvents: fresh.events, reset: fresh.reset, expired, memories: memories.length };
  }
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
