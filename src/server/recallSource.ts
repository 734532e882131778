// The candidate queries of server recall, apart from ranking: which memories of the caller's tenant a
// query can be about — by words (PostgreSQL full-text search over Engram's own tokens, BM25-weighted with
// the tenant's word statistics), by signature (the exact keys, and the same message under another tool),
// the constraints that always come in scope, the lessons standing behind candidate episodes — and their
// vectors when pgvector is there. Every query runs inside the caller's transaction, so row-level security
// has already cut the rows to the tenant and to what this principal may see.
import { tokenize } from '../core/lexical';
import { querySignatures, signatureTextOf } from '../core/recallQuery';
import { ROW_COLUMNS, stored, type RowOut, type StoredMemory } from './writes';
import type { Queryable } from './db';
import { anyTermQuery, parseVector } from './memoryRows';

/** The longest query text recall reads (the engine cuts at the same length). */
export const MAX_QUERY_CHARS = 64 * 1024;
/** Members of one signature fetched at most; the engine narrows them further by trust and recency. */
const MAX_SIGNATURE_ROWS = 2000;
const MAX_CONSTRAINTS = 100;
const K1 = 1.2;
const B = 0.75;

/** What the caller may recall: approved memories, and its own while they wait for review. */
export const RECALLABLE = `(status = 'approved' OR principal = current_setting('engram.principal', true)) AND (expires_at IS NULL OR expires_at >= $NOW)`;

export interface TenantStats { docs: number; avgLen: number; df: Map<string, number> }

export interface LexicalHit { id: string; score: number; terms: string[] }

export interface Candidates {
  stats: TenantStats;
  lexical: LexicalHit[];
  /** Signature key → ids filed under it (only the keys this query is about). */
  bySignature: Map<string, Set<string>>;
  memories: Map<string, StoredMemory>;
  vectors?: Map<string, Float32Array>;
}

function recallable(nowParam: number): string {
  return RECALLABLE.replace('$NOW', `$${nowParam}`);
}

/**
 * The statistics BM25 reads for this caller: the team's and the caller's own private memories' (never
 * another principal's: their words must not move this caller's scores).
 */
export async function tenantStats(q: Queryable, tenant: string, terms: string[]): Promise<TenantStats> {
  const mine = `tenant_id = $1 AND scope IN ('', coalesce(current_setting('engram.principal', true), ''))`;
  const r = await q.query<{ docs: string | null; total_len: string | null; terms: string[] | null; dfs: string[] | null }>(
    `SELECT d.docs, d.total_len, s.terms, s.dfs FROM
       (SELECT sum(docs) AS docs, sum(total_len) AS total_len FROM scope_stats WHERE ${mine}) d,
       (SELECT array_agg(term) AS terms, array_agg(df) AS dfs FROM
          (SELECT term, sum(df) AS df FROM term_stats WHERE ${mine} AND term = ANY($2::text[]) GROUP BY term HAVING sum(df) > 0) w) s`,
    [tenant, terms],
  );
  const row = r.rows[0];
  const docs = Number(row?.docs ?? 0);
  const df = new Map<string, number>();
  (row?.terms ?? []).forEach((t, i) => df.set(t, Number(row!.dfs![i])));
  return { docs, avgLen: docs ? Number(row!.total_len) / docs || 1 : 1, df };
}

export function idfOf(stats: TenantStats, term: string): number {
  const df = stats.df.get(term) ?? 0;
  if (!df) return 0;
  return Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
}

/**
 * BM25 over the tenant, the window's formula (core/lexical/bm25.ts) in SQL: documents are found by their
 * rarer query words (full-text index); very common words only add to documents a rarer word found, as the
 * window's index does, so a query made of filler scans nothing. And, in the same round trip, the memories
 * filed under the query's signature keys or under the same message with another tool prefix.
 */
export async function wordAndSignatureCandidates(
  q: Queryable, tenant: string, text: string, tokens: string[], stats: TenantStats, n: number, now: number,
): Promise<{ lexical: LexicalHit[]; bySignature: Map<string, Set<string>> }> {
  const params: unknown[] = [tenant, now];
  const parts: string[] = [];
  const ctes: string[] = [];
  const qtf = new Map<string, number>();
  for (const t of tokens) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const known = stats.docs && n > 0 ? [...qtf.keys()].filter(t => stats.df.has(t)) : [];
  if (known.length) {
    const commonDf = Math.max(500, stats.docs * 0.15);
    const rare = known.filter(t => stats.df.get(t)! <= commonDf);
    const weights = known.map(t => idfOf(stats, t) * (1 + Math.log(qtf.get(t)!)));
    const at = params.length;
    params.push(known, weights, anyTermQuery(rare.length ? rare : known), stats.avgLen, n);
    ctes.push(
      `qt AS (SELECT * FROM unnest($${at + 1}::text[], $${at + 2}::float8[]) AS qt(term, w))`,
      `hits AS (SELECT id, len, terms, tf FROM memories WHERE tenant_id = $1 AND words @@ $${at + 3}::tsquery AND ${recallable(2)})`,
      `lex AS (SELECT h.id, sum(qt.w * d.tf * ${K1 + 1} / (d.tf + ${K1} * (${1 - B} + ${B} * h.len / $${at + 4}::float8))) AS score, array_agg(qt.term) AS terms
         FROM hits h CROSS JOIN LATERAL unnest(h.terms, h.tf) AS d(term, tf) JOIN qt ON qt.term = d.term
         GROUP BY h.id ORDER BY score DESC, h.id LIMIT $${at + 5})`,
    );
    parts.push(`SELECT 'w' AS src, id, score, terms, NULL::text[] AS sig_keys FROM lex`);
  }
  const keys = [...querySignatures(text).keys()];
  if (keys.length) {
    const at = params.length;
    params.push(keys, [...new Set(keys.map(signatureTextOf).filter(t => t.length >= 12))]);
    ctes.push(`sig AS (SELECT id, sig_keys FROM memories WHERE tenant_id = $1 AND (sig_keys && $${at + 1}::text[] OR sig_texts && $${at + 2}::text[]) AND ${recallable(2)}
      ORDER BY updated_at DESC LIMIT ${MAX_SIGNATURE_ROWS})`);
    parts.push(`SELECT 's' AS src, id, NULL::float8 AS score, NULL::text[] AS terms, sig_keys FROM sig`);
  }
  const lexical: LexicalHit[] = [];
  const bySignature = new Map<string, Set<string>>();
  if (!parts.length) return { lexical, bySignature };
  const r = await q.query<{ src: string; id: string; score: number | null; terms: string[] | null; sig_keys: string[] | null }>(
    `WITH ${ctes.join(',\n')} ${parts.join(' UNION ALL ')}`, params,
  );
  for (const row of r.rows) {
    if (row.src === 'w') { lexical.push({ id: row.id, score: Number(row.score), terms: row.terms ?? [] }); continue; }
    for (const key of row.sig_keys ?? []) {
      let set = bySignature.get(key);
      if (!set) { set = new Set(); bySignature.set(key, set); }
      set.add(row.id);
    }
  }
  lexical.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return { lexical, bySignature };
}

