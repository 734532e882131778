// Vectors of live memories: derived from the log, never the truth. On disk it is a Vectra LocalIndex
// (index/index.json, written atomically, in batches) so a model's embeddings survive restarts; queries
// never touch Vectra: they scan one normalised Float32Array matrix in memory, which is faster and far
// smaller than Vectra's per-item number[] arrays. Anything suspicious on disk (garbage, wrong embedder,
// wrong dims, stale hashes) is rebuilt from the items the caller passes in, which come from the log.
import * as fs from 'fs';
import * as path from 'path';
import { LocalIndex, type IndexItem } from './vectraLite';
import type { Logger } from '../core/types';
import { nullLogger } from '../core/types';
import { writeFileAtomic } from './atomicFile';
import { DIR_MODE } from './privateFiles';
import type { Embedder } from './embedder';
import { withLock } from './lock';
import { AtomicFileStorage } from './vectraStorage';

/** Same shape as `VectorSearch` in src/core/recall.ts (structural; declared here so store builds alone). */
export interface VectorSearch {
  search(query: Float32Array, n: number, filter?: (id: string) => boolean): { id: string; score: number }[];
}

export interface IndexItemInput {
  id: string;
  /** Text to embed (memoryText() of the memory). */
  text: string;
  /** Content hash of `text`; a changed hash re-embeds the item. */
  hash: string;
}

export interface SyncOptions {
  onProgress?(done: number, total: number): void;
  signal?: AbortSignal;
  /** Texts per embed() call. Default 32. */
  batchSize?: number;
}

export interface SyncReport {
  embedded: number;
  removed: number;
  /** Set when the on-disk index was discarded and rebuilt, with the reason. */
  rebuilt?: string;
  warnings: string[];
}

interface IndexMeta { embedderId: string; dims: number; format: number }

const META_FILE = 'engram-index.json';
const FORMAT = 1;
/** Above this many upserts in one flush, write the file in one pass instead of item by item. */
const BULK_THRESHOLD = 200;

export class VectorIndex implements VectorSearch {
  private matrix = new Float32Array(0);
  private ids: string[] = [];
  private hashes: string[] = [];
  private rows = new Map<string, number>();
  private dimsCur = 0;
  private embedderIdCur: string | undefined;
  private loaded = false;
  /** Changes not yet written to Vectra: id -> hash to upsert, or null to delete. */
  private dirty = new Map<string, string | null>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** The file on disk cannot be patched (damaged, other embedder, rebuild): the next flush writes it whole. */
  private fullWrite = false;
  private readonly storage = new AtomicFileStorage();
  private readonly logger: Logger;

  private constructor(readonly folder: string, private readonly opts: { logger?: Logger; readOnly?: boolean; flushDelayMs?: number }) {
    this.logger = opts.logger ?? nullLogger;
  }

  /** `folder` is the store's `index/` directory. Nothing is read until the first sync(). */
  static async open(folder: string, opts: { logger?: Logger; readOnly?: boolean; flushDelayMs?: number } = {}): Promise<VectorIndex> {
    return new VectorIndex(folder, opts);
  }

  get size(): number { return this.ids.length; }
  get dims(): number { return this.dimsCur; }
  get embedderId(): string | undefined { return this.embedderIdCur; }
  has(id: string): boolean { return this.rows.has(id); }
  hashOf(id: string): string | undefined { const r = this.rows.get(id); return r === undefined ? undefined : this.hashes[r]; }
  /** A copy of an item's vector (tests, diagnostics). */
  vectorOf(id: string): Float32Array | undefined {
    const r = this.rows.get(id);
    return r === undefined ? undefined : this.matrix.slice(r * this.dimsCur, (r + 1) * this.dimsCur);
  }

  /**
   * Makes the index hold exactly `items`, embedded by `embedder`: loads the on-disk index (rebuilding it
   * when damaged or made by another embedder), removes ids not in `items`, embeds new or changed ones,
   * and writes the result to disk in one batch. Abortable; progress already made is kept.
   */
  async sync(items: IndexItemInput[], embedder: Embedder, opts: SyncOptions = {}): Promise<SyncReport> {
    const report: SyncReport = { embedded: 0, removed: 0, warnings: [] };
    if (!this.loaded || this.embedderIdCur !== embedder.id || this.dimsCur !== embedder.dims) {
      await this.load(embedder, report);
    }
    const wanted = new Map<string, IndexItemInput>();
    for (const it of items) wanted.set(it.id, it);
    const gone = this.ids.filter(id => !wanted.has(id));
    this.removeRows(gone);
    report.removed = gone.length;
    const todo = items.filter(it => this.hashOf(it.id) !== it.hash);
    try {
      await this.embedInto(todo, embedder, opts, report);
    } finally {
      await this.flush();
    }
    return report;
  }

