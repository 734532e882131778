// The one query layer of `engram serve`: the same SQL text runs on a PostgreSQL server (node-postgres)
// and on the embedded PGlite, so tests on the embedded database cover the production queries. Requests
// run in a transaction that carries the caller's tenant and principal as session settings and, where the
// database can, under the unprivileged role row-level security applies to (schema.ts). A request that
// came with a token also checks, in its first round trip, that the token is still live: a revoked token
// is refused at once on every server, whatever a server's token cache still holds (tokenCache.ts).
import { ApiError } from './apiError';

/** Who a request runs as: row-level security reads these from the transaction's settings. */
export interface Caller {
  tenant: string;
  principal: string;
  role: 'member' | 'reviewer' | 'admin';
  /** The token the request came with: its transaction starts only while that token is live. */
  tokenId?: string;
}

/**
 * A statement a request runs often (recall): prepared once per connection, then executed by name inside
 * the caller's transaction, all in one round trip (statementMessage), so it is neither parsed nor
 * planned again per request.
 */
export interface Statement { name: string; types: string[]; text: string }

export interface Rows<T = Record<string, unknown>> { rows: T[]; rowCount: number }

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Rows<T>>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type DbKind = 'postgres' | 'embedded';

export interface Db extends Queryable {
  readonly kind: DbKind;
  /** Where it is, for logs and /v1/health, without credentials. */
  readonly where: string;
  /** A transaction as the database owner (migrations, tokens): no tenant, no row-level security role. */
  ownerTx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** A transaction as `caller`: tenant settings set, the row-level security role taken. */
  callerTx<T>(caller: Caller, fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** `st` with `params` as `caller`, in one round trip with the transaction and the caller's settings. */
  callerStatement<T = Record<string, unknown>>(caller: Caller, st: Statement, params: unknown[]): Promise<Rows<T>>;
  /**
   * Calls `fn` with each payload sent to `channel` (NOTIFY); resolves to a stop function. `onLost` is
   * called when the listening connection breaks (listen again later; poll meanwhile).
   */
  listen(channel: string, fn: (payload: string) => void, onLost?: (e: Error) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The role requests run under; it owns nothing, so row-level security always applies to it. */
export const APP_ROLE = 'engram_app';

/**
 * The statements that start a caller's transaction, as one text (one round trip): the caller's tenant,
 * principal and role as settings local to the transaction (`set_config(…, true)`), so a pooled connection
 * never carries one tenant's settings into the next request, and the request role. The values are
 * inlined, which is safe because a token's names are checked when it is made (tokens.ts nameProblem:
 * letters, digits, ".", "_", "@", "-") and quoted here besides. With a token id the settings are made
 * only while that token is live (the first statement then returns no row: see checkPrelude).
 */
export function callerPrelude(caller: Caller): string {
  const gate = caller.tokenId ? ` FROM tokens WHERE id = ${sqlString(caller.tokenId)} AND revoked_at IS NULL` : '';
  return `SELECT set_config('engram.tenant', ${sqlString(caller.tenant)}, true), set_config('engram.principal', ${sqlString(caller.principal)}, true), ` +
    `set_config('engram.role', ${sqlString(caller.role)}, true)${gate}; SET LOCAL ROLE ${APP_ROLE}`;
}

/** Throws 401 when the prelude found the caller's token revoked (it returned no row). */
export function checkPrelude(caller: Caller, preludeRows: number): void {
  if (caller.tokenId && preludeRows === 0) throw new ApiError(401, 'unauthorized', 'the token is not valid (unknown or revoked)');
}

/**
 * One round trip for a prepared statement as `caller`: [BEGIN;] the prelude; PREPARE (the first time on
 * this connection); EXECUTE with the parameters inlined as literals of the declared types (the simple
 * protocol takes no parameters); [COMMIT]. Its results: the prelude's first, the statement's last but
 * the COMMIT.
 */
export function statementMessage(caller: Caller, st: Statement, params: unknown[], opts: { prepare: boolean; begin: boolean }): string {
  if (params.length !== st.types.length) throw new Error(`${st.name} takes ${st.types.length} parameters`);
  const args = params.map((p, i) => `${sqlLiteral(p)}::${st.types[i]}`).join(', ');
  return `${opts.begin ? 'BEGIN; ' : ''}${callerPrelude(caller)}; ${opts.prepare ? `PREPARE ${st.name}(${st.types.join(', ')}) AS ${st.text}; ` : ''}` +
    `EXECUTE ${st.name}(${args})${opts.begin ? '; COMMIT' : ''}`;
}

/** A string as an SQL literal: E'…' with quotes and backslashes escaped, whatever standard_conforming_strings says. */
export function sqlString(v: string): string {
  // PostgreSQL text cannot hold NUL; refuse it here rather than let it reach the message.
  if (v.includes('\0')) throw new ApiError(400, 'bad_request', 'text must not contain NUL characters');
  return `E'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A parameter as an SQL literal: NULL, a finite number, a boolean, a string, or an array of those. */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return v < 0 ? `(${String(v)})` : String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return sqlString(v);
  if (Array.isArray(v)) return v.length ? `ARRAY[${v.map(sqlLiteral).join(', ')}]` : `'{}'`;
  throw new Error(`no SQL literal for a ${typeof v}`);
}

/** A database error that means "the database is not there right now" (answer 503, retry later). */
export function isUnavailable(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | undefined;
  const code = err?.code ?? '';
  // Connection exceptions (08…), operator intervention / shutdown (57P0x), too many connections,
  // and the socket-level errors node-postgres passes through.
  if (/^08/.test(code) || /^57P0/.test(code) || code === '53300') return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'].includes(code)) return true;
  const msg = err?.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database is closed|Client was closed/i.test(msg);
}

/** A URL safe to print: the password is dropped. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
