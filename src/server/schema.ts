// The server's schema, created and migrated on start (versioned, one migration at a time under an
// advisory lock, so servers starting together on one database do not race). The record is `memories`
// (current state, the Memory as JSON) and `events` (its history); words, signatures, evidence and vectors
// are derived columns and tables kept in step on every write (writes.ts). Every table with tenant data has
// row-level security keyed on the transaction's `engram.tenant` setting, and private rows on
// `engram.principal`: a query that forgets its WHERE clause still sees one tenant only.
import { APP_ROLE, type Db, type Queryable } from './db';

export const SCHEMA_VERSION = 2;
/** The dimension of the stored vectors (the model-free hash embedder's, store/hashEmbedder.ts). */
export const VECTOR_DIMS = 384;
const MIGRATION_LOCK = 7_077_020;

const TENANT = `current_setting('engram.tenant', true)`;
const PRINCIPAL = `current_setting('engram.principal', true)`;
const TENANT_TABLES = ['tenants', 'memories', 'events', 'term_stats', 'scope_stats', 'tombstones'] as const;
/** Word statistics per scope: '' is the team's, a principal's name their private memories'. */
const STATS_TABLES = ['term_stats', 'scope_stats'];

/** Migration n brings the schema from version n-1 to n. Never edit one that has shipped: add the next. */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE tokens (
    id text PRIMARY KEY,
    hash text NOT NULL UNIQUE,
    tenant_id text NOT NULL,
    principal text NOT NULL,
    role text NOT NULL CHECK (role IN ('member', 'reviewer', 'admin')),
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
  );
  CREATE TABLE tenants (
    tenant_id text PRIMARY KEY,
    revision bigint NOT NULL DEFAULT 0,
    docs bigint NOT NULL DEFAULT 0,
    total_len bigint NOT NULL DEFAULT 0
  );
  CREATE TABLE memories (
    tenant_id text NOT NULL,
    id text NOT NULL,
    kind text NOT NULL,
    visibility text NOT NULL CHECK (visibility IN ('team', 'private')),
    principal text NOT NULL,
    status text NOT NULL CHECK (status IN ('approved', 'proposed')),
    maturity text NOT NULL,
    expires_at bigint,
    updated_at bigint NOT NULL,
    rev bigint NOT NULL,
    body jsonb NOT NULL,
    sig_keys text[] NOT NULL,
    sig_texts text[] NOT NULL,
    evidence text[] NOT NULL,
    words tsvector NOT NULL,
    terms text[] NOT NULL,
    tf integer[] NOT NULL,
    len integer NOT NULL,
    PRIMARY KEY (tenant_id, id)
  );
  CREATE INDEX memories_words ON memories USING gin (words);
  CREATE INDEX memories_sig_keys ON memories USING gin (sig_keys);
  CREATE INDEX memories_sig_texts ON memories USING gin (sig_texts);
  CREATE INDEX memories_evidence ON memories USING gin (evidence);
  CREATE INDEX memories_constraints ON memories (tenant_id) WHERE maturity = 'constraint';
  CREATE INDEX memories_rev ON memories (tenant_id, rev);
  CREATE TABLE events (
    tenant_id text NOT NULL,
    rev bigint NOT NULL,
    seq integer NOT NULL,
    memory_id text NOT NULL,
    visibility text NOT NULL,
    principal text NOT NULL,
    at bigint NOT NULL,
    type text NOT NULL,
    body jsonb NOT NULL,
    PRIMARY KEY (tenant_id, rev, seq)
  );
  CREATE INDEX events_memory ON events (tenant_id, memory_id);
  CREATE TABLE term_stats (
    tenant_id text NOT NULL,
    term text NOT NULL,
    df integer NOT NULL,
    PRIMARY KEY (tenant_id, term)
  );
  CREATE TABLE tombstones (
    tenant_id text NOT NULL,
    id text NOT NULL,
    visibility text NOT NULL,
    principal text NOT NULL,
    at bigint NOT NULL,
    rev bigint NOT NULL,
    PRIMARY KEY (tenant_id, id)
  );
  `,
  // 2: word statistics by scope. BM25 over the whole tenant counted private memories' words too, so
  // another principal's scores moved with words only a private memory held (and its document count):
  // a private memory's existence could be probed. Now the team's statistics ('') and each principal's
  // private ones are kept apart, and a caller's recall reads the team's plus its own.
  `
  ALTER TABLE term_stats ADD COLUMN scope text NOT NULL DEFAULT '';
  ALTER TABLE term_stats DROP CONSTRAINT term_stats_pkey;
  ALTER TABLE term_stats ADD PRIMARY KEY (tenant_id, scope, term);
  CREATE TABLE scope_stats (
    tenant_id text NOT NULL,
    scope text NOT NULL,
    docs bigint NOT NULL DEFAULT 0,
    total_len bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, scope)
  );
  DELETE FROM term_stats;
  INSERT INTO term_stats (tenant_id, scope, term, df)
    SELECT tenant_id, CASE WHEN visibility = 'team' THEN '' ELSE principal END, t, count(*)::int FROM memories, unnest(terms) AS t GROUP BY 1, 2, 3;
  INSERT INTO scope_stats (tenant_id, scope, docs, total_len)
    SELECT tenant_id, CASE WHEN visibility = 'team' THEN '' ELSE principal END, count(*), coalesce(sum(len), 0) FROM memories GROUP BY 1, 2;
  ALTER TABLE tenants DROP COLUMN docs, DROP COLUMN total_len;
  `,
];

/** Row-level security, re-applied on every start (idempotent), so a policy change reaches old databases. */
function policies(): string {
  const own = `(visibility = 'team' OR principal = ${PRINCIPAL})`;
  const out: string[] = [];
  for (const t of TENANT_TABLES) {
    const rule = t === 'memories' || t === 'events' || t === 'tombstones' ? `tenant_id = ${TENANT} AND ${own}`
      : STATS_TABLES.includes(t) ? `tenant_id = ${TENANT} AND (scope = '' OR scope = ${PRINCIPAL})`
      : `tenant_id = ${TENANT}`;
    // For the request role only: the owner (migrations, tokens, the change poll) works across tenants.
    out.push(
      `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
      `DROP POLICY IF EXISTS tenant_only ON ${t}`,
      `CREATE POLICY tenant_only ON ${t} TO ${APP_ROLE} USING (${rule}) WITH CHECK (${rule})`,
    );
  }
  return out.join(';\n');
}

