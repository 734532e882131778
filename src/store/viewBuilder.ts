// Writes the next view.bin from the current one and what changed on top of it (or from memory alone, when
// there is no base): one pass over the documents in order, unchanged ones copied as bytes, changed ones
// written from the state; then one pass over the word dictionary merging each term's base postings with
// the top layer's. Nothing is tokenized again and nothing is held in memory but the tables, so writing the
// view of a large store is linear and bounded. A forgotten memory is simply not written: its words, its
// signature keys and its history leave the file with it (a term or key no memory uses is dropped).
import type { LayeredBm25 } from '../core/lexical/layeredBm25';
import type { HistoryEntry, Memory } from '../core/types';
import { matchText } from './derivedIndexes';
import type { LayeredState } from './layeredState';
import { ViewDamagedError } from './viewFile';
import { byString, type LogPosition } from './viewFormat';
import { ViewWriter } from './viewWriter';

const MAX_HISTORY = 200;
/** Give the event loop back this often (ms): in the extension host and `engram mcp` this runs beside requests. */
const SLICE_MS = 16;

export interface ViewBuildInput {
  dir: string;
  state: LayeredState;
  words: LayeredBm25;
  /** Signature keys of a memory whose words are on top (DerivedIndexes.signaturesOf). */
  signaturesOf(id: string): string[];
  log: LogPosition;
}

/** Writes a temporary view file and returns its path (publish it with viewStore.publishView, or delete it). */
export async function buildView(input: ViewBuildInput): Promise<string> {
  const { state, words } = input;
  const base = state.base;
  const top = words.topLayer;
  const w = new ViewWriter(input.dir);
  try {
    const B = base?.docs ?? 0;
    const newNum = new Int32Array(B).fill(-1);
    const topNum = new Map<string, number>();
    const signatures = new Map<string, number[]>();
    const evidence = new Map<string, number[]>();
    const constraints: number[] = [];
    const push = (map: Map<string, number[]>, key: string, doc: number) => {
      const l = map.get(key);
      if (l) l.push(doc); else map.set(key, [doc]);
    };
    /** Evidence and the constraint flag of a memory written from the state. */
    const tablesOf = (m: Memory, n: number) => {
      if (m.maturity === 'constraint') constraints.push(n);
      if (m.kind === 'lesson' && !m.deleted) for (const e of new Set(m.evidence)) push(evidence, e, n);
    };
    const fromState = (m: Memory, n: number, history: HistoryEntry[]) => {
      const h = history.length > MAX_HISTORY ? history.slice(-MAX_HISTORY) : history;
      const topDoc = top.docNumber(m.id);
      w.addDoc({
        id: m.id, kind: m.kind, pinned: !!m.pinned, expiresAt: m.expiresAt,
        len: topDoc !== undefined ? top.docLength(topDoc) : base ? base.docLen(base.docOf(m.id)) : 0,
        rec: Buffer.from(JSON.stringify(m), 'utf8'), hist: Buffer.from(h.length ? JSON.stringify(h) : '', 'utf8'),
      });
      tablesOf(m, n);
      if (topDoc !== undefined) {
        topNum.set(m.id, n);
        for (const key of input.signaturesOf(m.id)) push(signatures, key, n);
      }
    };
    let slice = performance.now();
    const breathe = async () => {
      if (performance.now() - slice < SLICE_MS) return;
      await new Promise<void>(resolve => setImmediate(resolve));
      slice = performance.now();
    };

    // 1. documents, in the order first recorded: the base's (copied, or as changed since), then the new ones
    let next = 0;
    const scan = base?.scan();
    for (let d = 0; d < B; d++) {
      const id = base!.docId(d);
      const o = state.overlayOf(id);
      if (o === null) continue;
      const n = next++;
      newNum[d] = n;
      if (o) {
        fromState(o, n, [...scan!.history(d), ...state.sessionHistory(id)]);
      } else {
        const rec = scan!.rawRecord(d), hist = scan!.rawHistory(d);
        if (!rec || !hist) throw new ViewDamagedError(base!.damage ?? `memory ${d} is damaged`);
        w.addDoc({ id, kind: base!.kind(d), pinned: base!.pinned(d), expiresAt: base!.expiresAt(d), len: base!.docLen(d), rec, hist });
      }
      await breathe();
    }
    for (const m of state.added()) {
      fromState(m, next++, state.sessionHistory(m.id));
      await breathe();
    }

    // 2. the base's tables for the documents still as the base has them
    if (base) {
      const unchanged = (d: number) => newNum[d] >= 0 && state.overlayOf(base.docId(d)) === undefined;
      for (const d of base.constraintDocs) if (unchanged(d)) constraints.push(newNum[d]);
      for (let i = 0; i < base.episodeCount; i++) {
        const docs = base.lessonDocsAt(i);
        for (const d of docs) if (unchanged(d)) push(evidence, base.episodeAt(i), newNum[d]);
      }
      for (let i = 0; i < base.signatureCount; i++) {
        const key = base.signatureAt(i);
        for (const d of base.signatureDocsAt(i)) if (newNum[d] >= 0 && !words.isDropped(d)) push(signatures, key, newNum[d]);
      }
    }
    for (const l of signatures.values()) l.sort((a, b) => a - b);
    for (const l of evidence.values()) l.sort((a, b) => a - b);

    // 3. postings: the base dictionary and the top layer's words, merged in order
    const topTerms = [...top.terms()].filter(([, p]) => p.length).map(([t]) => t).sort(byString);
    const T = base?.termCount ?? 0;
    let i = 0, j = 0, step = 0;
    while (i < T || j < topTerms.length) {
      const bt = i < T ? base!.termAt(i) : undefined;
      const tt = j < topTerms.length ? topTerms[j] : undefined;
      const term = bt !== undefined && (tt === undefined || bt <= tt) ? bt : tt!;
      const fromBase: [number, number][] = [];
      if (bt === term) {
        const p = base!.postingsAt(i++);
        if (!p) throw new ViewDamagedError(base!.damage ?? `the postings of ${term} are damaged`);
        for (let e = 0; e < p.docs.length; e++) {
          const d = p.docs[e];
          if (!words.isDropped(d) && newNum[d] >= 0) fromBase.push([newNum[d], p.counts[e]]);
        }
      }
      const fromTop: [number, number][] = [];
      if (tt === term) {
        j++;
        const p = top.postingsOf(term)!;
        for (let e = 0; e < p.length; e += 2) {
          const n = topNum.get(top.idAt(p[e])!);
          if (n !== undefined) fromTop.push([n, p[e + 1]]);
        }
        fromTop.sort((a, b) => a[0] - b[0]);
      }
      const merged = mergeSorted(fromBase, fromTop);
      if (merged.length) w.addTerm(term, merged.map(x => x[0]), merged.map(x => x[1]));
      if (++step % 256 === 0) await breathe();
    }

    const tombstones = new Set(state.sessionTombstones());
    if (base) for (let t = 0; t < base.tombstoneCount; t++) tombstones.add(base.tombstoneAt(t));
    return w.finish({ signatures, textOf: matchText, evidence, constraints, tombstones, log: input.log, revision: state.revision });
  } catch (e) {
    w.abort();
    throw e;
  }
}

function mergeSorted(a: [number, number][], b: [number, number][]): [number, number][] {
  if (!b.length) return a;
  if (!a.length) return b;
  const out: [number, number][] = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i][0] < b[j][0])) out.push(a[i++]); else out.push(b[j++]);
  }
  return out;
}
