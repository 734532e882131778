// The layout of view.bin, the store's persisted view (docs/ARCHITECTURE.md, "Storage folder layout"): the
// log folded into live memories, their histories and every index recall uses, as of one log position.
// Shared by the reader (viewFile.ts) and the writer (viewWriter.ts), so the two cannot disagree.
//
// [0, HEADER_BYTES)  magic, format, header length, CRC-32 of the header, then the header (JSON)
// then sections, each starting on an 8-byte boundary, little-endian typed arrays:
//   read on demand (pread), each piece checked by its own CRC-32:
//     rec   per document its memory's JSON, then its history's JSON
//     post  per term a block: its documents (u32, ascending), then their counts (u16), padded to 4 bytes
//   read at open, in one read of the "eager" range, each section checked by its CRC-32: all others
import * as zlib from 'zlib';

export const VIEW_FILE = 'view.bin';
export const VIEW_MAGIC = 'ENGRVIEW';
export const VIEW_FORMAT = 1;
export const HEADER_BYTES = 4096;

/** The log position a view covers: events.jsonl of `generation`, its first `offset` bytes. */
export interface LogPosition {
  generation: number;
  offset: number;
  /** SHA-1 of the log's header line, and of the bytes just before `offset`: the same log, not a namesake. */
  head: string;
  tail: string;
}

export interface SectionRef { at: number; len: number; crc?: number }

export interface ViewHeader {
  format: number;
  log: LogPosition;
  /** The state's revision when written (MemoryState.revision), continued by the process that opens it. */
  revision: number;
  docs: number;
  terms: number;
  totalLen: number;
  createdAt: number;
  sections: Record<string, SectionRef>;
  /** The byte range holding every eager section. */
  eager: { at: number; len: number };
}

/** Sections read on demand; all others are eager. */
export const LAZY_SECTIONS = ['rec', 'post'] as const;

/**
 * Eager sections: [name, element type]. recOff (docs + 1) and histOff (docs) are byte offsets into rec
 * (a document's history runs to the next one's record); postOff is a byte offset into post and postLen
 * the number of documents of each term. String tables are a UTF-8 blob plus offsets, sorted in
 * JavaScript string order; the lists after them (…PostOff into …Post) are document numbers ascending.
 */
export const EAGER_SECTIONS = [
  ['recOff', 'f64'], ['histOff', 'f64'], ['recCrc', 'u32'], ['histCrc', 'u32'],
  ['idBlob', 'u8'], ['idOff', 'u32'], ['idSort', 'u32'],
  ['docLen', 'u32'], ['docKind', 'u8'], ['docExp', 'f64'],
  ['termBlob', 'u8'], ['termOff', 'u32'], ['postOff', 'f64'], ['postLen', 'u32'], ['postCrc', 'u32'],
  ['sigBlob', 'u8'], ['sigOff', 'u32'], ['sigPostOff', 'u32'], ['sigPost', 'u32'],
  ['stxBlob', 'u8'], ['stxOff', 'u32'], ['stxPostOff', 'u32'], ['stxPost', 'u32'],
  ['tombBlob', 'u8'], ['tombOff', 'u32'],
  ['evBlob', 'u8'], ['evOff', 'u32'], ['evPostOff', 'u32'], ['evPost', 'u32'],
  ['cons', 'u32'],
] as const;

export type EagerName = typeof EAGER_SECTIONS[number][0];

/** docKind: the kind in the low bits, flags above. */
export const KIND_CODES = ['lesson', 'episode', 'fact', 'rule'] as const;
export const KIND_MASK = 0x0f;
export const FLAG_PINNED = 0x10;

export function align8(n: number): number {
  return (n + 7) & ~7;
}

// ---- CRC-32 (IEEE), zlib's when this Node has it (20.15+), else a table ----

let table: Int32Array | undefined;

function crc32Js(data: Uint8Array, crc = 0): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const native = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

export function crc32(data: Uint8Array, crc = 0): number {
  return native ? native(data, crc) : crc32Js(data, crc);
}

// ---- string tables ----

/** Sorted strings as a UTF-8 blob and offsets (count + 1 of them), searched without decoding them all. */
export class StringTable {
  constructor(private readonly blob: Uint8Array, private readonly off: Uint32Array) {}

  get size(): number { return Math.max(0, this.off.length - 1); }

  at(i: number): string {
    return Buffer.from(this.blob.buffer, this.blob.byteOffset + this.off[i], this.off[i + 1] - this.off[i]).toString('utf8');
  }

  /** Index of `s`, or -1 (binary search in JavaScript string order). */
  find(s: string): number {
    let lo = 0, hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.at(mid);
      if (v === s) return mid;
      if (v < s) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }
}

/** Blob + offsets for strings already in order. */
export function encodeStrings(strings: readonly string[]): { blob: Buffer; off: Uint32Array } {
  const bufs = strings.map(s => Buffer.from(s, 'utf8'));
  const off = new Uint32Array(strings.length + 1);
  let at = 0;
  bufs.forEach((b, i) => { off[i] = at; at += b.length; });
  off[strings.length] = at;
  return { blob: Buffer.concat(bufs, at), off };
}

/** Ascending JavaScript string order (what StringTable.find searches). */
export function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
