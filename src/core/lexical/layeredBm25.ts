// BM25 over two layers: a frozen base (the word index a store persisted, read on demand: store/viewFile.ts)
// and an in-memory Bm25Index on top for the memories added or changed since. A memory changed since the
// base was written is dropped from the base (a bit per base document) and lives on top; collection
// statistics (N, average length, document frequency) count both layers minus what was dropped, so a
// query scores exactly as one Bm25Index holding the same memories would. Opening a store thus costs
// reading the base's dictionary, not tokenizing every memory again.
import type { WordIndex } from '../recall/source';
import { BM25_B, BM25_K1, Bm25Index, topN, type Scored } from './bm25';
import { tokenize } from './tokenize';

/** One token's postings in the base: document numbers ascending, with the token's count in each. */
export interface FrozenPostings {
  readonly docs: Uint32Array;
  readonly counts: Uint16Array;
}

/** The persisted word index, as this layer reads it (the store implements it over its file). */
export interface FrozenWords {
  /** Base document numbers are 0 .. docs-1. */
  readonly docs: number;
  /** Sum of every base document's length in tokens. */
  readonly totalLen: number;
  postings(token: string): FrozenPostings | undefined;
  docLen(doc: number): number;
  docId(doc: number): string;
  /** The base document of a memory, or -1. */
  docOf(id: string): number;
}

/** Postings read from the base are kept for the next query, up to this many tokens. */
const MAX_CACHED = 4096;

export class LayeredBm25 implements WordIndex {
  private readonly k1 = BM25_K1;
  private readonly b = BM25_B;
  private readonly top = new Bm25Index();
  /** 1 for a base document no longer in the index (changed or removed since the base was written). */
  private readonly dropped: Uint8Array;
  private droppedCount = 0;
  private droppedLen = 0;
  private readonly cache = new Map<string, { p: FrozenPostings | undefined; live: number }>();
  private acc = new Float64Array(0);

  constructor(private readonly base?: FrozenWords) {
    this.dropped = new Uint8Array(base?.docs ?? 0);
  }

  get size(): number { return this.baseDocs - this.droppedCount + this.top.size; }
  /** The in-memory layer: the memories added or changed since the base (for writing the next base). */
  get topLayer(): Bm25Index { return this.top; }
  /** True when a base document no longer counts (its memory changed or left). */
  isDropped(doc: number): boolean { return this.dropped[doc] === 1; }
  get droppedDocs(): number { return this.droppedCount; }

  private get baseDocs(): number { return this.base?.docs ?? 0; }

  has(id: string): boolean {
    if (this.top.has(id)) return true;
    const d = this.base ? this.base.docOf(id) : -1;
    return d >= 0 && !this.dropped[d];
  }

  add(id: string, text: string): void {
    this.addTokens(id, tokenize(text));
  }

  addTokens(id: string, tokens: string[]): void {
    this.dropBase(id);
    this.top.addTokens(id, tokens);
  }

  remove(id: string): void {
    this.dropBase(id);
    this.top.remove(id);
  }

  private dropBase(id: string): void {
    if (!this.base) return;
    const d = this.base.docOf(id);
    if (d < 0 || this.dropped[d]) return;
    this.dropped[d] = 1;
    this.droppedCount++;
    this.droppedLen += this.base.docLen(d);
    this.cache.clear(); // live document frequencies changed
  }

  /** A token's base postings and how many of them still count. */
  private basePostings(token: string): { p: FrozenPostings | undefined; live: number } {
    let hit = this.cache.get(token);
    if (hit) return hit;
    const p = this.base?.postings(token);
    let live = p ? p.docs.length : 0;
    if (p && this.droppedCount) for (let i = 0; i < p.docs.length; i++) live -= this.dropped[p.docs[i]];
    hit = { p, live };
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(token, hit);
    return hit;
  }

  private df(token: string): number {
    return this.basePostings(token).live + ((this.top.postingsOf(token)?.length ?? 0) >> 1);
  }

