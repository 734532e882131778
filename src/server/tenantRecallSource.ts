// The team server's RecallSource (core/recallService.ts): one tenant's database as a store recall ranks in.
// Its recall(q) runs the candidate statement (recallSource.ts) — what one query can be about, in one round
// trip as the caller, so row-level security has already cut the rows — and ranks them with the window's
// own RecallEngine (core/recall.ts: gate, caps, reasons, constraints, near misses) over the interfaces of
// core/recall/source.ts, the tenant's word statistics standing in for the in-memory index. Owners, the
// default and largest k and merging come from the RecallService the server asks, as on every surface.
import { Bm25Index } from '../core/lexical';
import { RecallEngine } from '../core/recall';
import type { RecallSource } from '../core/recallService';
import { MemoryState } from '../core/reduce';
import type { RecallQuery, RecallResult } from '../core/types';
import { HashEmbedder } from '../store/hashEmbedder';
import type { Caller, Db } from './db';
import { fetchCandidates, idfOf, type Candidates, type LexicalHit, type TenantStats } from './recallSource';
import type { StoredMemory } from './writes';

/**
 * The word index as the engine reads it: sizes and idf from the tenant's statistics, hits from the SQL
 * that ranked them. Only the reading half of Bm25Index is used; nothing is ever added to it.
 */
class TenantLexical extends Bm25Index {
  constructor(private readonly stats: TenantStats, private readonly hits: LexicalHit[]) { super(); }
  override get size(): number { return this.stats.docs; }
  override idf(token: string): number { return idfOf(this.stats, token); }
  override searchWithTerms(_tokens: string[], n: number): LexicalHit[] { return this.hits.slice(0, n); }
  override search(_query: string | string[], n: number): { id: string; score: number }[] { return this.hits.slice(0, n).map(({ id, score }) => ({ id, score })); }
}

const embedder = new HashEmbedder();

/** Memories a recall ranked, with their rows (visibility, author) for the answer. */
export class TenantRecallSource implements RecallSource {
  /** Every row the last recall fetched, by id. */
  readonly meta = new Map<string, StoredMemory>();

  constructor(private readonly db: Db, private readonly caller: Caller, private readonly opts: { vectors: boolean; workspace?: string; now: number }) {}

  async recall(query: RecallQuery): Promise<RecallResult[]> {
    const k = query.k ?? 5;
    const c = await fetchCandidates((st, params) => this.db.callerStatement(this.caller, st, params), this.caller.tenant, { text: query.text, k, now: this.opts.now }, {
      vectors: this.opts.vectors,
    });
    for (const [id, s] of c.memories) this.meta.set(id, s);
    return this.engineOver(c).recall({ ...query, now: this.opts.now });
  }

  private engineOver(c: Candidates): RecallEngine {
    const state = new MemoryState();
    for (const s of c.memories.values()) state.apply({ type: 'recorded', id: s.memory.id, at: s.memory.updatedAt, memory: s.memory });
    const vectors = c.vectors;
    return new RecallEngine({
      state,
      lexical: new TenantLexical(c.stats, c.lexical),
      bySignature: c.bySignature,
      // The hash embedder's vectors rescore what words and signatures found, as in the window.
      ...(this.opts.vectors && vectors ? { vectorOf: (id: string) => vectors.get(id), embedQuery: async (text: string) => embedder.embedOne(text) } : {}),
      defaultOwners: ['team', 'personal'],
      ...(this.opts.workspace ? { workspaceId: this.opts.workspace } : {}),
    });
  }
}
