// Reads view.bin (layout in viewFormat.ts): opening reads the header and the eager sections (ids,
// lengths, the word dictionary, signature and evidence tables) in one read and checks each by its CRC;
// memories, histories and postings stay on disk and are read when asked for, each checked by its own
// CRC. A check that fails is never worked around: open() reports the problem and the caller rebuilds the
// view from the log; a piece that fails later is reported through `damage` and reads as missing until the
// caller has rebuilt (MemoryStore does, before it answers).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FrozenPostings, FrozenWords } from '../core/lexical/layeredBm25';
import type { HistoryEntry, Memory, MemoryKind } from '../core/types';
import { openNoFollowSync } from './privateFiles';
import {
  EAGER_SECTIONS, FLAG_PINNED, HEADER_BYTES, KIND_CODES, KIND_MASK, LAZY_SECTIONS, StringTable, VIEW_FILE, VIEW_FORMAT, VIEW_MAGIC,
  crc32, type EagerName, type ViewHeader,
} from './viewFormat';

type Views = {
  [K in EagerName]: Uint8Array | Uint32Array | Float64Array;
};

/** A piece of the view failed its check where it could not be skipped: the caller rebuilds from the log. */
export class ViewDamagedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ViewDamagedError';
  }
}

/** Documents found for an id lookup are remembered, up to this many. */
const MAX_ID_CACHE = 20_000;
/** A pass over documents in order reads records this many bytes at a time (ViewFile.scan). */
const SCAN_BYTES = 1 << 20;

/** Memories and histories read in ascending document order, many per read (ViewFile.scan). */
export interface ViewScan {
  rawRecord(doc: number): Buffer | undefined;
  rawHistory(doc: number): Buffer | undefined;
  record(doc: number): Memory | undefined;
  history(doc: number): HistoryEntry[];
}

type Reader = (pos: number, len: number) => Buffer;

export class ViewFile implements FrozenWords {
  readonly docs: number;
  readonly totalLen: number;
  /** Set when a piece read on demand failed its check: the view must be rebuilt from the log. */
  damage?: string;
  private readonly ids: StringTable;
  private readonly terms: StringTable;
  private readonly sigs: StringTable;
  private readonly texts: StringTable;
  private readonly tombs: StringTable;
  private readonly episodes: StringTable;
  private readonly idCache = new Map<string, number>();
  private closed = false;

  private constructor(readonly file: string, private readonly fd: number, readonly header: ViewHeader, private readonly v: Views) {
    this.docs = header.docs;
    this.totalLen = header.totalLen;
    this.ids = new StringTable(v.idBlob as Uint8Array, v.idOff as Uint32Array);
    this.terms = new StringTable(v.termBlob as Uint8Array, v.termOff as Uint32Array);
    this.sigs = new StringTable(v.sigBlob as Uint8Array, v.sigOff as Uint32Array);
    this.texts = new StringTable(v.stxBlob as Uint8Array, v.stxOff as Uint32Array);
    this.tombs = new StringTable(v.tombBlob as Uint8Array, v.tombOff as Uint32Array);
    this.episodes = new StringTable(v.evBlob as Uint8Array, v.evOff as Uint32Array);
  }

