// Token checks on the team server: a server remembers which caller a token stands for (tokenCache.ts),
// yet a revoked token is refused at once by every server on the database — by the liveness check in each
// request's first round trip — and the revocation's notification empties each server's cache entry.
import * as assert from 'assert';
import { nullLogger } from '../../src/core/types';
import type { Db } from '../../src/server/db';
import { openDatabase, startServer, type RunningServer } from '../../src/server/serve';
import { createToken, revokeToken } from '../../src/server/tokens';
import { onEachDatabase } from './serverDb';

async function recallStatus(s: RunningServer, token: string): Promise<number> {
  const res = await fetch(`${s.url}/v1/recall`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'deploy freeze' }) });
  await res.text();
  return res.status;
}

/** Resolves once `cond()` holds; fails after `ms` (a notification that never comes). */
async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 10));
  }
}

onEachDatabase('engram serve tokens', backend => {
  const servers: RunningServer[] = [];
  /** What `token revoke` uses: its own connection to the database (the embedded one is the server's). */
  let admin: Db;

  before(async () => {
    const where = backend().where();
    servers.push(await startServer({ ...where, port: 0, log: nullLogger, rate: 0 }));
    if (backend().name === 'postgres') {
      // A second server on the same database, and the CLI's own connection.
      servers.push(await startServer({ ...where, port: 0, log: nullLogger, rate: 0 }));
      admin = await openDatabase({ ...where, log: nullLogger });
    } else {
      admin = servers[0].db;
    }
  });
  after(async () => {
    if (admin && admin !== servers[0]?.db) await admin.close();
    for (const s of servers) await s.close();
  });

  it('refuses a revoked token at once on every server, and each server\'s cache drops it', async () => {
    const made = await createToken(admin, { tenant: `acme${process.pid}`, principal: 'temp', role: 'member' });
    for (const s of servers) {
      assert.strictEqual(await recallStatus(s, made.token), 200);
      assert.ok(s.tokens.has(made.info.id), 'the server remembers the token');
    }
    assert.ok(await revokeToken(admin, made.info.id));
    // No waiting for the notification: the very next request on each server is refused.
    for (const s of servers) assert.strictEqual(await recallStatus(s, made.token), 401);
    const other = await createToken(admin, { tenant: `acme${process.pid}`, principal: 'other', role: 'member' });
    for (const s of servers) assert.strictEqual(await recallStatus(s, other.token), 200);
    assert.ok(await revokeToken(admin, other.token), 'by the token itself');
    // Without a request: the notification alone empties every server's entry.
    for (const [i, s] of servers.entries()) await until(() => !s.tokens.has(other.info.id), 10_000, `server ${i + 1} to hear of the revocation`);
    for (const s of servers) assert.strictEqual(await recallStatus(s, other.token), 401);
  });

  it('refuses a token revoked without any notification (the check in the request, not the cache)', async () => {
    const made = await createToken(admin, { tenant: `acme${process.pid}`, principal: 'quiet', role: 'member' });
    for (const s of servers) assert.strictEqual(await recallStatus(s, made.token), 200);
    await admin.ownerTx(q => q.query(`UPDATE tokens SET revoked_at = now() WHERE id = $1`, [made.info.id]));
    for (const s of servers) {
      assert.ok(s.tokens.has(made.info.id), 'no notification came, so the cache still holds it');
      assert.strictEqual(await recallStatus(s, made.token), 401);
      assert.ok(!s.tokens.has(made.info.id), 'the refused request dropped it');
    }
  });

  it('a new token works at once (unknown tokens are not remembered)', async () => {
    const s = servers[servers.length - 1];
    const fake = 'eng_' + 'B'.repeat(43);
    assert.strictEqual(await recallStatus(s, fake), 401);
    const made = await createToken(admin, { tenant: `acme${process.pid}`, principal: 'fresh', role: 'member' });
    assert.strictEqual(await recallStatus(s, made.token), 200);
  });
});
