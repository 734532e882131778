// Everything recall searches, derived from the state and kept in step with it: the word index (BM25),
// the signature map (the write plan also finds "the same lesson again" through it), the constraints and
// which lesson stands behind an episode, and the vectors. Each is the persisted base (view.bin, written by
// viewBuilder.ts) with what changed since on top, in memory; without a base, all of it is in memory.
// A model's vectors are kept on disk by vectorIndex.ts; hash vectors are computed for the few memories
// a query rescores, never for the whole store.
import * as path from 'path';
import { LayeredBm25 } from '../core/lexical/layeredBm25';
import { memorySignatures, memoryText } from '../core/memoryText';
import { RecallEngine } from '../core/recall';
import { signatureTextOf } from '../core/recallQuery';
import type { Logger, Memory } from '../core/types';
import type { Embedder } from './embedder';
import type { LayeredState } from './layeredState';
import { itemOf, loadVectorIndex, type VectorIndex } from './vectorLoader';

export interface DerivedIndexesOptions {
  dir: string;
  embedder: Embedder;
  logger: Logger;
  readOnly?: boolean;
  /** false: no vectors at all (words and signatures only). */
  vectors?: boolean;
  /** Where recovery notes go (the store's warnings). */
  warnings: string[];
}

/** A signature's message text long enough to mean "the same error" under another tool prefix, else undefined. */
export function matchText(key: string): string | undefined {
  const t = signatureTextOf(key);
  return t.length < 12 ? undefined : t;
}

export class DerivedIndexes {
  lexical: LayeredBm25;
  /** Signature key → ids of memories on top of the base filed under it. */
  private sigOver = new Map<string, Set<string>>();
  /** Memory id → the signature keys it is filed under on top (its own, and its episode's other errors). */
  private sigOf = new Map<string, string[]>();
  /** Message text → keys on top carrying it. */
  private textOver = new Map<string, Set<string>>();
  private rankCache?: { revision: number; constraints: string[]; lessons: Map<string, { order: number; id: string }> };
  private readonly hashVectors = new WeakMap<Memory, Float32Array>();
  /** A model's vectors, loaded on the first recall (MemoryStore.ensureVectors). */
  private vectors?: VectorIndex;

  constructor(private readonly opts: DerivedIndexesOptions, private readonly state: () => LayeredState) {
    this.lexical = new LayeredBm25(state().base);
  }

  get vectorCount(): number {
    if (this.opts.vectors === false) return 0;
    return this.opts.embedder.kind === 'hash' ? this.state().size : this.vectors?.size ?? 0;
  }

  /** The recall engine over these indexes; everything is read through getters, since a reset replaces them. */
  recallEngine(workspaceId: string | undefined): RecallEngine {
    const self = this;
    const { embedder } = this.opts;
    const on = this.opts.vectors !== false;
    return new RecallEngine({
      get state() { return self.state(); },
      get lexical() { return self.lexical; },
      bySignature: {
        get: key => self.idsWithSignature(key),
        keysWithText: text => self.keysWithText(text),
        *keys() {
          const base = self.state().base;
          if (base) for (let i = 0; i < base.signatureCount; i++) yield base.signatureAt(i);
          yield* self.sigOver.keys();
        },
        get size() { return (self.state().base?.signatureCount ?? 0) + self.sigOver.size; },
      },
      constraintIds: () => this.ranks().constraints,
      lessonOfEpisode: id => this.lessonOf(id),
      // A model's vectors are searched in full; hash vectors only rescore what words and signatures found.
      get vectors() { return on && embedder.kind !== 'hash' ? self.vectors : undefined; },
      vectorOf: on && embedder.kind === 'hash' ? id => self.hashVector(id) : undefined,
      get embedQuery() {
        return on && (embedder.kind === 'hash' || self.vectors) ? async (text: string) => (await embedder.embed([text], 'query'))[0] : undefined;
      },
      workspaceId,
    });
  }

  private hashVector(id: string): Float32Array | undefined {
    const m = this.state().get(id);
    if (!m) return undefined;
    let v = this.hashVectors.get(m);
    if (!v) {
      v = (this.opts.embedder as { embedOne?(t: string): Float32Array }).embedOne?.(memoryText(m));
      if (!v) return undefined;
      this.hashVectors.set(m, v);
    }
    return v;
  }

  /** A model's vector index, reconciled with the state; on failure recall works on words and signatures. */
  async openVectors(all: () => Memory[]): Promise<void> {
    const { dir, embedder, logger, warnings } = this.opts;
    if (embedder.kind === 'hash' || this.opts.vectors === false) return;
    try {
      const vi = await loadVectorIndex(path.join(dir, 'index'), { logger, readOnly: this.opts.readOnly });
      const r = await vi.sync(all().map(itemOf), embedder);
      if (r?.warnings?.length && !this.opts.readOnly) warnings.push(...r.warnings);
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
      if (upserts.length) await this.vectors.upsert(upserts.map(itemOf), this.opts.embedder);
    } catch (e) {
      this.opts.logger.warn(`vector index update failed (recall continues on words): ${(e as Error).message}`);
    }
  }