  /** The store's view, checked; `undefined` when there is none, `{ problem }` when it cannot be trusted. */
  static open(dir: string, name = VIEW_FILE): ViewFile | { problem: string } | undefined {
    const file = path.join(dir, name);
    let fd: number;
    try { fd = openNoFollowSync(file, fs.constants.O_RDONLY); } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return { problem: `${name} cannot be read (${(e as Error).message})` };
    }
    try {
      const r = readChecked(fd, name);
      if ('problem' in r) { fs.closeSync(fd); return r; }
      return new ViewFile(file, fd, r.header, r.views);
    } catch (e) {
      fs.closeSync(fd);
      return { problem: `${name} cannot be read (${(e as Error).message})` };
    }
  }

  /** Only the header of the store's view (which log position it covers), checked; undefined when none or unreadable. */
  static header(dir: string, name = VIEW_FILE): ViewHeader | undefined {
    let fd: number;
    try { fd = openNoFollowSync(path.join(dir, name), fs.constants.O_RDONLY); } catch { return undefined; }
    try {
      const r = readHeader(fd, name);
      return 'problem' in r ? undefined : r.header;
    } catch {
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try { fs.closeSync(this.fd); } catch { /* already closed */ }
  }

  get revision(): number { return this.header.revision; }

  // ---- documents ----

  docId(doc: number): string { return this.ids.at(doc); }

  docOf(id: string): number {
    const hit = this.idCache.get(id);
    if (hit !== undefined) return hit;
    const sort = this.v.idSort as Uint32Array;
    let lo = 0, hi = this.docs - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids.at(sort[mid]);
      if (v === id) { found = sort[mid]; break; }
      if (v < id) lo = mid + 1; else hi = mid - 1;
    }
    if (this.idCache.size >= MAX_ID_CACHE) this.idCache.clear();
    this.idCache.set(id, found);
    return found;
  }

  kind(doc: number): MemoryKind { return KIND_CODES[(this.v.docKind as Uint8Array)[doc] & KIND_MASK]; }
  pinned(doc: number): boolean { return ((this.v.docKind as Uint8Array)[doc] & FLAG_PINNED) !== 0; }
  expiresAt(doc: number): number | undefined { const x = (this.v.docExp as Float64Array)[doc]; return Number.isNaN(x) ? undefined : x; }
  docLen(doc: number): number { return (this.v.docLen as Uint32Array)[doc]; }

  /** The memory's JSON as stored (a snapshot line is `{"m":` + this + `}`), CRC checked; undefined when damaged. */
  rawRecord(doc: number, read: Reader = this.reader): Buffer | undefined {
    const recOff = this.v.recOff as Float64Array, histOff = this.v.histOff as Float64Array;
    return this.piece(recOff[doc], histOff[doc], (this.v.recCrc as Uint32Array)[doc], `memory ${doc}`, read);
  }

  rawHistory(doc: number, read: Reader = this.reader): Buffer | undefined {
    const recOff = this.v.recOff as Float64Array, histOff = this.v.histOff as Float64Array;
    return this.piece(histOff[doc], recOff[doc + 1], (this.v.histCrc as Uint32Array)[doc], `history ${doc}`, read);
  }

  /**
   * For a pass over the documents in ascending order (writing the next view, a snapshot, listing every
   * memory): records and histories lie in document order, so they are read a megabyte at a time instead
   * of two reads per document; each piece is still checked by its own CRC. Random reads (a recall's few
   * hundred records) stay single reads.
   */
  scan(): ViewScan {
    const rec = this.header.sections.rec;
    let winAt = 0;
    let win: Buffer = Buffer.alloc(0);
    // A new buffer per window: pieces handed out earlier (a view writer's pending chunks) stay valid.
    const read: Reader = (pos, len) => {
      if (pos >= winAt && pos + len <= winAt + win.length) return win.subarray(pos - winAt, pos - winAt + len);
      winAt = pos;
      win = this.read(pos, Math.max(len, Math.min(SCAN_BYTES, rec.at + rec.len - pos)));
      return win.subarray(0, Math.min(len, win.length));
    };
    return {
      rawRecord: doc => this.rawRecord(doc, read),
      rawHistory: doc => this.rawHistory(doc, read),
      record: doc => this.record(doc, read),
      history: doc => this.history(doc, read),
    };
  }

  record(doc: number, read: Reader = this.reader): Memory | undefined {
    const raw = this.rawRecord(doc, read);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw.toString('utf8')) as Memory;
    } catch {
      this.damage ??= `${VIEW_FILE}: memory ${doc} does not parse`;
      return undefined;
    }
  }

  history(doc: number, read: Reader = this.reader): HistoryEntry[] {
    const raw = this.rawHistory(doc, read);
    if (!raw?.length) return [];
    try {
      const h = JSON.parse(raw.toString('utf8')) as unknown;
      return Array.isArray(h) ? h as HistoryEntry[] : [];
    } catch {
      this.damage ??= `${VIEW_FILE}: history ${doc} does not parse`;
      return [];
    }
  }

  private readonly reader: Reader = (pos, len) => this.read(pos, len);

  private piece(from: number, to: number, crc: number, what: string, read: Reader): Buffer | undefined {
    const buf = read(this.header.sections.rec.at + from, to - from);
    if (buf.length !== to - from || crc32(buf) !== crc) {
      this.damage ??= `${VIEW_FILE}: ${what} fails its check`;
      return undefined;
    }
    return buf;
  }

  private read(pos: number, len: number): Buffer {
    const buf = Buffer.from(new ArrayBuffer(len));
    let off = 0;
    while (off < len) {
      const n = fs.readSync(this.fd, buf, off, len - off, pos + off);
      if (n === 0) break;
      off += n;
    }
    return off === len ? buf : buf.subarray(0, off);
  }

  // ---- words ----

  get termCount(): number { return this.terms.size; }
  termAt(k: number): string { return this.terms.at(k); }
  termId(token: string): number { return this.terms.find(token); }

  postings(token: string): FrozenPostings | undefined {
    const k = this.terms.find(token);
    return k < 0 ? undefined : this.postingsAt(k);
  }

  /** Term k's postings (documents ascending); undefined when the block fails its check. */
  postingsAt(k: number): FrozenPostings | undefined {
    const n = (this.v.postLen as Uint32Array)[k];
    const bytes = n * 6;
    const buf = this.read(this.header.sections.post.at + (this.v.postOff as Float64Array)[k], bytes);
    if (buf.length !== bytes || crc32(buf) !== (this.v.postCrc as Uint32Array)[k]) {
      this.damage ??= `${VIEW_FILE}: the postings of term ${k} fail their check`;
      return undefined;
    }
    return { docs: new Uint32Array(buf.buffer, buf.byteOffset, n), counts: new Uint16Array(buf.buffer, buf.byteOffset + 4 * n, n) };
  }

  // ---- signatures, evidence, constraints, tombstones ----

  get signatureCount(): number { return this.sigs.size; }
  signatureAt(i: number): string { return this.sigs.at(i); }
  signatureDocsAt(i: number): Uint32Array { return slice(this.v.sigPostOff as Uint32Array, this.v.sigPost as Uint32Array, i); }

  /** Base documents filed under a signature key (ascending). */
  signatureDocs(key: string): Uint32Array | undefined {
    const i = this.sigs.find(key);
    return i < 0 ? undefined : this.signatureDocsAt(i);
  }

  /** Signature keys whose message text (recallQuery.signatureTextOf) is `text`. */
  keysWithText(text: string): string[] {
    const i = this.texts.find(text);
    if (i < 0) return [];
    return [...slice(this.v.stxPostOff as Uint32Array, this.v.stxPost as Uint32Array, i)].map(k => this.sigs.at(k));
  }

  get episodeCount(): number { return this.episodes.size; }
  episodeAt(i: number): string { return this.episodes.at(i); }
  lessonDocsAt(i: number): Uint32Array { return slice(this.v.evPostOff as Uint32Array, this.v.evPost as Uint32Array, i); }

  /** Base documents of the lessons that cite this episode as evidence (ascending). */
  lessonDocsOf(episodeId: string): Uint32Array | undefined {
    const i = this.episodes.find(episodeId);
    return i < 0 ? undefined : this.lessonDocsAt(i);
  }

  get constraintDocs(): Uint32Array { return this.v.cons as Uint32Array; }

  isTombstoned(id: string): boolean { return this.tombs.find(id) >= 0; }
  get tombstoneCount(): number { return this.tombs.size; }
  tombstoneAt(i: number): string { return this.tombs.at(i); }
}

