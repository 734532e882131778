// Model-free embedding by feature hashing: words (case-folded, NFKC) and character n-grams are hashed
// into 384 buckets with a sign bit, then L2-normalised. It captures shared vocabulary and spelling
// variants (TS2322 ~ ts2322, "assignable" ~ "assignability"), not meaning; it keeps vector recall working
// offline and is deterministic across processes and machines.
import type { Embedder } from './embedder';

export const HASH_DIMS = 384;

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

// Feature kinds seed the hash differently, so a word and a trigram with the same letters never collide on purpose.
const SEED_WORD = 0x811c9dc5, SEED_TRI = 0x01234567, SEED_HAN1 = 0x2545f491, SEED_HAN2 = 0x6c8e9cf5;

export class HashEmbedder implements Embedder {
  readonly kind = 'hash' as const;
  readonly id: string;
  constructor(readonly dims: number = HASH_DIMS) {
    this.id = `hash-v1-${dims}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map(t => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dims);
    // Hand-rolled scan: a Unicode-property regex over every text is most of the cost otherwise.
    const s = ASCII_ONLY.test(text) ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
    const n = s.length;
    let i = 0;
    while (i < n) {
      while (i < n && !isWordChar(s, i)) i++;
      const start = i;
      let hangul = false;
      while (i < n && isWordChar(s, i)) {
        const c = s.charCodeAt(i);
        if (c >= 0xac00 && c <= 0xd7a3) hangul = true;
        i++;
      }
      if (i > start) this.addToken(v, s, start, i, hangul);
    }
    let sum = 0;
    for (let k = 0; k < v.length; k++) sum += v[k] * v[k];
    if (sum > 0) {
      const inv = 1 / Math.sqrt(sum);
      for (let k = 0; k < v.length; k++) v[k] *= inv;
    }
    return v;
  }

  private addToken(v: Float32Array, s: string, start: number, end: number, hangul: boolean): void {
    let h = SEED_WORD;
    for (let k = start; k < end; k++) h = mix(h, s.charCodeAt(k));
    this.bump(v, h, 1);
    const len = end - start;
    if (hangul) {
      // Korean words carry particles (에러가, 에러를): syllable unigrams and bigrams match the stem.
      for (let k = start; k < end; k++) {
        const c = s.charCodeAt(k);
        this.bump(v, mix(SEED_HAN1, c), 0.3);
        if (k + 1 < end) this.bump(v, mix(mix(SEED_HAN2, c), s.charCodeAt(k + 1)), 0.6);
      }
    } else if (len > 3) {
      // Trigrams over the word padded with ^ and $: morphology and typos still overlap.
      const at = (k: number) => (k < start ? 0x5e : k >= end ? 0x24 : s.charCodeAt(k));
      for (let k = start - 1; k + 3 <= end + 1; k++) this.bump(v, mix(mix(mix(SEED_TRI, at(k)), at(k + 1)), at(k + 2)), 0.35);
    }
  }

  private bump(v: Float32Array, h: number, weight: number): void {
    h = fmix(h);
    // Stay in small-integer range (no heap numbers): low 30 bits pick the bucket, the sign bit the sign.
    v[(h & 0x3fffffff) % this.dims] += h < 0 ? -weight : weight;
  }

  dispose(): void { /* nothing held */ }
}

function isWordChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || (c >= 0x41 && c <= 0x5a);
  if (c >= 0xac00 && c <= 0xd7a3) return true;
  if (c >= 0xd800 && c <= 0xdfff) return true; // astral letters (CJK ext.): keep surrogate pairs together
  return WORD_CHAR.test(s[i]);
}

/** One FNV-1a step over a UTF-16 code unit. */
function mix(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** Final avalanche (murmur3 fmix32), so bucket and sign bits are well spread. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
