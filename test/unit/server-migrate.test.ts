// Schema migrations with data in the tables: a database built at schema 1 (word statistics per tenant,
// counts on the tenants row) with team and private memories in it, then opened by `engram serve`, which
// migrates it to the current schema on start. What was there is recalled as before; the statistics are
// now per scope, so a private memory's words are counted for its principal only.
import * as assert from 'assert';
import { parseImportLine } from '../../src/core/importFormat';
import { nullLogger, type Memory } from '../../src/core/types';
import { prepareImported } from '../../src/core/writePlan';
import { derive, type Visibility } from '../../src/server/memoryRows';
import { SCHEMA_VERSION, migrate } from '../../src/server/schema';
import { openDatabase, startServer } from '../../src/server/serve';
import { createToken } from '../../src/server/tokens';
import { onEachDatabase } from './serverDb';

const TENANT = 'acme';
const NOW = Date.UTC(2026, 0, 5);

function memoryOf(line: object, visibility: Visibility, principal: string): Memory {
  const p = parseImportLine(JSON.stringify(line), 1, NOW, {});
  if (!p.ok) throw new Error(p.error);
  const owner = { scope: visibility === 'team' ? 'team' as const : 'personal' as const, workspace: TENANT, principal };
  return prepareImported({ ...p.memory, owner }, {}, { now: NOW }).memory;
}

async function recallIds(url: string, token: string, query: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/recall`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  assert.strictEqual(res.status, 200);
  return ((await res.json()) as { results: { id: string }[] }).results.map(r => r.id);
}

onEachDatabase('engram serve schema migration', backend => {
  it('migrates a schema-1 database with memories in it to the current schema, and recalls them as before', async () => {
    const where = backend().where();
    const rows: { m: Memory; visibility: Visibility; principal: string }[] = [
      { m: memoryOf({ kind: 'fact', content: 'The zebrafish deploy runs from the blue cluster every Tuesday' }, 'team', 'rita'), visibility: 'team', principal: 'rita' },
      { m: memoryOf({ kind: 'fact', content: 'My quokkaroo sandbox zebrafish key sits in the team vault' }, 'private', 'alice'), visibility: 'private', principal: 'alice' },
      { m: memoryOf({ kind: 'lesson', errorText: "error TS2307: Cannot find module '@lib/format' or its corresponding type declarations.", rootCause: 'the @lib alias is missing', fixApproach: 'Added paths to tsconfig.json' }, 'team', 'rita'), visibility: 'team', principal: 'rita' },
    ];
    // Schema 1, filled as that version's write layer did: df and document counts over the whole tenant.
    const old = await openDatabase({ ...where, log: nullLogger });
    try {
      assert.strictEqual((await migrate(old, { upTo: 1 })).version, 1);
      await old.ownerTx(async q => {
        const df = new Map<string, number>();
        let len = 0;
        for (const [i, { m, visibility, principal }] of rows.entries()) {
          const d = derive(m);
          await q.query(
            `INSERT INTO memories (tenant_id, id, kind, visibility, principal, status, maturity, expires_at, updated_at, rev, body, sig_keys, sig_texts, evidence, words, terms, tf, len)
             VALUES ($1, $2, $3, $4, $5, 'approved', $6, NULL, $7, $8, $9::jsonb, $10, $11, $12, array_to_tsvector($13::text[]), $13, $14, $15)`,
            [TENANT, m.id, m.kind, visibility, principal, m.maturity, m.updatedAt, i + 1, JSON.stringify(m), d.sigKeys, d.sigTexts, d.evidence, d.terms, d.tf, d.len],
          );
          await q.query(`INSERT INTO events (tenant_id, rev, seq, memory_id, visibility, principal, at, type, body) VALUES ($1, $2, 0, $3, $4, $5, $6, 'recorded', $7::jsonb)`,
            [TENANT, i + 1, m.id, visibility, principal, NOW, JSON.stringify({ type: 'recorded', id: m.id, at: NOW, memory: m })]);
          for (const t of d.terms) df.set(t, (df.get(t) ?? 0) + 1);
          len += d.len;
        }
        await q.query(`INSERT INTO tenants (tenant_id, revision, docs, total_len) VALUES ($1, $2, $3, $4)`, [TENANT, rows.length, rows.length, len]);
        await q.query(`INSERT INTO term_stats (tenant_id, term, df) SELECT $1, t, d FROM unnest($2::text[], $3::int[]) AS x(t, d)`, [TENANT, [...df.keys()], [...df.values()]]);
      });
    } finally {
      await old.close();
    }

    const s = await startServer({ ...where, port: 0, log: nullLogger, rate: 0 });
    try {
      assert.strictEqual(s.schema.version, SCHEMA_VERSION);
      const [team, priv, lesson] = rows.map(r => r.m.id);
      const stats = await s.db.query<{ scope: string; term: string; df: number }>(`SELECT scope, term, df FROM term_stats WHERE tenant_id = $1 AND term IN ('zebrafish', 'quokkaroo')`, [TENANT]);
      assert.deepStrictEqual(stats.rows.map(r => `${r.scope}:${r.term}:${r.df}`).sort(), [':zebrafish:1', 'alice:quokkaroo:1', 'alice:zebrafish:1']);
      const docs = await s.db.query<{ scope: string; docs: string }>(`SELECT scope, docs FROM scope_stats WHERE tenant_id = $1 ORDER BY scope`, [TENANT]);
      assert.deepStrictEqual(docs.rows.map(r => `${r.scope}:${Number(r.docs)}`), [':2', 'alice:1']);
      const tenantCols = await s.db.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'tenants' AND column_name IN ('docs', 'total_len')`);
      assert.strictEqual(tenantCols.rows.length, 0, 'the counts moved from tenants to scope_stats');

      const alice = (await createToken(s.db, { tenant: TENANT, principal: 'alice', role: 'member' })).token;
      const bob = (await createToken(s.db, { tenant: TENANT, principal: 'bob', role: 'member' })).token;
      assert.deepStrictEqual(await recallIds(s.url, bob, 'zebrafish deploy blue cluster'), [team]);
      assert.deepStrictEqual(await recallIds(s.url, bob, 'quokkaroo sandbox key'), [], 'another principal\'s private memory stays private');
      assert.ok((await recallIds(s.url, alice, 'quokkaroo sandbox key')).includes(priv));
      assert.ok((await recallIds(s.url, bob, "error TS2307: Cannot find module '@lib/format'")).includes(lesson));
      // And the migrated database takes writes: the new memory counts in the team's statistics.
      const res = await fetch(`${s.url}/v1/memories`, { method: 'POST', headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'fact', content: 'Zebrafish rollbacks need the on-call lead', visibility: 'private' }) });
      assert.strictEqual(res.status, 201);
      const after = await s.db.query<{ df: number }>(`SELECT df FROM term_stats WHERE tenant_id = $1 AND scope = 'alice' AND term = 'zebrafish'`, [TENANT]);
      assert.strictEqual(after.rows[0]?.df, 2);
    } finally {
      await s.close();
    }
  });
});