  idf(token: string): number {
    const df = this.df(token);
    if (!df) return 0;
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  search(query: string | string[], n: number): Scored[] {
    const tokens = typeof query === 'string' ? tokenize(query) : query;
    return this.searchWithTerms(tokens, n).map(({ id, score }) => ({ id, score }));
  }

  /**
   * Bm25Index.searchWithTerms over both layers: the same rarest-first order, the same shortcut for very
   * common terms (they only add to documents a rarer term found), the same scores. Documents are
   * numbered base first (0 .. docs-1), then the top layer's after them.
   */
  searchWithTerms(tokens: string[], n: number): (Scored & { terms: string[] })[] {
    const N = this.size;
    if (!N || !tokens.length || n <= 0) return [];
    const B = this.baseDocs;
    const slots = B + this.top.slots;
    if (this.acc.length < slots) this.acc = new Float64Array(Math.max(slots, this.acc.length * 2, 64));
    const acc = this.acc;
    const avg = (this.base ? this.base.totalLen - this.droppedLen : 0) + this.top.totalLength;
    const avgLen = avg / N || 1;
    const len = (d: number) => (d < B ? this.base!.docLen(d) : this.top.docLength(d - B));
    const qtf = new Map<string, number>();
    for (const t of tokens) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const terms: { t: string; qc: number; df: number; p?: FrozenPostings; q?: readonly number[] }[] = [];
    for (const [t, qc] of qtf) {
      const { p, live } = this.basePostings(t);
      const q = this.top.postingsOf(t);
      const df = live + ((q?.length ?? 0) >> 1);
      if (df) terms.push({ t, qc, df, p: live ? p : undefined, q: q?.length ? q : undefined });
    }
    terms.sort((a, b) => a.df - b.df);
    const touched: number[] = [];
    const commonDf = Math.max(500, N * 0.15);
    const k1 = this.k1, b = this.b;
    const weight = (c: number, d: number) => c * (k1 + 1) / (c + k1 * (1 - b + b * len(d) / avgLen));
    for (const { t, qc, df, p, q } of terms) {
      const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
      const qw = idf * (1 + Math.log(qc));
      if (df > commonDf && touched.length && touched.length < df) {
        // Only documents already found: each gets this term's weight once, as in Bm25Index.
        for (const d of touched) {
          const c = d < B ? (p ? countAt(p, d) : 0) : this.top.countIn(d - B, t);
          if (c) acc[d] += qw * weight(c, d);
        }
        continue;
      }
      if (p) {
        for (let j = 0; j < p.docs.length; j++) {
          const d = p.docs[j];
          if (this.dropped[d]) continue;
          if (acc[d] === 0) touched.push(d);
          acc[d] += qw * weight(p.counts[j], d);
        }
      }
      if (q) {
        for (let j = 0; j < q.length; j += 2) {
          const d = B + q[j];
          if (acc[d] === 0) touched.push(d);
          acc[d] += qw * weight(q[j + 1], d);
        }
      }
    }
    const best = topN(touched, acc, n);
    const out = best.map(d => {
      const matched: string[] = [];
      for (const t of qtf.keys()) {
        if (d < B) {
          const p = this.basePostings(t).p;
          if (p && countAt(p, d)) matched.push(t);
        } else if (this.top.countIn(d - B, t)) {
          matched.push(t);
        }
      }
      return { id: d < B ? this.base!.docId(d) : this.top.idAt(d - B)!, score: acc[d], terms: matched };
    });
    for (const d of touched) acc[d] = 0;
    return out;
  }
}

/** The count of a base document in sorted postings (0 when absent): a binary search. */
function countAt(p: FrozenPostings, doc: number): number {
  let lo = 0, hi = p.docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = p.docs[mid];
    if (v === doc) return p.counts[mid];
    if (v < doc) lo = mid + 1; else hi = mid - 1;
  }
  return 0;
}