function slice(off: Uint32Array, list: Uint32Array, i: number): Uint32Array {
  return list.subarray(off[i], off[i + 1]);
}

function readHeader(fd: number, name: string): { header: ViewHeader; size: number } | { problem: string } {
  if (os.endianness() !== 'LE') return { problem: `${name} is little-endian and this machine is not` };
  const size = fs.fstatSync(fd).size;
  if (size < HEADER_BYTES) return { problem: `${name} is truncated` };
  const head = Buffer.alloc(HEADER_BYTES);
  fs.readSync(fd, head, 0, HEADER_BYTES, 0);
  if (head.toString('latin1', 0, 8) !== VIEW_MAGIC) return { problem: `${name} is not a view file` };
  const format = head.readUInt32LE(8), len = head.readUInt32LE(12), crc = head.readUInt32LE(16);
  if (format !== VIEW_FORMAT) return { problem: `${name} has format ${format}, this version reads ${VIEW_FORMAT}` };
  if (len > HEADER_BYTES - 20 || crc32(head.subarray(20, 20 + len)) !== crc) return { problem: `${name} has a damaged header` };
  let header: ViewHeader;
  try { header = JSON.parse(head.toString('utf8', 20, 20 + len)) as ViewHeader; } catch { return { problem: `${name} has a damaged header` }; }
  if (!header || typeof header !== 'object' || !header.log || typeof header.docs !== 'number') return { problem: `${name} has a damaged header` };
  return { header, size };
}

/** Header and eager sections, every check passed, or the first problem found. */
function readChecked(fd: number, name: string): { header: ViewHeader; views: Views } | { problem: string } {
  const h = readHeader(fd, name);
  if ('problem' in h) return h;
  const { header, size } = h;
  const { eager, sections } = header;
  if (!eager || !sections || eager.at + eager.len > size) return { problem: `${name} is truncated` };
  for (const s of LAZY_SECTIONS) if (!sections[s] || sections[s].at + sections[s].len > size) return { problem: `${name} is truncated` };
  const region = Buffer.from(new ArrayBuffer(eager.len));
  let off = 0;
  while (off < eager.len) {
    const n = fs.readSync(fd, region, off, eager.len - off, eager.at + off);
    if (n === 0) return { problem: `${name} is truncated` };
    off += n;
  }
  const views = {} as Views;
  for (const [sec, type] of EAGER_SECTIONS) {
    const ref = sections[sec];
    const start = ref ? ref.at - eager.at : -1;
    if (!ref || start < 0 || start % 8 || start + ref.len > eager.len) return { problem: `${name}: section ${sec} is missing` };
    const bytes = region.subarray(start, start + ref.len);
    if (crc32(bytes) !== ref.crc) return { problem: `${name}: section ${sec} is damaged (checksum mismatch)` };
    const at = region.byteOffset + start;
    views[sec] = type === 'u8' ? new Uint8Array(region.buffer, at, ref.len)
      : type === 'u32' ? new Uint32Array(region.buffer, at, ref.len / 4) : new Float64Array(region.buffer, at, ref.len / 8);
  }
  const d = header.docs;
  const shapes: [EagerName, number][] = [['recOff', d + 1], ['histOff', d], ['recCrc', d], ['histCrc', d], ['idOff', d + 1], ['idSort', d],
    ['docLen', d], ['docKind', d], ['docExp', d], ['termOff', header.terms + 1], ['postOff', header.terms], ['postLen', header.terms], ['postCrc', header.terms]];
  for (const [sec, n] of shapes) if (views[sec].length !== n) return { problem: `${name}: section ${sec} has the wrong length` };
  return { header, views };
}