export interface SchemaInfo { version: number; vectors: 'pgvector' | 'none' }

/**
 * Creates or migrates the schema, adds vectors when pgvector is available, and reports what the server
 * runs with. `vectors: false` keeps them off even where the extension exists.
 */
export async function migrate(db: Db, opts: { vectors?: boolean; upTo?: number } = {}): Promise<SchemaInfo> {
  return db.ownerTx(async q => {
    await q.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await q.query(`CREATE TABLE IF NOT EXISTS engram_schema (version integer NOT NULL)`);
    const cur = (await q.query<{ version: number }>(`SELECT max(version) AS version FROM engram_schema`)).rows[0]?.version ?? 0;
    if (cur > MIGRATIONS.length) throw new Error(`the database has schema version ${cur}, newer than this engram (${MIGRATIONS.length}); upgrade engram`);
    const target = Math.min(opts.upTo ?? MIGRATIONS.length, MIGRATIONS.length);
    for (let v = cur; v < target; v++) {
      await q.exec(MIGRATIONS[v]);
      await q.query(`INSERT INTO engram_schema (version) VALUES ($1)`, [v + 1]);
    }
    // An older schema on purpose (the migration tests build one to migrate from): tables only.
    if (target < MIGRATIONS.length) return { version: target, vectors: 'none' };
    const vectors = opts.vectors === false ? 'none' : await ensureVectors(q);
    if (!(await ensureAppRole(q))) {
      throw new Error(`requests run as the role ${APP_ROLE}, which row-level security applies to; connect as a user that may create it (CREATEROLE), or create it first: CREATE ROLE ${APP_ROLE} NOLOGIN; GRANT ${APP_ROLE} TO <this user>`);
    }
    await q.exec(policies());
    return { version: MIGRATIONS.length, vectors };
  });
}

async function hasColumn(q: Queryable, table: string, column: string): Promise<boolean> {
  const r = await q.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`, [table, column]);
  return r.rows.length > 0;
}

/** The vector column and its HNSW index, when pgvector can be installed here; "none" otherwise. */
async function ensureVectors(q: Queryable): Promise<'pgvector' | 'none'> {
  if (await hasColumn(q, 'memories', 'embedding')) return 'pgvector';
  const avail = await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  if (!avail.rows.length) return 'none';
  // Installing an extension may need rights this user lacks: then the server runs without vectors.
  await q.query(`SAVEPOINT engram_vector`);
  try {
    await q.query(`CREATE EXTENSION IF NOT EXISTS vector`);
  } catch {
    await q.query(`ROLLBACK TO SAVEPOINT engram_vector`);
    return 'none';
  }
  await q.query(`ALTER TABLE memories ADD COLUMN embedding vector(${VECTOR_DIMS})`);
  await q.query(`CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops)`);
  return 'pgvector';
}

/**
 * The unprivileged role requests run as (SET LOCAL ROLE), so row-level security applies even when the
 * server connects as a superuser or as the tables' owner. False when it neither exists nor can be made.
 */
async function ensureAppRole(q: Queryable): Promise<boolean> {
  const exists = (await q.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [APP_ROLE])).rows.length > 0;
  const me = (await q.query<{ rolsuper: boolean; rolcreaterole: boolean }>(`SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user`)).rows[0];
  if (!exists && !(me?.rolsuper || me?.rolcreaterole)) return false;
  // Roles are shared by every database of a server: another database's migration may create it at the
  // same moment, so the creation tolerates a duplicate.
  if (!exists) {
    await q.query(`DO $$ BEGIN CREATE ROLE ${APP_ROLE} NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`);
  }
  // A member of the role may SET ROLE to it (a superuser may anyway).
  if (!me?.rolsuper) await q.query(`GRANT ${APP_ROLE} TO current_user`);
  const schema = (await q.query<{ s: string }>(`SELECT current_schema() AS s`)).rows[0].s;
  await q.query(`GRANT USAGE ON SCHEMA "${schema.replace(/"/g, '""')}" TO ${APP_ROLE}`);
  await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${TENANT_TABLES.join(', ')} TO ${APP_ROLE}`);
  return true;
}
