// snapshot.json and its siblings (eventLog.ts owns when they are written and replaced): one header line
// (generation, count, SHA-256 of the body), then a line per live memory ({"m": …}) and per tombstone
// ({"t": id}). Written streaming, straight from the store's view, so compacting a large store holds no
// more than one memory at a time; checked streaming (the checksum, nothing parsed) where only intact or
// not matters; parsed whole only for recovery.
import * as fs from 'fs';
import * as path from 'path';
import { createHash, randomBytes } from 'crypto';
import type { Memory, MemoryEvent } from '../core/types';
import { fsyncDir, renameWithRetry } from './atomicFile';
import { parseMemory } from './eventParse';
import { FILE_MODE, openNoFollowSync, readFileNoFollowSync } from './privateFiles';

export const SNAPSHOT_FORMAT = 1;

export interface ParsedSnapshot {
  file: string;
  exists: boolean;
  ok: boolean;
  generation?: number;
  memories: Memory[];
  tombstones: string[];
  problem?: string;
}

/** What a snapshot is written from: live memories in order (their JSON), then the tombstones. */
export interface SnapshotSource {
  /** Each live memory's JSON (`JSON.stringify(memory)` or the same bytes); `expired` ones become tombstones. */
  memories(now: number): Iterable<{ id: string; json: string | Uint8Array; expired: boolean }>;
  tombstones(): Iterable<string>;
}

interface SnapshotHead { engram?: string; generation?: number; sha256?: string; count?: number }

/** The header line is written last, over room kept for it at the start (JSON allows the padding). */
const HEAD_ROOM = 256;
const CHUNK = 1 << 20;

export function readSnapshot(file: string, name: string): ParsedSnapshot {
  const out: ParsedSnapshot = { file, exists: false, ok: false, memories: [], tombstones: [] };
  let text: string;
  try { text = readFileNoFollowSync(file).buf.toString('utf8'); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err; // unreadable is not empty (see eventLog.readLog)
  }
  out.exists = true;
  if (!text.length) { out.problem = `${name} is empty`; return out; }
  const nl = text.indexOf('\n');
  let head: SnapshotHead | undefined;
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

/** Whether a snapshot is intact and its generation, hashing it in chunks (nothing parsed, nothing kept). */
export function checkSnapshot(file: string, name: string): { exists: boolean; ok: boolean; generation?: number; problem?: string } {
  let fd: number;
  try { fd = openNoFollowSync(file, fs.constants.O_RDONLY); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, ok: false };
    throw err;
  }
  try {
    const buf = Buffer.alloc(CHUNK);
    const hash = createHash('sha256');
    let pos = 0, headText = '', head: SnapshotHead | undefined, inHead = true;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      let chunk = buf.subarray(0, n);
      if (inHead) {
        const nl = chunk.indexOf(0x0a);
        headText += chunk.toString('utf8', 0, nl < 0 ? n : nl);
        if (nl < 0) { if (headText.length > 64 * 1024) break; continue; }
        inHead = false;
        try { head = JSON.parse(headText) as SnapshotHead; } catch { /* damaged header */ }
        chunk = chunk.subarray(nl + 1);
      }
      hash.update(chunk);
    }
    if (pos === 0) return { exists: true, ok: false, problem: `${name} is empty` };
    const generation = head?.engram === 'snapshot' && typeof head.generation === 'number' ? head.generation : undefined;
    if (generation === undefined || inHead) return { exists: true, ok: false, problem: `${name} has a damaged header` };
    if (head?.sha256 !== hash.digest('hex')) return { exists: true, ok: false, generation, problem: `${name} is damaged (checksum mismatch)` };
    return { exists: true, ok: true, generation };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes a snapshot of `generation` to `file` (through a temporary file: readers see the old or the new
 * one, and the new one is durable when this returns). Returns the count written and the ids that expired.
 */
export function writeSnapshotSync(file: string, generation: number, now: number, source: SnapshotSource): { count: number; expired: string[] } {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', FILE_MODE);
    const hash = createHash('sha256');
    let pos = HEAD_ROOM;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const write = (s: string | Uint8Array) => {
      const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
      hash.update(b);
      pending.push(b as Buffer);
      pendingBytes += b.length;
      if (pendingBytes >= CHUNK) flush();
    };
    const flush = () => {
      const b = Buffer.concat(pending, pendingBytes);
      let off = 0;
      while (off < b.length) off += fs.writeSync(fd!, b, off, b.length - off, pos + off);
      pos += b.length;
      pending = [];
      pendingBytes = 0;
    };
    let count = 0;
    const expired: string[] = [];
    for (const m of source.memories(now)) {
      if (m.expired) { expired.push(m.id); continue; }
      write('{"m":');
      write(m.json);
      write('}\n');
      count++;
    }
    for (const t of source.tombstones()) write(JSON.stringify({ t }) + '\n');
    for (const t of expired) write(JSON.stringify({ t }) + '\n');
    flush();
    const head = JSON.stringify({ engram: 'snapshot', v: SNAPSHOT_FORMAT, generation, createdAt: now, count, sha256: hash.digest('hex') });
    if (head.length >= HEAD_ROOM) throw new Error('snapshot header too long');
    const headBuf = Buffer.from(head.padEnd(HEAD_ROOM - 1, ' ') + '\n', 'utf8');
    fs.writeSync(fd, headBuf, 0, headBuf.length, 0);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    renameWithRetry(tmp, file);
    fsyncDir(dir);
    return { count, expired };
  } catch (err) {
    if (fd !== undefined) { try { fs.closeSync(fd); } catch { /* already failing */ } }
    try { fs.unlinkSync(tmp); } catch { /* never created or already renamed */ }
    throw err;
  }
}

/** Events that rebuild a snapshot's state: a record per live memory, and a stub record + delete per
 *  tombstone so a late duplicate of a forgotten memory stays forgotten. Stubs carry no content. */
export function snapshotEvents(s: { memories: Memory[]; tombstones: string[] }): MemoryEvent[] {
  const events: MemoryEvent[] = [];
  for (const m of s.memories) events.push({ type: 'recorded', id: m.id, at: m.updatedAt ?? m.createdAt ?? 0, memory: m });
  for (const id of s.tombstones) {
    const stub = { id, kind: 'fact', content: '', tags: [], scope: [] } as unknown as Memory;
    events.push({ type: 'recorded', id, at: 0, memory: stub }, { type: 'deleted', id, at: 0, reason: 'forgotten (from snapshot)' });
  }
  return events;
}