  /**
   * After the state was replaced (a new base, or a rebuild): the layers start again from the state's base,
   * everything above it indexed from the state; the vectors reconciled, not recomputed.
   */
  async reset(): Promise<void> {
    this.clearTop();
    const st = this.state();
    await this.indexTop(st);
    if (this.vectors) {
      await this.vectors.sync(st.all().map(itemOf), this.opts.embedder)
        .catch((e: unknown) => this.opts.logger.warn(`vector sync failed: ${(e as Error).message}`));
    }
  }

  /** The state has a new base holding what this held (a view was just written): the layers start again from it. */
  rebase(): void {
    this.clearTop();
  }

  /** A model's vectors computed again for every memory (the user's "rebuild index"). */
  async rebuildVectors(opts: { onProgress?(done: number, total: number): void; signal?: AbortSignal }): Promise<void> {
    if (this.vectors) await this.vectors.rebuild(this.state().all().map(itemOf), this.opts.embedder, opts);
  }

  async close(): Promise<void> {
    await this.vectors?.close();
  }

  idsWithSignature(key: string): Iterable<string> {
    const base = this.state().base;
    const docs = base?.signatureDocs(key);
    const top = this.sigOver.get(key);
    if (!docs?.length) return top ?? [];
    const out: string[] = [];
    for (const d of docs) if (!this.lexical.isDropped(d)) out.push(base!.docId(d));
    if (top) out.push(...top);
    return out;
  }

  private keysWithText(text: string): Iterable<string> {
    const base = this.state().base?.keysWithText(text) ?? [];
    const top = this.textOver.get(text);
    return top ? [...new Set([...base, ...top])] : base;
  }

  /** The memories on top of the base as the next view must write them (viewBuilder.ts): their keys. */
  signaturesOf(id: string): string[] { return this.sigOf.get(id) ?? []; }

  private lessonOf(episodeId: string): string | undefined {
    const st = this.state();
    const top = this.ranks().lessons.get(episodeId);
    const base = st.base;
    const docs = base?.lessonDocsOf(episodeId);
    if (docs) {
      for (const d of docs) {
        if (top && top.order < d) break;
        const id = base!.docId(d);
        if (st.overlayOf(id) === undefined) return id;
      }
    }
    return top?.id;
  }

  /**
   * Constraints, and the first lesson (in the order memories were first recorded) citing each episode,
   * among the memories on top: recomputed when the state changes, from the top layer only (small).
   */
  private ranks(): NonNullable<DerivedIndexes['rankCache']> {
    const st = this.state();
    if (this.rankCache?.revision === st.revision) return this.rankCache;
    const base = st.base;
    const B = base?.docs ?? 0;
    const cons: { order: number; id: string }[] = [];
    if (base) for (const d of base.constraintDocs) { const id = base.docId(d); if (st.overlayOf(id) === undefined) cons.push({ order: d, id }); }
    const lessons = new Map<string, { order: number; id: string }>();
    let i = 0;
    for (const [id, m] of st.overlayEntries()) {
      const at = base ? base.docOf(id) : -1;
      const order = at >= 0 ? at : B + i++;
      if (!m) continue;
      if (m.maturity === 'constraint') cons.push({ order, id });
      if (m.kind !== 'lesson' || m.deleted) continue;
      for (const e of m.evidence) {
        const had = lessons.get(e);
        if (!had || had.order > order) lessons.set(e, { order, id });
      }
    }
    cons.sort((a, b) => a.order - b.order);
    this.rankCache = { revision: st.revision, constraints: cons.map(c => c.id), lessons };
    return this.rankCache;
  }

  private async indexTop(st: LayeredState): Promise<void> {
    // Without a base this is every memory: given back to the event loop every ~16 ms (the extension host's thread).
    let sliceStart = performance.now();
    const memories = st.base ? [...st.overlayEntries()].map(([id, m]) => m ?? id) : st.all();
    for (const m of memories) {
      if (typeof m === 'string') this.unindex(m); else this.index(m);
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
      let set = this.sigOver.get(key);
      if (!set) { set = new Set(); this.sigOver.set(key, set); }
      set.add(m.id);
      const text = matchText(key);
      if (text !== undefined) {
        let ks = this.textOver.get(text);
        if (!ks) { ks = new Set(); this.textOver.set(text, ks); }
        ks.add(key);
      }
    }
    this.sigOf.set(m.id, keys);
  }

  private unindex(id: string): void {
    this.lexical.remove(id);
    this.unfile(id);
  }

  private clearTop(): void {
    this.lexical = new LayeredBm25(this.state().base);
    this.sigOver = new Map();
    this.sigOf = new Map();
    this.textOver = new Map();
    this.rankCache = undefined;
  }

  private unfile(id: string): void {
    for (const key of this.sigOf.get(id) ?? []) {
      const set = this.sigOver.get(key);
      set?.delete(id);
      if (set && !set.size) {
        this.sigOver.delete(key);
        const text = matchText(key);
        const ks = text === undefined ? undefined : this.textOver.get(text);
        ks?.delete(key);
        if (ks && !ks.size) this.textOver.delete(text!);
      }
    }
    this.sigOf.delete(id);
  }
}
