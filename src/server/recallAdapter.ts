// Server recall through the window's own RecallEngine (core/recall.ts): the candidate queries
// (recallSource.ts) fetch what one query can be about, and the engine ranks exactly as in the editor —
// gate, caps, reasons, constraints, near misses — over those memories, with the tenant's word statistics
// standing in for the in-memory index. A thin adapter by design: when the recall service with a
// pluggable candidate source lands in core, this file is what it replaces.
import { Bm25Index } from '../core/lexical';
import { RecallEngine } from '../core/recall';
import { pickTokens } from '../core/recallQuery';
import { MemoryState } from '../core/reduce';
import type { RecallQuery, RecallResult } from '../core/types';
import { HashEmbedder } from '../store/hashEmbedder';
import type { Caller, Queryable } from './db';
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

export interface ServerRecall { results: RecallResult[]; meta: Map<string, StoredMemory> }

export async function recallForCaller(q: Queryable, caller: Caller, query: RecallQuery & { k: number; now: number }, opts: { vectors: boolean; workspace?: string }): Promise<ServerRecall> {
  const c = await fetchCandidates(q, caller.tenant, query, {
    vectors: opts.vectors,
    pickTokens: (tokens, stats) => pickTokens(tokens, new TenantLexical(stats, [])),
  });
  const engine = engineOver(c, opts);
  const results = await engine.recall({ ...query, owners: ['team', 'personal'] });
  return { results, meta: c.memories };
}

function engineOver(c: Candidates, opts: { vectors: boolean; workspace?: string }): RecallEngine {
  const state = new MemoryState();
  for (const s of c.memories.values()) state.apply({ type: 'recorded', id: s.memory.id, at: s.memory.updatedAt, memory: s.memory });
  const vectors = c.vectors;
  return new RecallEngine({
    state,
    lexical: new TenantLexical(c.stats, c.lexical),
    bySignature: c.bySignature,
    // The hash embedder's vectors rescore what words and signatures found, as in the window.
    ...(opts.vectors && vectors ? { vectorOf: (id: string) => vectors.get(id), embedQuery: async (text: string) => embedder.embedOne(text) } : {}),
    defaultOwners: ['team', 'personal'],
    ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
  });
}
