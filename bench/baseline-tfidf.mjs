// The naive baseline for bench/quality.mjs: TF-IDF cosine over each memory's whole text, with no
// signature normalisation, no code-aware tokens, no glossary and no scope. What "just search the notes"
// would give on the same labelled set.
export function wholeText(m) {
  return [m.errorSignature ?? m.errorText ?? '', m.rootCause ?? '', m.fixApproach ?? '', m.content ?? '', (m.tags ?? []).join(' ')].join('\n');
}

function terms(s) {
  return s.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
}

export class TfidfBaseline {
  /** @param {{id: string}[]} memories parsed import lines */
  constructor(memories) {
    const docs = memories.map(m => ({ id: m.id, tf: count(terms(wholeText(m))) }));
    const df = new Map();
    for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    this.idf = new Map([...df].map(([t, n]) => [t, Math.log(docs.length / n) + 1]));
    this.docs = docs.map(d => {
      const v = new Map([...d.tf].map(([t, c]) => [t, c * this.idf.get(t)]));
      return { id: d.id, v, norm: Math.hypot(...v.values()) || 1 };
    });
  }

  search(query, k = 3) {
    const q = new Map([...count(terms(query))].map(([t, c]) => [t, c * (this.idf.get(t) ?? 0)]));
    const qn = Math.hypot(...q.values()) || 1;
    const scored = [];
    for (const d of this.docs) {
      let dot = 0;
      for (const [t, w] of q) { const x = d.v.get(t); if (x) dot += w * x; }
      if (dot > 0) scored.push({ id: d.id, score: dot / (qn * d.norm) });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, k);
  }
}

function count(ts) {
  const m = new Map();
  for (const t of ts) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
