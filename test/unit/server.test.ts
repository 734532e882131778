// The team server (engram serve) in process, on the embedded database and on PostgreSQL: tokens and 401,
// the write layer (masking, dedup, review), recall ranked as the window ranks, tenant isolation enforced
// by row-level security (a crafted query included), private memories, forget removing the text from
// every table, a restart, limits and errors without internals.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { nullLogger } from '../../src/core/types';
import { MemoryStore } from '../../src/store/memoryStore';
import { ApiError } from '../../src/server/apiError';
import type { Caller } from '../../src/server/db';
import { fail } from '../../src/server/http';
import { startServer, type RunningServer } from '../../src/server/serve';
import { createToken, revokeToken } from '../../src/server/tokens';
import { tokenize } from '../../src/core/lexical';
import { onEachDatabase } from './serverDb';

const TS2307 = "src/app.ts(3,20): error TS2307: Cannot find module '@lib/format' or its corresponding type declarations.";
let tenantSeq = 0;
const fresh = (p: string) => `${p}${process.pid}x${++tenantSeq}`;

interface Http { status: number; body: Record<string, unknown>; headers: Headers }

async function call(s: RunningServer, method: string, route: string, token?: string, body?: unknown, raw?: string): Promise<Http> {
  const res = await fetch(`${s.url}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}) },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) as Record<string, unknown> : {}, headers: res.headers };
}

const lesson = (extra: Record<string, unknown> = {}) => ({
  kind: 'lesson', errorText: "error TS2307: Cannot find module '@lib/format' or its corresponding type declarations.",
  rootCause: 'the @lib path alias is missing from tsconfig.json', fixApproach: 'Added "paths": {"@lib/*": ["src/lib/*"]} to compilerOptions in tsconfig.json', ...extra,
});

onEachDatabase('engram serve', backend => {
  let s: RunningServer;
  const tokens: Record<string, string> = {};
  let tenant: string;
  let other: string;

  before(async () => {
    s = await startServer({ ...backend().where(), port: 0, log: nullLogger, rate: 0 });
    tenant = fresh('acme');
    other = fresh('globex');
    for (const [name, t, principal, role] of [
      ['alice', tenant, 'alice', 'member'], ['bob', tenant, 'bob', 'member'], ['rita', tenant, 'rita', 'reviewer'], ['eve', other, 'eve', 'admin'],
    ] as const) tokens[name] = (await createToken(s.db, { tenant: t, principal, role })).token;
  });
  after(async () => { await s?.close(); });

  it('says it is ready, which database and whether vectors are on, without a token', async () => {
    const h = await call(s, 'GET', '/v1/health');
    assert.strictEqual(h.status, 200);
    assert.strictEqual(h.body.ok, true);
    assert.strictEqual(h.body.database, backend().name);
    // pgvector ships with PGlite; this machine's PostgreSQL 15 has no pgvector.
    const pgvector = (await s.db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rows.length > 0;
    assert.strictEqual(h.body.vectors, pgvector ? 'pgvector' : 'none');
    if (backend().name === 'embedded') assert.strictEqual(h.body.vectors, 'pgvector');
  });

  it('answers 401 without a token, with a wrong one and with a revoked one', async () => {
    assert.strictEqual((await call(s, 'POST', '/v1/recall', undefined, { query: 'x' })).status, 401);
    const bad = await call(s, 'POST', '/v1/recall', 'eng_' + 'A'.repeat(43), { query: 'x' });
    assert.strictEqual(bad.status, 401);
    assert.strictEqual(bad.headers.get('www-authenticate'), 'Bearer realm="engram"');
    const made = await createToken(s.db, { tenant, principal: 'temp', role: 'member' });
    assert.strictEqual((await call(s, 'POST', '/v1/recall', made.token, { query: 'x' })).status, 200);
    assert.ok(await revokeToken(s.db, made.info.id));
    assert.strictEqual((await call(s, 'POST', '/v1/recall', made.token, { query: 'x' })).status, 401);
    // Only the hash is stored.
    const stored = await s.db.query(`SELECT hash FROM tokens WHERE id = $1`, [made.info.id]);
    assert.notStrictEqual((stored.rows[0] as { hash: string }).hash, made.token);
  });

  it('stores a memory masked and recalls it with the window\'s reasons, scope and gate', async () => {
    const r = await call(s, 'POST', '/v1/memories', tokens.rita, lesson({ scope: ['web/**'], rootCause: 'alias missing; token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked' }));
    assert.strictEqual(r.status, 201);
    const id = r.body.id as string;
    const got = await call(s, 'GET', `/v1/memories/${id}`, tokens.alice);
    const mem = got.body.memory as { rootCause: string; maturity: string; owner: { scope: string; principal: string } };
    assert.ok(!mem.rootCause.includes('ghp_abcdefghij'), 'the secret is masked before it is stored');
    assert.strictEqual(mem.maturity, 'observation');
    assert.strictEqual(got.body.author, 'rita');
    const rec = await call(s, 'POST', '/v1/recall', tokens.alice, { query: TS2307, file: 'web/src/app.ts', proactive: true });
    const results = rec.body.results as { id: string; why: string[] }[];
    assert.deepStrictEqual(results.map(x => x.id), [id]);
    assert.ok(results[0].why.includes('same signature TS2307'), results[0].why.join('; '));
    assert.ok(results[0].why.includes('scope web/**'));
    // Out of scope, nothing.
    const elsewhere = await call(s, 'POST', '/v1/recall', tokens.alice, { query: TS2307, file: 'api/src/app.ts' });
    assert.deepStrictEqual(elsewhere.body.results, []);
    // The same lesson again is evidence on it, not a copy.
    const again = await call(s, 'POST', '/v1/memories', tokens.rita, lesson({ scope: ['web/**'] }));
    assert.strictEqual(again.body.id, id);
    assert.strictEqual(again.body.merged, true);
  });

  it('ranks exactly as a local store with the same memories', async () => {
    const t = fresh('rank');
    const tok = (await createToken(s.db, { tenant: t, principal: 'p', role: 'admin' })).token;
    const mems = [
      lesson({ id: 'l-a', scope: ['web/**'] }),
      lesson({ id: 'l-b', fixApproach: 'Installed the missing package with npm install @lib/format' }),
      { kind: 'fact', id: 'f-a', content: 'Integration tests need the docker stack up (docker compose up db)' },
      { kind: 'lesson', id: 'l-c', errorText: "TypeError: Cannot read properties of undefined (reading 'map')", rootCause: 'the API returned no items', fixApproach: 'Guarded items with ?? [] before map' },
      { kind: 'rule', id: 'r-a', instruction: 'Never edit files under generated/: run npm run codegen instead' },
    ];
    for (const m of mems) assert.strictEqual((await call(s, 'POST', '/v1/memories', tok, m)).status, 201);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-local-'));
    const vectors = (await call(s, 'GET', '/v1/health')).body.vectors === 'pgvector';
    const local = await MemoryStore.open(dir, { vectors });
    try {
      await local.importLines(mems.map(m => JSON.stringify({ ...m, owner: 'team' })));
      for (const q of [TS2307, 'how do I run the integration tests with docker', "TypeError: Cannot read properties of undefined (reading 'map')", 'can I edit generated files']) {
        const server = (await call(s, 'POST', '/v1/recall', tok, { query: q, file: 'web/src/x.ts', k: 5 })).body.results as { id: string; score: number; why: string[] }[];
        const mine = await local.recall({ text: q, file: 'web/src/x.ts', k: 5, owners: ['team', 'personal', 'workspace'] });
        assert.deepStrictEqual(server.map(x => x.id), mine.map(x => x.memory.id), q);
        assert.deepStrictEqual(server.map(x => x.score), mine.map(x => x.score), q);
      }
    } finally {
      await local.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps tenants apart: another tenant recalls nothing, gets 404, and a crafted query sees one tenant only', async () => {
    const r = await call(s, 'POST', '/v1/memories', tokens.rita, { kind: 'fact', content: 'Acme deploys on Thursdays only (change freeze otherwise)' });
    const id = r.body.id as string;
    assert.deepStrictEqual((await call(s, 'POST', '/v1/recall', tokens.eve, { query: 'when does acme deploy thursdays' })).body.results, []);
    assert.strictEqual((await call(s, 'GET', `/v1/memories/${id}`, tokens.eve)).status, 404);
    assert.strictEqual((await call(s, 'DELETE', `/v1/memories/${id}`, tokens.eve)).status, 404);
    // A query text that tries SQL is only words.
    const inj = await call(s, 'POST', '/v1/recall', tokens.eve, { query: `thursdays' OR tenant_id <> '' --`, k: 50 });
    assert.strictEqual(inj.status, 200);
    assert.deepStrictEqual(inj.body.results, []);
    // The database itself refuses: a transaction as eve's tenant, with SQL that names acme outright.
    const eve: Caller = { tenant: other, principal: 'eve', role: 'admin' };
    await s.db.callerTx(eve, async q => {
      const all = await q.query<{ tenant_id: string }>(`SELECT DISTINCT tenant_id FROM memories`);
      assert.ok(all.rows.every(x => x.tenant_id === other), JSON.stringify(all.rows));
      assert.strictEqual((await q.query(`SELECT * FROM memories WHERE tenant_id = $1`, [tenant])).rows.length, 0);
      assert.strictEqual((await q.query(`SELECT * FROM events WHERE tenant_id = $1`, [tenant])).rows.length, 0);
      assert.strictEqual((await q.query(`SELECT * FROM term_stats WHERE tenant_id = $1`, [tenant])).rows.length, 0);
      assert.strictEqual((await q.query(`UPDATE memories SET maturity = 'constraint' WHERE tenant_id = $1`, [tenant])).rowCount, 0);
      assert.strictEqual((await q.query(`DELETE FROM memories WHERE tenant_id = $1`, [tenant])).rowCount, 0);
    });
    await assert.rejects(s.db.callerTx(eve, q => q.query(
      `INSERT INTO tombstones (tenant_id, id, visibility, principal, at, rev) VALUES ($1, 'x', 'team', 'eve', 0, 0)`, [tenant])), /row-level security/);
    await s.db.callerTx(eve, async q => {
      assert.strictEqual((await q.query<{ u: string }>(`SELECT current_user AS u`)).rows[0].u, 'engram_app', 'requests run as the role row-level security binds');
    });
    const unset = await s.db.ownerTx(async q => {
      await q.query(`SET LOCAL ROLE engram_app`);
      return q.query(`SELECT count(*)::int AS n FROM memories`);
    });
    assert.strictEqual((unset.rows[0] as { n: number }).n, 0, 'no tenant set: no rows');
    assert.strictEqual((await call(s, 'GET', `/v1/memories/${id}`, tokens.alice)).status, 200);
  });

  it('keeps a private memory to its principal, and a member\'s team memory waits for a reviewer', async () => {
    const priv = await call(s, 'POST', '/v1/memories', tokens.alice, { kind: 'fact', content: 'my local postgres listens on port 5544 (zorbulent setup)', visibility: 'private' });
    assert.strictEqual(priv.status, 201);
    assert.strictEqual(priv.body.status, 'approved');
    const pid = priv.body.id as string;
    assert.strictEqual((await call(s, 'GET', `/v1/memories/${pid}`, tokens.alice)).status, 200);
    for (const who of ['bob', 'rita']) {
      assert.strictEqual((await call(s, 'GET', `/v1/memories/${pid}`, tokens[who])).status, 404, who);
      assert.deepStrictEqual((await call(s, 'POST', '/v1/recall', tokens[who], { query: 'zorbulent postgres port' })).body.results, [], who);
    }
    const mine = (await call(s, 'POST', '/v1/recall', tokens.alice, { query: 'zorbulent postgres port' })).body.results as { id: string }[];
    assert.deepStrictEqual(mine.map(x => x.id), [pid]);
    await s.db.callerTx({ tenant, principal: 'bob', role: 'member' }, async q => {
      assert.strictEqual((await q.query(`SELECT 1 FROM memories WHERE id = $1`, [pid])).rows.length, 0, 'row-level security hides it from bob');
    });

    const prop = await call(s, 'POST', '/v1/memories', tokens.alice, { kind: 'fact', content: 'the quuxifier cache lives in /var/cache/quux and must be wiped after upgrades' });
    assert.strictEqual(prop.body.status, 'proposed');
    const qid = prop.body.id as string;
    const ask = { query: 'quuxifier cache wiped after upgrades' };
    assert.deepStrictEqual((await call(s, 'POST', '/v1/recall', tokens.bob, ask)).body.results, [], 'not recalled by teammates before review');
    assert.strictEqual(((await call(s, 'POST', '/v1/recall', tokens.alice, ask)).body.results as unknown[]).length, 1, 'its author recalls it');
    assert.strictEqual((await call(s, 'POST', `/v1/memories/${qid}/approve`, tokens.bob)).status, 403);
    assert.strictEqual((await call(s, 'GET', '/v1/review', tokens.bob)).status, 403);
    const review = await call(s, 'GET', '/v1/review', tokens.rita);
    assert.ok((review.body.memories as { memory: { id: string } }[]).some(m => m.memory.id === qid));
    assert.strictEqual((await call(s, 'POST', `/v1/memories/${qid}/approve`, tokens.rita)).status, 200);
    assert.strictEqual(((await call(s, 'POST', '/v1/recall', tokens.bob, ask)).body.results as unknown[]).length, 1, 'recalled once approved');
    const hist = (await call(s, 'GET', `/v1/memories/${qid}`, tokens.bob)).body.history as { detail: string }[];
    assert.ok(hist.some(h => h.detail === 'approved for the team by rita'));
  });

  it('keeps private memories out of other principals\' word statistics: their scores do not move, their queries see no counts', async () => {
    const word = `glorptastic${tenantSeq}`;
    const team = await call(s, 'POST', '/v1/memories', tokens.rita, { kind: 'fact', content: `The ${word} exporter runs nightly at 02:00 from the ops cron` });
    assert.strictEqual(team.status, 201);
    const ask = { query: `${word} exporter nightly`, k: 5 };
    const score = async (who: string) => ((await call(s, 'POST', '/v1/recall', tokens[who], ask)).body.results as { id: string; score: number }[]).find(x => x.id === team.body.id)?.score;
    const before = await score('bob');
    assert.ok(before !== undefined && before > 0, 'bob recalls the team memory');
    // Alice's private memories share the rare word; bob's scores must read as if they did not exist.
    const privateIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await call(s, 'POST', '/v1/memories', tokens.alice, { kind: 'fact', content: `my ${word} scratch note ${i}: exporter creds live in my keychain`, visibility: 'private' });
      assert.strictEqual(p.status, 201);
      privateIds.push(p.body.id as string);
    }
    assert.strictEqual(await score('bob'), before, 'the private memories moved bob\'s score');
    const aliceSees = (await call(s, 'POST', '/v1/recall', tokens.alice, { query: `${word} scratch note keychain`, k: 10 })).body.results as { id: string }[];
    assert.ok(aliceSees.some(x => privateIds.includes(x.id)), `alice recalls her own private memories by their words: ${JSON.stringify(aliceSees)}`);
    const term = tokenize(word)[0];
    const all = await s.db.ownerTx(q => q.query<{ scope: string }>(`SELECT scope FROM term_stats WHERE tenant_id = $1 AND term = $2 ORDER BY scope`, [tenant, term]));
    assert.deepStrictEqual(all.rows.map(r => r.scope), ['', 'alice'], 'counted apart: the team\'s and alice\'s');
    await s.db.callerTx({ tenant, principal: 'bob', role: 'member' }, async q => {
      const rows = await q.query<{ scope: string; df: number }>(`SELECT scope, df FROM term_stats WHERE tenant_id = $1 AND term = $2`, [tenant, term]);
      assert.deepStrictEqual(rows.rows.map(r => r.scope), [''], 'bob reads the team\'s count only');
      assert.strictEqual((await q.query(`SELECT * FROM scope_stats WHERE scope = 'alice'`)).rows.length, 0, 'nor alice\'s document count');
    });
  });

  it('forgets: only the author or a reviewer may, and the text leaves every table', async () => {
    const word = `vexillopod${tenantSeq}`;
    const r = await call(s, 'POST', '/v1/memories', tokens.alice, lesson({ rootCause: `the ${word} module shadowed @lib`, fixApproach: `Renamed ${word} to avoid the clash` }));
    const id = r.body.id as string;
    await call(s, 'POST', `/v1/memories/${id}/approve`, tokens.rita);
    await call(s, 'POST', `/v1/memories/${id}/feedback`, tokens.bob, { outcome: 'prevented', reason: `${word} fix worked` });
    assert.strictEqual((await call(s, 'DELETE', `/v1/memories/${id}`, tokens.bob)).status, 403);
    const tables = (await s.db.query<{ t: string }>(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)).rows.map(x => x.t);
    const count = async () => {
      let n = 0;
      for (const t of tables) n += Number((await s.db.query<{ n: string }>(`SELECT count(*) AS n FROM "${t}" x WHERE x::text ILIKE $1`, [`%${word}%`])).rows[0].n);
      return n;
    };
    assert.ok(await count() >= 3, 'the word is in the memory, its events and the word statistics before');
    assert.strictEqual((await call(s, 'DELETE', `/v1/memories/${id}`, tokens.alice)).status, 200);
    assert.strictEqual(await count(), 0, `"${word}" is gone from ${tables.join(', ')}`);
    assert.strictEqual((await call(s, 'GET', `/v1/memories/${id}`, tokens.alice)).status, 404);
    // A late copy of the forgotten record is refused, not stored again.
    assert.strictEqual((await call(s, 'POST', '/v1/memories', tokens.alice, lesson({ id }))).status, 409);
  });

  it('refuses oversized bodies, bad JSON, unknown routes and bad input with clear JSON errors', async () => {
    const big = await call(s, 'POST', '/v1/memories', tokens.alice, undefined, JSON.stringify({ kind: 'fact', content: 'x'.repeat(1_100_000) }));
    assert.strictEqual(big.status, 413);
    const bad = await call(s, 'POST', '/v1/memories', tokens.alice, undefined, '{"kind": ');
    assert.strictEqual(bad.status, 400);
    assert.match((bad.body.error as { message: string }).message, /not valid JSON/);
    assert.strictEqual((await call(s, 'GET', '/v1/nothing', tokens.alice)).status, 404);
    assert.strictEqual((await call(s, 'PUT', '/v1/recall', tokens.alice, {})).status, 405);
    const k = await call(s, 'POST', '/v1/recall', tokens.alice, { query: 'x', k: 10_000 });
    assert.strictEqual(k.status, 400);
    const vis = await call(s, 'POST', '/v1/memories', tokens.alice, { kind: 'fact', content: 'x', visibility: 'public' });
    assert.strictEqual(vis.status, 400);
    const scope = await call(s, 'POST', '/v1/memories', tokens.alice, { kind: 'fact', content: 'x', scope: ['/etc/passwd'] });
    assert.strictEqual(scope.status, 400);
    const batch = await call(s, 'POST', '/v1/memories:batch', tokens.alice, { memories: [{ kind: 'fact', content: 'batch fact one about frobnicators' }, { kind: 'nope' }, 'x'] });
    assert.strictEqual(batch.status, 200);
    const res = batch.body.results as ({ id?: string; error?: string })[];
    assert.ok(res[0].id && res[1].error && res[2].error, JSON.stringify(res));
  });

  it('survives a restart: what was acknowledged is there after', async () => {
    const r = await call(s, 'POST', '/v1/memories', tokens.rita, { kind: 'fact', content: 'the staging cluster is called blorptown' });
    assert.strictEqual(r.status, 201);
    await s.close();
    s = await startServer({ ...backend().where(), port: 0, log: nullLogger, rate: 0 });
    assert.strictEqual((await call(s, 'GET', `/v1/memories/${r.body.id}`, tokens.rita)).status, 200);
    const found = (await call(s, 'POST', '/v1/recall', tokens.bob, { query: 'what is the staging cluster called' })).body.results as { id: string }[];
    assert.ok(found.some(x => x.id === r.body.id));
  });

  it('pages changes in revision order, team memories and the caller\'s own only', async () => {
    const page = await call(s, 'GET', '/v1/changes?after=0', tokens.bob);
    const mems = page.body.memories as { memory: { id: string }; visibility: string; status: string }[];
    assert.ok(mems.length > 0 && mems.every(m => m.visibility === 'team' && m.status === 'approved'), 'bob sees approved team memories');
    const again = await call(s, 'GET', `/v1/changes?after=${page.body.revision}`, tokens.bob);
    assert.deepStrictEqual(again.body.memories, []);
  });

  it('limits requests per token (429 with Retry-After)', async () => {
    const limited = await startServerOnSameDb(backend, { rate: 1, burst: 2 }, s);
    try {
      const codes: number[] = [];
      for (let i = 0; i < 2; i++) codes.push((await call(limited, 'POST', '/v1/recall', tokens.bob, { query: 'x' })).status);
      assert.deepStrictEqual(codes, [200, 200]);
      const last = await call(limited, 'POST', '/v1/recall', tokens.bob, { query: 'x' });
      assert.strictEqual(last.status, 429);
      assert.ok(Number(last.headers.get('retry-after')) >= 1);
      // Another token has its own bucket.
      assert.strictEqual((await call(limited, 'POST', '/v1/recall', tokens.rita, { query: 'x' })).status, 200);
    } finally {
      if (limited !== s) await limited.close();
    }
  });
});

