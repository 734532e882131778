// A PostgreSQL server through node-postgres: a pool for requests, one dedicated connection for LISTEN.
// `pg` is required here, when `engram serve --database` starts, never by other commands or the extension.
import type { Pool, PoolClient, QueryResult } from 'pg';
import { callerPrelude, checkPrelude, redactUrl, statementMessage, type Caller, type Db, type Queryable, type Rows, type Statement } from './db';

export interface PostgresOptions {
  url: string;
  /** Connections per server process (default 10). */
  max?: number;
  /** Give up connecting after this long (ms): a database outage answers 503 instead of hanging. */
  connectTimeoutMs?: number;
  /** Longest a statement may run (ms). */
  statementTimeoutMs?: number;
  onError?(e: Error): void;
}

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  readonly where: string;
  private readonly pool: Pool;
  private readonly listeners: PoolClient[] = [];
  /** Statements prepared on each pooled connection (a prepared statement lives as long as its connection). */
  private readonly prepared = new WeakMap<PoolClient, Set<string>>();

  constructor(private readonly opts: PostgresOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a server starts
    const pg = require('pg') as typeof import('pg');
    this.where = redactUrl(opts.url);
    this.pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.max ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      statement_timeout: opts.statementTimeoutMs ?? 15_000,
      idleTimeoutMillis: 30_000,
      application_name: 'engram-serve',
    });
    // An idle connection the server dropped must not crash the process; the next query reconnects.
    this.pool.on('error', e => opts.onError?.(e));
  }

  async query<T>(sql: string, params?: unknown[]): Promise<Rows<T>> {
    const r = await this.pool.query(sql, params as unknown[]);
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  ownerTx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.tx(fn);
  }

  callerTx<T>(caller: Caller, fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.tx(fn, caller);
  }

  async callerStatement<T>(caller: Caller, st: Statement, params: unknown[]): Promise<Rows<T>> {
    const client = await this.pool.connect();
    let names = this.prepared.get(client);
    if (!names) { names = new Set(); this.prepared.set(client, names); }
    const prepare = !names.has(st.name);
    let broken = false;
    try {
      const res = (await client.query(statementMessage(caller, st, params, { prepare, begin: true }))) as unknown as QueryResult[];
      if (prepare) names.add(st.name);
      checkPrelude(caller, res[1].rowCount ?? 0);
      const r = res[res.length - 2];
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    } catch (e) {
      // Whether a failed PREPARE left the statement behind is unknown: such a connection is dropped.
      if (prepare) broken = true;
      await client.query('ROLLBACK').catch(() => { broken = true; });
      throw e;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  private async tx<T>(fn: (q: Queryable) => Promise<T>, caller?: Caller): Promise<T> {
    const client = await this.pool.connect();
    const q: Queryable = {
      query: async <R>(sql: string, params?: unknown[]) => {
        const r = await client.query(sql, params as unknown[]);
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      },
      exec: async (sql: string) => { await client.query(sql); },
    };
    let broken = false;
    try {
      // BEGIN and the caller's settings in one round trip (simple protocol: no parameters).
      if (caller) {
        const res = (await client.query(`BEGIN; ${callerPrelude(caller)}`)) as unknown as QueryResult[];
        checkPrelude(caller, res[1].rowCount ?? 0);
      } else {
        await client.query('BEGIN');
      }
      const out = await fn(q);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => { broken = true; });
      throw e;
    } finally {
      // A connection that could not even roll back is dropped, not handed to the next request.
      client.release(broken ? true : undefined);
    }
  }

  async listen(channel: string, fn: (payload: string) => void, onLost?: (e: Error) => void): Promise<() => Promise<void>> {
    const client = await this.pool.connect();
    this.listeners.push(client);
    client.on('notification', n => { if (n.channel === channel) fn(n.payload ?? ''); });
    // The LISTEN connection broke (the database restarted): the change feed polls until it listens again.
    client.on('error', e => { this.drop(client); onLost?.(e); });
    await client.query(`LISTEN ${quoteIdent(channel)}`);
    return async () => {
      if (!this.listeners.includes(client)) return;
      await client.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      this.drop(client);
    };
  }

  private drop(client: PoolClient): void {
    const i = this.listeners.indexOf(client);
    if (i < 0) return;
    this.listeners.splice(i, 1);
    client.release(true);
  }

  async close(): Promise<void> {
    for (const c of this.listeners.splice(0)) c.release(true);
    await this.pool.end();
  }
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
}
