// Model-free embedding by feature hashing: words (case-folded, NFKC) and character n-grams are hashed
// into 384 buckets with a sign bit, then L2-normalised. It captures shared vocabulary and spelling
// variants (TS2322 ~ ts2322, "assignable" ~ "assignability"), not meaning; it keeps vector recall working
// offline and is deterministic across processes and machines.
import type { Embedder } from './embedder';

export const HASH_DIMS = 384;

const HANGUL = /[\uac00-\ud7a3]/;
const TOKEN = /[\p{L}\p{N}_]+/gu;

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
    const norm = text.normalize('NFKC').toLowerCase();
    for (const m of norm.matchAll(TOKEN)) {
      const tok = m[0];
      this.add(v, 'w:' + tok, 1);
      if (HANGUL.test(tok)) {
        // Korean words carry particles (에러가, 에러를): syllable bigrams and unigrams match the stem.
        const chars = [...tok];
        for (let i = 0; i < chars.length; i++) {
          this.add(v, 'h1:' + chars[i], 0.3);
          if (i + 1 < chars.length) this.add(v, 'h2:' + chars[i] + chars[i + 1], 0.6);
        }
      } else if (tok.length > 3) {
        // Character trigrams over the padded word: morphology and typos still overlap.
        const w = `^${tok}$`;
        for (let i = 0; i + 3 <= w.length; i++) this.add(v, 'c:' + w.slice(i, i + 3), 0.35);
      }
    }
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
    if (sum > 0) {
      const inv = 1 / Math.sqrt(sum);
      for (let i = 0; i < v.length; i++) v[i] *= inv;
    }
    return v;
  }

  private add(v: Float32Array, feature: string, weight: number): void {
    const h = fnv1a(feature);
    v[h % this.dims] += (h & 0x80000000) ? -weight : weight;
  }

  dispose(): void { /* nothing held */ }
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable, good enough spread for bucket hashing. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
