// The candidate queries of server recall, apart from ranking: which memories of the caller's tenant a
// query can be about — by words (PostgreSQL full-text search over Engram's own tokens, BM25-weighted with
// the tenant's word statistics), by signature (the exact keys, and the same message under another tool),
// the constraints that always come in scope, the lessons standing behind candidate episodes — and their
// vectors when pgvector is there. Every query runs inside the caller's transaction, so row-level security
// has already cut the rows to the tenant and to what this principal may see.
import { tokenize } from '../core/lexical';
import { MAX_QUERY_TOKENS, querySignatures, signatureTextOf } from '../core/recallQuery';
import { ROW_COLUMNS, stored, type RowOut, type StoredMemory } from './writes';
import type { Queryable, Rows, Statement } from './db';
import { parseVector } from './memoryRows';

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

export function idfOf(stats: TenantStats, term: string): number {
  const df = stats.df.get(term) ?? 0;
  if (!df) return 0;
  return Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
}

/** What may be recalled, with the transaction time as parameter $2. */
const R = RECALLABLE.replace('$NOW', '$2');

/**
 * Everything one recall reads, as one statement (so one round trip with the caller's settings, and, being
 * prepared, planned once per connection). Parameters: $1 tenant, $2 now, $3 the query's distinct tokens
 * and $4 how often each occurs, $5 how many word hits to keep, $6 signature keys, $7 their message texts.
 *
 * - Statistics: the team's and the caller's own private memories' (never another principal's: their words
 *   must not move this caller's scores), and each query token's document frequency.
 * - Words: BM25 over the tenant, the window's formula (core/lexical/bm25.ts) in SQL. Of a long query only
 *   the MAX_QUERY_TOKENS rarest known words count (core/recallQuery.ts pickTokens). Documents are found
 *   by their rarer query words; very common words only add to documents a rarer word found, as the
 *   window's index does, so a query made of filler scans nothing. A document's count of a word is read
 *   from its term arrays by position, without unnesting them (slots).
 * - Signatures: memories filed under the query's keys or under the same message with another tool prefix.
 * - Rows: the candidates, the tenant's constraints (they come whenever they are in scope), the live lesson
 *   behind a candidate episode, and the fact that superseded a candidate fact.
 */
/**
 * One expression per query word the statement may weigh (at most MAX_QUERY_TOKENS): a document's count of
 * each is read by position from its term arrays, as plain expressions over the row (no per-row subquery,
 * which cost more than the rest of the recall together).
 */
function slotList(n: number, one: (i: number) => string, sep = ', '): string {
  return Array.from({ length: n }, (_, i) => one(i + 1)).join(sep);
}

/** Statements are made for this many query words at most, the smallest that fits being used. */
const SLOT_SIZES = [8, 16, 32, MAX_QUERY_TOKENS];

function recallText(vectors: boolean, n: number): string {
  const slots = (one: (i: number) => string, sep?: string) => slotList(n, one, sep);
  const cols = `id, kind, ${ROW_COLUMNS}${vectors ? ', embedding::text AS embedding' : ''}`;
  return `WITH
  d AS (SELECT coalesce(sum(docs), 0)::float8 AS docs, coalesce(sum(total_len), 0)::float8 AS total_len
        FROM scope_stats WHERE tenant_id = $1 AND scope IN ('', coalesce(current_setting('engram.principal', true), ''))),
  df AS (SELECT term, sum(df)::float8 AS df FROM term_stats
         WHERE tenant_id = $1 AND scope IN ('', coalesce(current_setting('engram.principal', true), '')) AND term = ANY ($3) GROUP BY term HAVING sum(df) > 0),
  known AS (SELECT u.term, u.ord, df.df, ln(1 + (d.docs - df.df + 0.5) / (df.df + 0.5)) * (1 + ln(u.qtf)) AS w,
                   ln(1 + (d.docs - df.df + 0.5) / (df.df + 0.5)) AS idf
            FROM unnest($3, $4) WITH ORDINALITY AS u(term, qtf, ord) JOIN df USING (term) CROSS JOIN d WHERE d.docs > 0 AND $5 > 0),
  qt AS (SELECT term, w, df, ord FROM known
         WHERE cardinality($3) <= ${MAX_QUERY_TOKENS} OR ord IN (SELECT ord FROM known ORDER BY idf DESC, ord LIMIT ${MAX_QUERY_TOKENS})),
  qa AS (SELECT array_agg(term ORDER BY ord) AS terms, array_agg(w ORDER BY ord) AS w, count(*) AS n FROM qt),
  probe AS (SELECT coalesce(nullif(array(SELECT term FROM qt WHERE df <= greatest(500, (SELECT docs FROM d) * 0.15)), '{}'), array(SELECT term FROM qt)) AS terms),
  -- The probe as a tsquery of exact lexemes (memoryRows.ts anyTermQuery, in SQL; chr(92) is the backslash):
  -- matching the tsvector costs less than overlapping the term arrays.
  -- No probe words: NULL, which matches nothing (an empty tsquery would too, with a notice).
  tsq AS (SELECT string_agg('''' || replace(replace(t, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' | ')::tsquery AS q
          FROM unnest((SELECT terms FROM probe)) AS t),
  avg AS (SELECT CASE WHEN docs > 0 AND total_len > 0 THEN total_len / docs ELSE 1 END AS len FROM d),
  hits AS MATERIALIZED (SELECT m.id, ${K1} * (${1 - B} + ${B}::float8 * m.len / avg.len) AS norm, ARRAY[${slots((i) => `CASE WHEN qa.n >= ${i} THEN m.tf[array_position(m.terms, qa.terms[${i}])] END`)}] AS x
           FROM memories m CROSS JOIN qa CROSS JOIN avg WHERE m.tenant_id = $1 AND m.words @@ (SELECT q FROM tsq) AND ${R}),
  -- MATERIALIZED: inlined, each h.x[i] below would be the whole array expression again.
  lex AS (SELECT h.id, h.x, ${slots((i) => `coalesce(qa.w[${i}] * h.x[${i}] * ${K1 + 1} / (h.x[${i}] + h.norm), 0)`, ' + ')} AS score
          FROM hits h CROSS JOIN qa ORDER BY score DESC, h.id LIMIT $5),
  sig AS (SELECT id, sig_keys FROM memories WHERE tenant_id = $1 AND (sig_keys && $6 OR sig_texts && $7) AND ${R}
          ORDER BY updated_at DESC LIMIT ${MAX_SIGNATURE_ROWS}),
  cand AS (SELECT id FROM lex UNION SELECT id FROM sig),
  m1 AS (SELECT ${cols} FROM memories WHERE tenant_id = $1 AND id IN (SELECT id FROM cand) AND ${R}
         UNION ALL
         (SELECT ${cols} FROM memories WHERE tenant_id = $1 AND maturity = 'constraint' AND id NOT IN (SELECT id FROM cand) AND ${R}
          ORDER BY updated_at DESC LIMIT ${MAX_CONSTRAINTS})),
  behind AS (SELECT array(SELECT id FROM m1 WHERE kind = 'episode') AS episodes,
                    array(SELECT body->>'supersededBy' FROM m1 WHERE kind = 'fact' AND body ? 'supersededBy') AS successors),
  -- Most recalls have neither: the memories are then not read at all (behind's one row fails the filter).
  m2 AS (SELECT ${cols.replace(/(^|, )(?=[a-z])/g, '$1m.')} FROM behind b JOIN memories m
           ON m.tenant_id = $1 AND ((m.kind = 'lesson' AND m.evidence && b.episodes) OR m.id = ANY (b.successors))
         WHERE cardinality(b.episodes) + cardinality(b.successors) > 0 AND m.id NOT IN (SELECT id FROM m1) AND ${R.replace(/(?<![.\w])(status|principal|expires_at)\b/g, 'm.$1')})
SELECT (SELECT docs FROM d) AS docs, (SELECT total_len FROM d) AS total_len,
  (SELECT json_agg(json_build_array(term, df)) FROM df) AS dfs,
  (SELECT terms FROM qa) AS qterms,
  (SELECT json_agg(json_build_array(id, score, x)) FROM lex) AS lex,
  (SELECT json_agg(json_build_array(id, sig_keys)) FROM sig) AS sig,
  (SELECT json_agg(r) FROM (SELECT * FROM m1 UNION ALL SELECT * FROM m2) r) AS rows`;
}