  /** Adds or re-embeds a few items (a memory was recorded or edited). Written to disk shortly after. */
  async upsert(items: IndexItemInput[], embedder: Embedder): Promise<void> {
    if (!this.loaded || this.embedderIdCur !== embedder.id) {
      await this.load(embedder, { embedded: 0, removed: 0, warnings: [] });
    }
    await this.embedInto(items.filter(it => this.hashOf(it.id) !== it.hash), embedder, {}, { embedded: 0, removed: 0, warnings: [] });
    this.scheduleFlush();
  }

  /** Drops items (deleted or expired memories): gone from queries at once, from disk at the next flush. */
  remove(ids: string[]): void {
    this.removeRows(ids.filter(id => this.rows.has(id)));
    this.scheduleFlush();
  }

  /** Discards the on-disk index and embeds everything again. */
  async rebuild(items: IndexItemInput[], embedder: Embedder, opts: SyncOptions = {}): Promise<SyncReport> {
    this.resetMemory(embedder);
    this.loaded = true;
    this.fullWrite = true;
    const report = await this.sync(items, embedder, opts);
    report.rebuilt = report.rebuilt ?? 'requested';
    return report;
  }

  search(query: Float32Array, n: number, filter?: (id: string) => boolean): { id: string; score: number }[] {
    const d = this.dimsCur;
    const count = this.ids.length;
    if (!count || n <= 0 || query.length !== d) return [];
    let qn = 0;
    for (let i = 0; i < d; i++) qn += query[i] * query[i];
    if (qn === 0) return [];
    const inv = 1 / Math.sqrt(qn);
    // Bounded selection: keep the best n in a small sorted array; the filter runs only on contenders.
    const topScore: number[] = [];
    const topRow: number[] = [];
    const m = this.matrix;
    const d4 = d - (d % 4);
    for (let r = 0, base = 0; r < count; r++, base += d) {
      // Four independent accumulators: the CPU overlaps them, about twice as fast as one running sum.
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let i = 0;
      for (; i < d4; i += 4) {
        s0 += m[base + i] * query[i];
        s1 += m[base + i + 1] * query[i + 1];
        s2 += m[base + i + 2] * query[i + 2];
        s3 += m[base + i + 3] * query[i + 3];
      }
      for (; i < d; i++) s0 += m[base + i] * query[i];
      const s = (s0 + s1 + s2 + s3) * inv;
      if (topScore.length >= n && s <= topScore[topScore.length - 1]) continue;
      if (filter && !filter(this.ids[r])) continue;
      let pos = topScore.length;
      while (pos > 0 && topScore[pos - 1] < s) pos--;
      topScore.splice(pos, 0, s);
      topRow.splice(pos, 0, r);
      if (topScore.length > n) { topScore.pop(); topRow.pop(); }
    }
    return topRow.map((r, i) => ({ id: this.ids[r], score: topScore[i] }));
  }

  /** Writes pending changes to Vectra (one beginUpdate/endUpdate batch, under the index lock). */
  flush(): Promise<void> {
    if (this.flushTimer) { clearTimeout(this.flushTimer); this.flushTimer = undefined; }
    this.flushing = this.flushing.then(() => this.flushNow(), () => this.flushNow());
    return this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private scheduleFlush(): void {
    if (this.opts.readOnly || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush().catch(err => this.logger.warn(`Could not save the vector index: ${(err as Error).message}`));
    }, this.opts.flushDelayMs ?? 1000);
    this.flushTimer.unref?.();
  }

