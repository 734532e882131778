// Okapi BM25 over an incremental inverted index: the scoring half of the model-free recall.
import type { WordIndex } from '../recall/source';
import { tokenize } from './tokenize';

export interface Scored { id: string; score: number }


/** BM25's constants, shared by every index so a layered one scores exactly as this one does. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * Okapi BM25 over an inverted index, with add/remove in place (no rebuild). Terms are interned to small
 * ids and postings are flat arrays of small integers ([doc, count, doc, count, ...], in the order
 * documents were added), not a Map per term and per document: opening a store adds every memory, and
 * tens of thousands of small Maps were most of that time and of the garbage. Removed doc numbers and
 * term ids are recycled.
 */
export class Bm25Index implements WordIndex {
  private readonly k1 = BM25_K1;
  private readonly b = BM25_B;
  private readonly termIds = new Map<string, number>();
  private readonly termOf: (string | undefined)[] = [];
  private readonly freeTerms: number[] = [];
  private readonly postings: number[][] = [];
  /** Per doc number: [termId, count, termId, count, ...] for its distinct terms. */
  private readonly docTerms: (number[] | undefined)[] = [];
  private readonly docLen: number[] = [];
  private readonly idOf: (string | undefined)[] = [];
  private readonly numOf = new Map<string, number>();
  private readonly free: number[] = [];
  private totalLen = 0;
  private acc = new Float64Array(0);
  /** Per term id, the count in the document being added (always zero between adds). */
  private scratch = new Int32Array(256);

  get size(): number { return this.numOf.size; }

  has(id: string): boolean { return this.numOf.has(id); }

  // Read access for a layered index (layeredBm25.ts) that keeps this one as its in-memory top layer.
  /** Doc numbers in use are below this. */
  get slots(): number { return this.idOf.length; }
  get totalLength(): number { return this.totalLen; }
  /** [doc, count, doc, count, ...] of a token, in the order documents were added (undefined: unknown). */
  postingsOf(token: string): readonly number[] | undefined {
    const k = this.termIds.get(token);
    return k === undefined ? undefined : this.postings[k];
  }
  docNumber(id: string): number | undefined { return this.numOf.get(id); }
  idAt(n: number): string | undefined { return this.idOf[n]; }
  docLength(n: number): number { return this.docLen[n] ?? 0; }
  /** How often `token` occurs in doc `n` (0 when not). */
  countIn(n: number, token: string): number {
    const k = this.termIds.get(token);
    const dt = this.docTerms[n];
    return k === undefined || !dt ? 0 : countIn(dt, k);
  }
  /** Every token with its postings. */
  *terms(): IterableIterator<[string, readonly number[]]> {
    for (const [t, k] of this.termIds) yield [t, this.postings[k]];
  }

  add(id: string, text: string): void {
    this.addTokens(id, tokenize(text));
  }

  addTokens(id: string, tokens: string[]): void {
    if (this.numOf.has(id)) this.remove(id);
    const n = this.free.pop() ?? this.idOf.length;
    const distinct: number[] = [];
    for (const t of tokens) {
      let k = this.termIds.get(t);
      if (k === undefined) {
        k = this.freeTerms.pop() ?? this.postings.length;
        this.termIds.set(t, k);
        this.termOf[k] = t;
        this.postings[k] = [];
        if (k >= this.scratch.length) {
          const grown = new Int32Array(Math.max(k + 1, this.scratch.length * 2));
          grown.set(this.scratch);
          this.scratch = grown;
        }
      }
      if (this.scratch[k]++ === 0) distinct.push(k);
    }
    const terms = new Array<number>(distinct.length * 2);
    for (let i = 0; i < distinct.length; i++) {
      const k = distinct[i];
      const c = this.scratch[k];
      this.scratch[k] = 0;
      this.postings[k].push(n, c);
      terms[2 * i] = k;
      terms[2 * i + 1] = c;
    }
    this.idOf[n] = id;
    this.docTerms[n] = terms;
    this.docLen[n] = tokens.length;
    this.numOf.set(id, n);
    this.totalLen += tokens.length;
  }

  remove(id: string): void {
    const n = this.numOf.get(id);
    if (n === undefined) return;
    const terms = this.docTerms[n];
    if (terms) {
      for (let i = 0; i < terms.length; i += 2) {
        const k = terms[i];
        const p = this.postings[k];
        for (let j = 0; j < p.length; j += 2) {
          // splice, not swap-with-last: postings keep insertion order, which breaks score ties.
          if (p[j] === n) { p.splice(j, 2); break; }
        }
        if (!p.length) {
          this.termIds.delete(this.termOf[k]!);
          this.termOf[k] = undefined;
          this.freeTerms.push(k);
        }
      }
    }
    this.totalLen -= this.docLen[n] ?? 0;
    this.docTerms[n] = undefined;
    this.idOf[n] = undefined;
    this.docLen[n] = 0;
    this.numOf.delete(id);
    this.free.push(n);
  }