/** A second server with other options: on PostgreSQL beside `s`; the embedded folder has one owner, so there `s` itself is restarted. */
async function startServerOnSameDb(backend: () => { name: string; where(): { database?: string; dataDir?: string } }, o: { rate: number; burst: number }, s: RunningServer): Promise<RunningServer> {
  if (backend().name === 'postgres') return startServer({ ...backend().where(), port: 0, log: nullLogger, ...o });
  await s.close();
  const next = await startServer({ ...backend().where(), port: 0, log: nullLogger, ...o });
  Object.assign(s, next);
  return s;
}

describe('engram serve errors', () => {
  it('answers an unexpected failure with 500 and a reference, never the stack', () => {
    let status = 0;
    let body = '';
    const logged: string[] = [];
    const res = { headersSent: false, writeHead: (st: number) => { status = st; }, end: (b: string) => { body = b; } } as unknown as import('http').ServerResponse;
    fail({ ...nullLogger, error: (m: string | Error) => { logged.push(String(m)); } }, res, new TypeError("Cannot read properties of undefined (reading 'x')"));
    assert.strictEqual(status, 500);
    assert.ok(!/TypeError|at |\.ts:/.test(body), body);
    assert.match(body, /ref [0-9a-f]{8}/);
    assert.ok(logged.some(l => l.includes('TypeError')), 'the stack goes to the server log');
    fail(nullLogger, res, Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    assert.strictEqual(status, 503);
    assert.ok(!body.includes('5432'), body);
    fail(nullLogger, res, new ApiError(409, 'conflict', 'exists'));
    assert.strictEqual(status, 409);
  });
});