  private async flushNow(): Promise<void> {
    if (this.opts.readOnly || !this.embedderIdCur || (!this.dirty.size && !this.fullWrite)) return;
    const changes = this.dirty;
    const full = this.fullWrite;
    this.dirty = new Map();
    this.fullWrite = false;
    try {
      await fs.promises.mkdir(this.folder, { recursive: true, mode: DIR_MODE });
      await withLock(this.folder, async () => {
        // A fresh instance per batch: Vectra caches the whole index per instance, and another process may
        // have written since; read-modify-write under the lock merges instead of clobbering.
        const index = new LocalIndex(this.folder, undefined, this.storage);
        let existing: IndexItem[] | undefined;
        try { existing = await index.listItems(); } catch { /* missing or damaged: replaced below */ }
        // Never mix vector spaces: if another process wrote with another embedder, ours replaces the file.
        const meta = await this.readMeta();
        const rewrite = full || !existing || meta?.embedderId !== this.embedderIdCur || meta?.dims !== this.dimsCur;
        const del = [...changes].filter(([, h]) => h === null).map(([id]) => id);
        const up = rewrite ? [...this.ids] : [...changes].filter(([id, h]) => h !== null && this.rows.has(id)).map(([id]) => id);
        const item = (id: string): IndexItem => {
          const r = this.rows.get(id)!;
          const vector = Array.from(this.matrix.subarray(r * this.dimsCur, (r + 1) * this.dimsCur), roundFloat);
          return { id, vector, norm: Math.sqrt(vector.reduce((a, x) => a + x * x, 0)), metadata: { hash: this.hashes[r] } };
        };
        if (!rewrite && up.length <= BULK_THRESHOLD) {
          // Small batch: Vectra's own update (on the data listItems just loaded), one atomic file write.
          await index.beginUpdate();
          try {
            // Delete-then-insert: one O(N) pass for all deletions; each insert then scans once.
            await index.deleteItems([...del, ...up]);
            for (const id of up) { const it = item(id); await index.insertItem({ id, vector: it.vector, metadata: it.metadata }); }
            await index.endUpdate();
          } catch (err) {
            index.cancelUpdate();
            throw err;
          }
        } else {
          // Bulk (rebuild, import, repair): Vectra checks id uniqueness by a linear scan per insert, O(N^2)
          // here. Write the same file format through Vectra's codec and our atomic storage instead.
          const gone = new Set([...del, ...up]);
          const kept = rewrite ? [] : existing!.filter(i => !gone.has(i.id));
          const data = { version: 1, metadata_config: {}, items: [...kept, ...up.map(item)] };
          await this.storage.upsertFile(path.join(this.folder, index.indexName), index.codec.serializeIndex(data));
        }
        const next: IndexMeta = { embedderId: this.embedderIdCur!, dims: this.dimsCur, format: FORMAT };
        await writeFileAtomic(path.join(this.folder, META_FILE), JSON.stringify(next));
      });
    } catch (err) {
      // Keep the changes for the next attempt (unless newer ones superseded them).
      for (const [id, h] of changes) if (!this.dirty.has(id)) this.dirty.set(id, h);
      this.fullWrite ||= full;
      throw err;
    }
  }

  private async readMeta(): Promise<Partial<IndexMeta> | undefined> {
    try {
      const v = JSON.parse(await fs.promises.readFile(path.join(this.folder, META_FILE), 'utf8')) as unknown;
      return typeof v === 'object' && v !== null ? v as Partial<IndexMeta> : undefined;
    } catch {
      return undefined;
    }
  }

