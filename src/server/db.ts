// The one query layer of `engram serve`: the same SQL text runs on a PostgreSQL server (node-postgres)
// and on the embedded PGlite, so tests on the embedded database cover the production queries. Requests
// run in a transaction that carries the caller's tenant and principal as session settings and, where the
// database can, under the unprivileged role row-level security applies to (schema.ts).

/** Who a request runs as: row-level security reads these from the transaction's settings. */
export interface Caller {
  tenant: string;
  principal: string;
  role: 'member' | 'reviewer' | 'admin';
}

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
 * letters, digits, ".", "_", "@", "-") and quoted here besides.
 */
export function callerPrelude(caller: Caller): string {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  return `SELECT set_config('engram.tenant', ${lit(caller.tenant)}, true), set_config('engram.principal', ${lit(caller.principal)}, true), ` +
    `set_config('engram.role', ${lit(caller.role)}, true); SET LOCAL ROLE ${APP_ROLE}`;
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
