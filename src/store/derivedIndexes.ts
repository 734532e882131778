// Everything recall searches, derived from the state and kept in step with it: the word index (BM25),
// the signature map (the write plan also finds "the same lesson again" through it) and the vector index.
// Rebuilt from the state whenever it is replaced; only a model's vectors are kept on disk.
import { createHash } from 'crypto';
import * as path from 'path';
import { Bm25Index } from '../core/lexical';
import { memorySignatures, memoryText } from '../core/memoryText';
import { RecallEngine } from '../core/recall';
import type { MemoryState } from '../core/reduce';
import type { Logger, Memory } from '../core/types';
import type { Embedder } from './embedder';
import type { IndexItemInput, VectorIndex } from './vectorIndex';

export interface DerivedIndexesOptions {
  dir: string;
  embedder: Embedder;
  logger: Logger;
  readOnly?: boolean;
  /** Where recovery notes go (the store's warnings). */
  warnings: string[];
}

export class DerivedIndexes {
  readonly lexical = new Bm25Index();
  /** Signature key → ids of the memories filed under it. */
  readonly bySignature = new Map<string, Set<string>>();
  /** Memory id → the signature keys it is filed under (its own, and the errors its episode met on the way),
   *  so a forgotten memory (gone from state) can be unfiled. */
  private readonly sigOf = new Map<string, string[]>();
  /** Loaded on the first recall (MemoryStore.ensureVectors); undefined before, or when unavailable. */
  private vectors?: VectorIndex;

  constructor(private readonly opts: DerivedIndexesOptions) {}

  get vectorCount(): number { return this.vectors?.size ?? 0; }

  /** The recall engine over these indexes; `state` is read on every query, since a reset replaces it. */
  recallEngine(state: () => MemoryState, workspaceId: string | undefined): RecallEngine {
    const self = this;
    const embedder = this.opts.embedder;
    return new RecallEngine({
      get state() { return state(); },
      lexical: this.lexical,
      bySignature: this.bySignature,
      // A model's vectors are searched in full; hash vectors only rescore what words and signatures found.
      get vectors() { return embedder.kind === 'hash' ? undefined : self.vectors; },
      get vectorOf() {
        const vi = self.vectors;
        return embedder.kind === 'hash' && vi ? (id: string) => vi.vectorOf(id) : undefined;
      },
      get embedQuery() {
        return self.vectors ? async (text: string) => (await embedder.embed([text], 'query'))[0] : undefined;
      },
      workspaceId,
    });
  }

  /**
   * Loads the vector index and reconciles it with the state. Hash vectors are kept in memory only
   * (read-only index): recomputing them is cheaper than parsing them back from disk; a model's vectors
   * are persisted. Vectors are derived and optional: on failure recall works on words and signatures.
   */
  async openVectors(all: Memory[]): Promise<void> {
    const { dir, embedder, logger, warnings } = this.opts;
    try {
      const { VectorIndex } = await import('./vectorIndex');
      const readOnly = this.opts.readOnly || embedder.kind === 'hash';
      const vi = await VectorIndex.open(path.join(dir, 'index'), { logger, readOnly });
      const r = await vi.sync(all.map(vectorItem), embedder);
      if (r?.warnings?.length && !readOnly) warnings.push(...r.warnings);
      this.vectors = vi;
    } catch (e) {
      const msg = `vector index unavailable, recalling by words and signatures only (${(e as Error).message})`;
      warnings.push(msg);
      logger.warn(msg);
      this.vectors = undefined;
    }
  }

  /** Refiles memories whose text changed (`get` gives the current one; undefined = gone). */
  async changed(ids: Iterable<string>, get: (id: string) => Memory | undefined): Promise<void> {
    const upserts: Memory[] = [];
    const gone: string[] = [];
    for (const id of ids) {
      const m = get(id);
      if (m) { this.index(m); upserts.push(m); } else { this.unindex(id); gone.push(id); }
    }
    if (!this.vectors || (!upserts.length && !gone.length)) return;
    try {
      if (gone.length) this.vectors.remove(gone);
      if (upserts.length) await this.vectors.upsert(upserts.map(vectorItem), this.opts.embedder);
    } catch (e) {
      this.opts.logger.warn(`vector index update failed (recall continues on words): ${(e as Error).message}`);
    }
  }

  /** After the state was replaced: every index from it again; the vectors reconciled, not recomputed. */
  async reset(all: Memory[]): Promise<void> {
    this.rebuild(all);
    if (this.vectors) {
      await this.vectors.sync(all.map(vectorItem), this.opts.embedder)
        .catch((e: unknown) => this.opts.logger.warn(`vector sync failed: ${(e as Error).message}`));
    }
  }

  /** Every index from scratch, the vectors recomputed (the user's "rebuild index"). */
  async rebuildAll(all: Memory[], opts: { onProgress?(done: number, total: number): void; signal?: AbortSignal }): Promise<void> {
    this.rebuild(all);
    if (this.vectors) await this.vectors.rebuild(all.map(vectorItem), this.opts.embedder, opts);
  }

  async close(): Promise<void> {
    await this.vectors?.close();
  }

  idsWithSignature(key: string): Iterable<string> {
    return this.bySignature.get(key) ?? [];
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

  private rebuild(all: Memory[]): void {
    this.clear();
    for (const m of all) this.index(m);
  }

  /**
   * The same as rebuild, for open(): the word index of a large store takes seconds to build, and in the
   * extension host that thread is the editor's, so it is given back every ~16 ms. Nothing else can write
   * meanwhile: the store is not handed out until open() resolves.
   */
  async rebuildInSlices(all: Memory[]): Promise<void> {
    this.clear();
    let sliceStart = performance.now();
    for (const m of all) {
      this.index(m);
      if (performance.now() - sliceStart > 16) {
        await new Promise<void>(resolve => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  private clear(): void {
    for (const id of [...this.sigOf.keys()]) this.unindex(id);
  }

  private unfile(id: string): void {
    for (const key of this.sigOf.get(id) ?? []) {
      const set = this.bySignature.get(key);
      set?.delete(id);
      if (set && !set.size) this.bySignature.delete(key);
    }
    this.sigOf.delete(id);
  }
}

function vectorItem(m: Memory): IndexItemInput {
  const text = memoryText(m);
  return { id: m.id, text, hash: createHash('sha1').update(text).digest('hex') };
}