const STATEMENTS = new Map<string, Statement>();

/**
 * The recall statement for a query of `words` distinct tokens (with or without vectors); the name says
 * its version and size, so a changed text is prepared anew.
 */
export function recallStatement(vectors: boolean, words: number): Statement {
  const n = SLOT_SIZES.find(x => x >= Math.min(words, MAX_QUERY_TOKENS))!;
  const name = `engram_recall_v3_${n}${vectors ? '_vec' : ''}`;
  let st = STATEMENTS.get(name);
  if (!st) {
    st = { name, types: ['text', 'bigint', 'text[]', 'int[]', 'int', 'text[]', 'text[]'], text: recallText(vectors, n) };
    STATEMENTS.set(name, st);
  }
  return st;
}

interface RecallRow {
  docs: number | string | null; total_len: number | string | null;
  dfs: [string, number][] | null; qterms: string[] | null; lex: [string, number, (number | null)[]][] | null; sig: [string, string[]][] | null;
  rows: (RowOut & { id: string })[] | null;
}

/** All candidates for one recall: one statement, one round trip (`run` executes it as the caller). */
export async function fetchCandidates(
  run: (st: Statement, params: unknown[]) => Promise<Rows<RecallRow>>, tenant: string, query: { text: string; k: number; now: number }, opts: { vectors: boolean },
): Promise<Candidates> {
  const text = query.text.slice(0, MAX_QUERY_CHARS);
  const qtf = new Map<string, number>();
  for (const t of tokenize(text)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const keys = [...querySignatures(text).keys()];
  const sigTexts = [...new Set(keys.map(signatureTextOf).filter(t => t.length >= 12))];
  const pool = Math.max(50, query.k * 10);
  const r = await run(recallStatement(opts.vectors, qtf.size), [tenant, query.now, [...qtf.keys()], [...qtf.values()], pool, keys, sigTexts]);
  const row = r.rows[0];
  const docs = Number(row?.docs ?? 0);
  const stats: TenantStats = { docs, avgLen: docs ? Number(row!.total_len) / docs || 1 : 1, df: new Map((row?.dfs ?? []).map(([t, n]) => [t, Number(n)])) };
  const qterms = row?.qterms ?? [];
  const lexical: LexicalHit[] = (row?.lex ?? []).map(([id, score, x]) => ({ id, score: Number(score), terms: qterms.filter((_, i) => x[i] !== null && x[i] !== undefined) }));
  lexical.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const bySignature = new Map<string, Set<string>>();
  for (const [id, sigKeys] of row?.sig ?? []) {
    for (const key of sigKeys ?? []) {
      let set = bySignature.get(key);
      if (!set) { set = new Set(); bySignature.set(key, set); }
      set.add(id);
    }
  }
  const memories = new Map<string, StoredMemory>();
  const vectors = opts.vectors ? new Map<string, Float32Array>() : undefined;
  for (const m of row?.rows ?? []) {
    const s = stored(m);
    memories.set(s.memory.id, s);
    const v = vectors && parseVector(m.embedding);
    if (v) vectors!.set(s.memory.id, v);
  }
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