/**
 * The memories themselves: the candidates, the tenant's constraints (they come whenever they are in scope),
 * then what the ranking asks about them — the live lesson behind a candidate episode, and whether the fact
 * that superseded a candidate fact still exists.
 */
export async function loadCandidates(q: Queryable, tenant: string, ids: string[], now: number, vectors: boolean): Promise<{ memories: Map<string, StoredMemory>; vectors?: Map<string, Float32Array> }> {
  const cols = `${ROW_COLUMNS}${vectors ? ', embedding::text AS embedding' : ''}`;
  const memories = new Map<string, StoredMemory>();
  const vecs = vectors ? new Map<string, Float32Array>() : undefined;
  const take = (rows: RowOut[]) => {
    for (const row of rows) {
      const s = stored(row);
      memories.set(s.memory.id, s);
      const v = vecs && parseVector(row.embedding);
      if (v) vecs!.set(s.memory.id, v);
    }
  };
  const first = await q.query<RowOut>(
    `(SELECT ${cols} FROM memories WHERE tenant_id = $1 AND id = ANY($2::text[]) AND ${recallable(3)})
     UNION ALL
     (SELECT ${cols} FROM memories WHERE tenant_id = $1 AND maturity = 'constraint' AND NOT (id = ANY($2::text[])) AND ${recallable(3)} ORDER BY updated_at DESC LIMIT ${MAX_CONSTRAINTS})`,
    [tenant, ids, now],
  );
  take(first.rows);
  const episodes: string[] = [];
  const successors: string[] = [];
  for (const s of memories.values()) {
    if (s.memory.kind === 'episode') episodes.push(s.memory.id);
    if (s.memory.kind === 'fact' && s.memory.supersededBy && !memories.has(s.memory.supersededBy)) successors.push(s.memory.supersededBy);
  }
  if (episodes.length || successors.length) {
    const more = await q.query<RowOut>(
      `SELECT ${cols} FROM memories WHERE tenant_id = $1 AND ((kind = 'lesson' AND evidence && $2::text[]) OR id = ANY($3::text[])) AND ${recallable(4)}`,
      [tenant, episodes, successors, now],
    );
    take(more.rows.filter(r => !memories.has(r.body.id)));
  }
  return { memories, vectors: vecs };
}

/** All candidate queries for one recall, in the caller's transaction. */
export async function fetchCandidates(
  q: Queryable, tenant: string, query: { text: string; k: number; now: number }, opts: { vectors: boolean; pickTokens(tokens: string[], stats: TenantStats): string[] },
): Promise<Candidates> {
  const text = query.text.slice(0, MAX_QUERY_CHARS);
  const all = tokenize(text);
  const stats = await tenantStats(q, tenant, [...new Set(all)]);
  const tokens = opts.pickTokens(all, stats);
  const pool = Math.max(50, query.k * 10);
  const { lexical, bySignature } = await wordAndSignatureCandidates(q, tenant, text, tokens, stats, pool, query.now);
  const ids = new Set(lexical.map(h => h.id));
  for (const set of bySignature.values()) for (const id of set) ids.add(id);
  const { memories, vectors } = await loadCandidates(q, tenant, [...ids], query.now, opts.vectors);
  return { stats, lexical, bySignature, memories, vectors };
}

/** Nearest memories by vector (the HNSW index): the full search a real embedding model would use. */
export async function vectorCandidates(q: Queryable, tenant: string, vector: string, n: number, now: number): Promise<{ id: string; score: number }[]> {
  const r = await q.query<{ id: string; d: number }>(
    `SELECT id, embedding <=> $2::vector AS d FROM memories WHERE tenant_id = $1 AND embedding IS NOT NULL AND ${recallable(3)} ORDER BY embedding <=> $2::vector LIMIT $4`,
    [tenant, vector, now, n],
  );
  return r.rows.map(x => ({ id: x.id, score: 1 - Number(x.d) }));
}
