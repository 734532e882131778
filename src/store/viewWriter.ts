// Writes view.bin (layout in viewFormat.ts) to a temporary file in the store folder, streaming: documents
// and postings go to disk as they come (in order), only the eager tables are kept until the end. The
// caller publishes the file (viewStore.ts renames it under the store lock) or aborts it.
import * as fs from 'fs';
import * as path from 'path';
import { randomBytes } from 'crypto';
import type { MemoryKind } from '../core/types';
import { FILE_MODE } from './privateFiles';
import {
  EAGER_SECTIONS, FLAG_PINNED, HEADER_BYTES, KIND_CODES, VIEW_FILE, VIEW_FORMAT, VIEW_MAGIC, align8, byString, crc32, encodeStrings,
  type EagerName, type LogPosition, type SectionRef, type ViewHeader,
} from './viewFormat';

export interface ViewDocInput {
  id: string;
  kind: MemoryKind;
  pinned: boolean;
  expiresAt?: number;
  /** Length in tokens (BM25). */
  len: number;
  /** The memory's JSON and its history's JSON ('' or '[]' when none). */
  rec: Uint8Array;
  hist: Uint8Array;
}

export interface ViewTables {
  /** Signature key → documents filed under it (ascending), keys in any order. */
  signatures: Map<string, number[]>;
  /** Signature key → its message text (only keys that have one long enough to match on). */
  textOf(key: string): string | undefined;
  /** Episode id → documents of the lessons citing it (ascending). */
  evidence: Map<string, number[]>;
  constraints: number[];
  tombstones: Iterable<string>;
  log: LogPosition;
  revision: number;
}

/** Buffered writes to the file's end; flushed past this many bytes. */
const FLUSH_BYTES = 1 << 20;

export class ViewWriter {
  readonly tmp: string;
  private fd: number | undefined;
  private pos = HEADER_BYTES;
  private chunks: Uint8Array[] = [];
  private chunkBytes = 0;
  private readonly sections: Record<string, SectionRef> = {};
  // per document
  private recOff: number[] = [];
  private histOff: number[] = [];
  private recCrc: number[] = [];
  private histCrc: number[] = [];
  private ids: string[] = [];
  private docLen: number[] = [];
  private docKind: number[] = [];
  private docExp: number[] = [];
  private totalLen = 0;
  // per term
  private terms: string[] = [];
  private postOff: number[] = [];
  private postLen: number[] = [];
  private postCrc: number[] = [];
  private phase: 'docs' | 'terms' | 'done' = 'docs';
  private recStart = HEADER_BYTES;
  private postStart = 0;