  /** Loads the on-disk index into the matrix; on any doubt, starts empty and lets sync re-embed. */
  private async load(embedder: Embedder, report: SyncReport): Promise<void> {
    this.resetMemory(embedder);
    this.loaded = true;
    const indexFile = path.join(this.folder, 'index.json');
    if (!fs.existsSync(indexFile)) return;
    const rebuild = async (reason: string) => {
      report.rebuilt = reason;
      report.warnings.push(`Vector index: ${reason}; rebuilding it from the memories`);
      this.logger.warn(`Vector index: ${reason}; rebuilding`);
      this.resetMemory(embedder);
      // Not deleted here (another process may hold index/.lock): the next flush rewrites the whole file.
      this.fullWrite = true;
    };
    const meta = await this.readMeta();
    if (!meta || meta.embedderId !== embedder.id || meta.dims !== embedder.dims) {
      return rebuild(meta ? `made by ${meta.embedderId ?? 'an unknown embedder'}, now using ${embedder.id}` : 'its description file is missing or damaged');
    }
    let items: { id?: unknown; vector?: unknown; metadata?: { hash?: unknown } }[];
    try {
      items = await new LocalIndex(this.folder, undefined, this.storage).listItems();
      if (!Array.isArray(items)) throw new Error('no item list');
    } catch (err) {
      return rebuild(`index.json is damaged (${(err as Error).message.slice(0, 80)})`);
    }
    let bad = 0;
    this.ensureCapacity(items.length);
    for (const it of items) {
      const v = it.vector;
      const hash = it.metadata?.hash;
      if (typeof it.id !== 'string' || typeof hash !== 'string' || !Array.isArray(v) || v.length !== this.dimsCur || this.rows.has(it.id)) { bad++; continue; }
      const row = this.ids.length;
      const base = row * this.dimsCur;
      let sum = 0;
      for (let i = 0; i < v.length; i++) { const x = Number(v[i]); this.matrix[base + i] = x; sum += x * x; }
      if (!(sum > 0) || !Number.isFinite(sum)) { bad++; continue; }
      const inv = 1 / Math.sqrt(sum);
      for (let i = 0; i < this.dimsCur; i++) this.matrix[base + i] *= inv;
      this.ids.push(it.id);
      this.hashes.push(hash);
      this.rows.set(it.id, row);
    }
    if (bad) report.warnings.push(`Vector index: ${bad} damaged entries dropped; they will be embedded again`);
  }

  private resetMemory(embedder: Embedder): void {
    this.matrix = new Float32Array(0);
    this.ids = [];
    this.hashes = [];
    this.rows = new Map();
    this.dirty = new Map();
    this.dimsCur = embedder.dims;
    this.embedderIdCur = embedder.id;
  }

  private ensureCapacity(rows: number): void {
    const need = rows * this.dimsCur;
    if (this.matrix.length >= need) return;
    const next = new Float32Array(Math.max(need, Math.ceil(this.matrix.length * 1.5), 64 * this.dimsCur));
    next.set(this.matrix);
    this.matrix = next;
  }

  private async embedInto(items: IndexItemInput[], embedder: Embedder, opts: SyncOptions, report: SyncReport): Promise<void> {
    const batch = Math.max(1, opts.batchSize ?? 32);
    const total = items.length;
    opts.onProgress?.(0, total);
    for (let i = 0; i < total; i += batch) {
      if (opts.signal?.aborted) throw abortError();
      const chunk = items.slice(i, i + batch);
      const vecs = await embedder.embed(chunk.map(c => c.text));
      if (vecs.length !== chunk.length) throw new Error(`Embedder ${embedder.id} returned ${vecs.length} vectors for ${chunk.length} texts`);
      for (let j = 0; j < chunk.length; j++) this.setRow(chunk[j].id, chunk[j].hash, vecs[j]);
      report.embedded += chunk.length;
      opts.onProgress?.(Math.min(total, i + chunk.length), total);
    }
  }

  private setRow(id: string, hash: string, v: Float32Array): void {
    if (v.length !== this.dimsCur) throw new Error(`Vector for ${id} has ${v.length} dimensions, expected ${this.dimsCur}`);
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.ensureCapacity(row + 1);
      this.ids.push(id);
      this.hashes.push(hash);
      this.rows.set(id, row);
    } else {
      this.hashes[row] = hash;
    }
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
    const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    const base = row * this.dimsCur;
    for (let i = 0; i < v.length; i++) this.matrix[base + i] = v[i] * inv;
    this.dirty.set(id, hash);
  }

  /** Swap-with-last removal keeps the matrix dense. */
  private removeRows(ids: string[]): void {
    const d = this.dimsCur;
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row === undefined) continue;
      const last = this.ids.length - 1;
      if (row !== last) {
        this.matrix.copyWithin(row * d, last * d, (last + 1) * d);
        this.ids[row] = this.ids[last];
        this.hashes[row] = this.hashes[last];
        this.rows.set(this.ids[row], row);
      }
      this.ids.pop();
      this.hashes.pop();
      this.rows.delete(id);
      this.dirty.set(id, null);
    }
  }
}

/** 1e-7 steps: below float32 noise for unit vectors, and about half the characters in index.json. */
function roundFloat(x: number): number {
  return Math.round(x * 1e7) / 1e7;
}

function abortError(): Error {
  const e = new Error('Indexing was cancelled');
  e.name = 'AbortError';
  return e;
}