  /** Inverse document frequency of a token (0 when unknown). */
  idf(token: string): number {
    const df = (this.postingsOf(token)?.length ?? 0) >> 1;
    if (!df) return 0;
    const N = this.size;
    return Math.log(1 + (N - df + 0.5) / (df + 0.5));
  }

  /** Top `n` documents for a query (text or tokens). Scores are raw BM25 (unbounded, > 0). */
  search(query: string | string[], n: number): Scored[] {
    const tokens = typeof query === 'string' ? tokenize(query) : query;
    return this.searchWithTerms(tokens, n).map(({ id, score }) => ({ id, score }));
  }

  /** Like `search`, also naming the query tokens each hit matched (for "why"). */
  searchWithTerms(tokens: string[], n: number): (Scored & { terms: string[] })[] {
    const N = this.size;
    if (!N || !tokens.length || n <= 0) return [];
    if (this.acc.length < this.idOf.length) this.acc = new Float64Array(Math.max(this.idOf.length, this.acc.length * 2, 64));
    const acc = this.acc;
    const avg = this.totalLen / N || 1;
    const qtf = new Map<string, number>();
    for (const t of tokens) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const touched: number[] = [];
    // Rare terms first. A very common term ("error", "type") only adds to documents a rarer term already
    // found, which keeps big stores fast and changes no ranking that matters: a document matching only
    // filler words would be dropped as noise anyway.
    const terms: { k: number; qc: number; p: number[] }[] = [];
    for (const [t, qc] of qtf) {
      const k = this.termIds.get(t);
      if (k !== undefined && this.postings[k].length) terms.push({ k, qc, p: this.postings[k] });
    }
    terms.sort((a, b) => a.p.length - b.p.length);
    const commonDf = Math.max(500, N * 0.15);
    for (const { k, qc, p } of terms) {
      const df = p.length >> 1;
      const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
      // Repeated query words count, but sub-linearly: a pasted stack trace repeats "at" frames.
      const qw = idf * (1 + Math.log(qc));
      if (df > commonDf && touched.length && touched.length < df) {
        // Only documents already found (acc > 0: every score term is positive). Whichever side is
        // shorter is walked; each document still gets this term's weight exactly once.
        if (touched.length * 16 < df) {
          for (const d of touched) {
            const c = countIn(this.docTerms[d]!, k);
            if (c) acc[d] += qw * c * (this.k1 + 1) / (c + this.k1 * (1 - this.b + this.b * this.docLen[d] / avg));
          }
        } else {
          for (let j = 0; j < p.length; j += 2) {
            const d = p[j];
            if (acc[d] === 0) continue;
            const c = p[j + 1];
            acc[d] += qw * c * (this.k1 + 1) / (c + this.k1 * (1 - this.b + this.b * this.docLen[d] / avg));
          }
        }
        continue;
      }
      for (let j = 0; j < p.length; j += 2) {
        const d = p[j], c = p[j + 1];
        const norm = c * (this.k1 + 1) / (c + this.k1 * (1 - this.b + this.b * this.docLen[d] / avg));
        if (acc[d] === 0) touched.push(d);
        acc[d] += qw * norm;
      }
    }
    const top = topN(touched, acc, n);
    const out = top.map(d => {
      const dt = this.docTerms[d]!;
      const terms: string[] = [];
      for (const t of qtf.keys()) {
        const k = this.termIds.get(t);
        if (k !== undefined && countIn(dt, k)) terms.push(t);
      }
      return { id: this.idOf[d]!, score: acc[d], terms };
    });
    for (const d of touched) acc[d] = 0;
    return out;
  }
}

/** Count of term `k` in a document's [termId, count, ...] list (0 when absent). */
function countIn(terms: number[], k: number): number {
  for (let i = 0; i < terms.length; i += 2) if (terms[i] === k) return terms[i + 1];
  return 0;
}

/** The n best doc numbers by score, without sorting every touched doc. */
export function topN(docs: number[], score: Float64Array, n: number): number[] {
  if (docs.length <= n) return [...docs].sort((a, b) => score[b] - score[a]);
  // Min-heap of size n.
  const heap: number[] = [];
  const less = (a: number, b: number) => score[a] < score[b];
  for (const d of docs) {
    if (heap.length < n) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(heap[i], heap[p])) break;
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      }
    } else if (score[d] > score[heap[0]]) {
      heap[0] = d;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l], heap[m])) m = l;
        if (r < heap.length && less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
  }
  return heap.sort((a, b) => score[b] - score[a]);
}