  constructor(readonly dir: string) {
    this.tmp = path.join(dir, `.${VIEW_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    // O_EXCL: never follows a link planted at the name.
    this.fd = fs.openSync(this.tmp, 'wx', FILE_MODE);
  }

  get documents(): number { return this.ids.length; }

  addDoc(d: ViewDocInput): void {
    if (this.phase !== 'docs') throw new Error('view writer: documents come before terms');
    this.recOff.push(this.pos - this.recStart);
    this.append(d.rec);
    this.histOff.push(this.pos - this.recStart);
    this.append(d.hist);
    this.recCrc.push(crc32(d.rec));
    this.histCrc.push(crc32(d.hist));
    this.ids.push(d.id);
    this.docLen.push(d.len);
    this.totalLen += d.len;
    this.docKind.push(KIND_CODES.indexOf(d.kind as typeof KIND_CODES[number]) | (d.pinned ? FLAG_PINNED : 0));
    this.docExp.push(d.expiresAt ?? NaN);
  }

  /** A term's postings: documents ascending (numbers from addDoc's order), terms in ascending string order. */
  addTerm(term: string, docs: ArrayLike<number>, counts: ArrayLike<number>): void {
    if (this.phase === 'docs') this.startTerms();
    const n = docs.length;
    if (!n) return;
    if (this.terms.length && !(this.terms[this.terms.length - 1] < term)) throw new Error('view writer: terms out of order');
    const block = Buffer.alloc(align4(6 * n));
    const d32 = new Uint32Array(block.buffer, block.byteOffset, n);
    const c16 = new Uint16Array(block.buffer, block.byteOffset + 4 * n, n);
    for (let i = 0; i < n; i++) { d32[i] = docs[i]; c16[i] = Math.min(0xffff, counts[i]); }
    this.terms.push(term);
    this.postOff.push(this.pos - this.postStart);
    this.postLen.push(n);
    this.postCrc.push(crc32(block.subarray(0, 6 * n)));
    this.append(block);
  }

  private startTerms(): void {
    this.sections.rec = { at: this.recStart, len: this.pos - this.recStart };
    this.recOff.push(this.pos - this.recStart);
    this.pad();
    this.postStart = this.pos;
    this.phase = 'terms';
  }

  /** Writes the tables and the header, makes it durable; the temporary file is then complete. */
  finish(t: ViewTables): string {
    if (this.phase === 'docs') this.startTerms();
    this.sections.post = { at: this.postStart, len: this.pos - this.postStart };
    this.pad();
    const eagerAt = this.pos;
    for (const [name, type] of EAGER_SECTIONS) {
      const bytes = this.table(name, t);
      const expect = type === 'u8' ? 1 : type === 'u32' ? 4 : 8;
      if (bytes.length % expect) throw new Error(`view writer: section ${name} is not whole`);
      this.sections[name] = { at: this.pos, len: bytes.length, crc: crc32(bytes) };
      this.append(bytes);
      this.pad();
    }
    this.flush();
    const header: ViewHeader = {
      format: VIEW_FORMAT, log: t.log, revision: t.revision, docs: this.ids.length, terms: this.terms.length, totalLen: this.totalLen,
      createdAt: Date.now(), sections: this.sections, eager: { at: eagerAt, len: this.pos - eagerAt },
    };
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    if (json.length > HEADER_BYTES - 20) throw new Error('view writer: header too large');
    const head = Buffer.alloc(HEADER_BYTES);
    head.write(VIEW_MAGIC, 0, 'latin1');
    head.writeUInt32LE(VIEW_FORMAT, 8);
    head.writeUInt32LE(json.length, 12);
    head.writeUInt32LE(crc32(json), 16);
    json.copy(head, 20);
    fs.writeSync(this.fd!, head, 0, HEADER_BYTES, 0);
    fs.fsyncSync(this.fd!);
    fs.closeSync(this.fd!);
    this.fd = undefined;
    this.phase = 'done';
    return this.tmp;
  }

  /** Closes and deletes the temporary file (nothing of it stays on disk). */
  abort(): void {
    if (this.fd !== undefined) { try { fs.closeSync(this.fd); } catch { /* closing anyway */ } }
    this.fd = undefined;
    try { fs.unlinkSync(this.tmp); } catch { /* gone already (published, or removed by a compaction) */ }
  }

  private table(name: EagerName, t: ViewTables): Uint8Array {
    switch (name) {
      case 'recOff': return f64(this.recOff);
      case 'histOff': return f64(this.histOff);
      case 'recCrc': return u32(this.recCrc);
      case 'histCrc': return u32(this.histCrc);
      case 'idBlob': return this.idTable().blob;
      case 'idOff': return bytes(this.idTable().off);
      case 'idSort': {
        const order = this.ids.map((_, i) => i).sort((a, b) => byString(this.ids[a], this.ids[b]));
        return u32(order);
      }
      case 'docLen': return u32(this.docLen);
      case 'docKind': return Uint8Array.from(this.docKind);
      case 'docExp': return f64(this.docExp);
      case 'termBlob': return this.termTable().blob;
      case 'termOff': return bytes(this.termTable().off);
      case 'postOff': return f64(this.postOff);
      case 'postLen': return u32(this.postLen);
      case 'postCrc': return u32(this.postCrc);
      case 'sigBlob': return this.sigTables(t).keys.blob;
      case 'sigOff': return bytes(this.sigTables(t).keys.off);
      case 'sigPostOff': return this.sigTables(t).docs.off;
      case 'sigPost': return this.sigTables(t).docs.list;
      case 'stxBlob': return this.sigTables(t).texts.blob;
      case 'stxOff': return bytes(this.sigTables(t).texts.off);
      case 'stxPostOff': return this.sigTables(t).textKeys.off;
      case 'stxPost': return this.sigTables(t).textKeys.list;
      case 'tombBlob': return this.tombTable(t).blob;
      case 'tombOff': return bytes(this.tombTable(t).off);
      case 'evBlob': return this.evTables(t).keys.blob;
      case 'evOff': return bytes(this.evTables(t).keys.off);
      case 'evPostOff': return this.evTables(t).docs.off;
      case 'evPost': return this.evTables(t).docs.list;
      case 'cons': return u32([...t.constraints].sort((a, b) => a - b));
    }
  }

  private memo = new Map<string, unknown>();
  private once<T>(key: string, make: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as T;
  }
  private idTable() { return this.once('ids', () => encodeStrings(this.ids)); }
  private termTable() { return this.once('terms', () => encodeStrings(this.terms)); }
  private tombTable(t: ViewTables) { return this.once('tombs', () => encodeStrings([...new Set(t.tombstones)].sort(byString))); }

  private sigTables(t: ViewTables) {
    return this.once('sigs', () => {
      const keys = [...t.signatures.keys()].filter(k => t.signatures.get(k)!.length).sort(byString);
      const byText = new Map<string, number[]>();
      keys.forEach((k, i) => {
        const text = t.textOf(k);
        if (text === undefined) return;
        const list = byText.get(text);
        if (list) list.push(i); else byText.set(text, [i]);
      });
      const texts = [...byText.keys()].sort(byString);
      return {
        keys: encodeStrings(keys), docs: lists(keys.map(k => t.signatures.get(k)!)),
        texts: encodeStrings(texts), textKeys: lists(texts.map(x => byText.get(x)!)),
      };
    });
  }

  private evTables(t: ViewTables) {
    return this.once('ev', () => {
      const keys = [...t.evidence.keys()].filter(k => t.evidence.get(k)!.length).sort(byString);
      return { keys: encodeStrings(keys), docs: lists(keys.map(k => t.evidence.get(k)!)) };
    });
  }

  private append(b: Uint8Array): void {
    if (!b.length) return;
    this.chunks.push(b);
    this.chunkBytes += b.length;
    this.pos += b.length;
    if (this.chunkBytes >= FLUSH_BYTES) this.flush();
  }

  private pad(): void {
    const n = align8(this.pos) - this.pos;
    if (n) this.append(new Uint8Array(n));
  }

  private flush(): void {
    if (!this.chunkBytes) return;
    const buf = Buffer.concat(this.chunks, this.chunkBytes);
    const at = this.pos - this.chunkBytes;
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd!, buf, off, buf.length - off, at + off);
    this.chunks = [];
    this.chunkBytes = 0;
  }
}

function align4(n: number): number { return (n + 3) & ~3; }
function bytes(a: Uint32Array): Uint8Array { return new Uint8Array(a.buffer, a.byteOffset, a.byteLength); }
function u32(xs: ArrayLike<number>): Uint8Array { return bytes(Uint32Array.from(xs)); }
function f64(xs: ArrayLike<number>): Uint8Array { const a = Float64Array.from(xs); return new Uint8Array(a.buffer); }

/** Lists of document numbers as one array and offsets (count + 1). */
function lists(ls: number[][]): { off: Uint8Array; list: Uint8Array } {
  const off = new Uint32Array(ls.length + 1);
  let n = 0;
  ls.forEach((l, i) => { off[i] = n; n += l.length; });
  off[ls.length] = n;
  const list = new Uint32Array(n);
  let at = 0;
  for (const l of ls) { list.set(l, at); at += l.length; }
  return { off: bytes(off), list: bytes(list) };
}
