// Bearer tokens: made by `engram serve token create` (printed once), stored only as a SHA-256 hash, each
// naming a tenant, a principal and a role. A token is 32 random bytes, so a fast hash is enough: there
// is nothing to guess that a slow hash would protect.
import { createHash, randomBytes } from 'crypto';
import type { Caller, Db } from './db';
import { CHANGES_CHANNEL } from './writes';

export const ROLES = ['member', 'reviewer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Tenant and principal names: printable, short, no separators that could confuse a log or a header. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;
const TOKEN = /^eng_[A-Za-z0-9_-]{43}$/;

export function nameProblem(what: string, v: string | undefined): string | undefined {
  if (!v) return `${what} is required`;
  return NAME.test(v) ? undefined : `${what} "${v.slice(0, 40)}" must be 1-128 letters, digits, ".", "_", "@" or "-", starting with a letter or digit`;
}

export function tokenHash(token: string): string {
  return hashOf(token);
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface TokenInfo { id: string; tenant: string; principal: string; role: Role; createdAt: string; revokedAt?: string }

export async function createToken(db: Db, who: { tenant: string; principal: string; role: Role }): Promise<{ token: string; info: TokenInfo }> {
  for (const [what, v] of [['tenant', who.tenant], ['principal', who.principal]] as const) {
    const p = nameProblem(what, v);
    if (p) throw new Error(p);
  }
  if (!ROLES.includes(who.role)) throw new Error(`role must be one of ${ROLES.join(', ')}`);
  const token = `eng_${randomBytes(32).toString('base64url')}`;
  const id = `tok_${randomBytes(6).toString('hex')}`;
  const row = await db.ownerTx(async q => {
    await q.query(`INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [who.tenant]);
    const r = await q.query<{ created_at: Date }>(
      `INSERT INTO tokens (id, hash, tenant_id, principal, role) VALUES ($1, $2, $3, $4, $5) RETURNING created_at`,
      [id, hashOf(token), who.tenant, who.principal, who.role],
    );
    return r.rows[0];
  });
  return { token, info: { id, ...who, createdAt: new Date(row.created_at).toISOString() } };
}

/**
 * Revokes by token id or by the token itself; false when there is no such live token. Every server hears
 * of it (NOTIFY on the change channel) and drops the token from its cache; requests check it anyway.
 */
export async function revokeToken(db: Db, idOrToken: string): Promise<boolean> {
  const byToken = TOKEN.test(idOrToken);
  return db.ownerTx(async q => {
    const r = await q.query<{ id: string }>(
      `UPDATE tokens SET revoked_at = now() WHERE ${byToken ? 'hash' : 'id'} = $1 AND revoked_at IS NULL RETURNING id`,
      [byToken ? hashOf(idOrToken) : idOrToken],
    );
    for (const { id } of r.rows) await q.query(`SELECT pg_notify($1, $2)`, [CHANGES_CHANNEL, JSON.stringify({ revoked: id })]);
    return r.rows.length > 0;
  });
}

export async function listTokens(db: Db, tenant?: string): Promise<TokenInfo[]> {
  const r = await db.ownerTx(q => q.query<{ id: string; tenant_id: string; principal: string; role: Role; created_at: Date; revoked_at: Date | null }>(
    `SELECT id, tenant_id, principal, role, created_at, revoked_at FROM tokens ${tenant ? 'WHERE tenant_id = $1' : ''} ORDER BY created_at`,
    tenant ? [tenant] : [],
  ));
  return r.rows.map(t => ({
    id: t.id, tenant: t.tenant_id, principal: t.principal, role: t.role, createdAt: new Date(t.created_at).toISOString(),
    ...(t.revoked_at ? { revokedAt: new Date(t.revoked_at).toISOString() } : {}),
  }));
}

/**
 * The caller a token stands for, or undefined for a malformed, unknown or revoked one. Looked up by hash
 * with an index: the token itself never reaches the database, and a wrong token costs one probe.
 */
export async function verifyToken(db: Db, token: string): Promise<(Caller & { tokenId: string }) | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const r = await db.query<{ id: string; tenant_id: string; principal: string; role: Role }>(
    `SELECT id, tenant_id, principal, role FROM tokens WHERE hash = $1 AND revoked_at IS NULL`, [hashOf(token)],
  );
  const t = r.rows[0];
  return t ? { tokenId: t.id, tenant: t.tenant_id, principal: t.principal, role: t.role } : undefined;
}
