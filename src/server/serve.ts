// Starts a team server: the database (a PostgreSQL URL, or the embedded one in a data folder), the
// schema, the change hub, the HTTP listener. Stateless apart from caches that notifications keep honest:
// several servers on one PostgreSQL database serve the same data.
import type * as http from 'http';
import type { AddressInfo } from 'net';
import type { Logger } from '../core/types';
import { ChangeHub } from './changeHub';
import type { Db } from './db';
import { createHttpServer } from './http';
import { RateLimiter } from './rateLimit';
import { migrate, type SchemaInfo } from './schema';
import { TeamService } from './service';
import { TokenCache } from './tokenCache';
import { mcpHandler } from './mcpHttp';
import * as fs from 'fs';
import { newKey, writeControl } from './localControl';
import { version } from '../../package.json';

export interface ServeOptions {
  /** postgres://… ; without it, the embedded database in `dataDir`. */
  database?: string;
  dataDir?: string;
  host?: string;
  port?: number;
  /** Requests per second per token (0 = no limit), and the burst allowed. */
  rate?: number;
  burst?: number;
  /** Keep vectors off even where pgvector is installed. */
  vectors?: boolean;
  log: Logger;
  now?: () => number;
}

export interface RunningServer {
  url: string;
  db: Db;
  schema: SchemaInfo;
  service: TeamService;
  hub: ChangeHub;
  tokens: TokenCache;
  close(): Promise<void>;
}

export async function openDatabase(opts: { database?: string; dataDir?: string; vectors?: boolean; log: Logger }): Promise<Db> {
  if (opts.database) {
    const { PostgresDb } = await import('./dbPostgres');
    return new PostgresDb({ url: opts.database, onError: e => opts.log.warn(`database connection: ${e.message}`) });
  }
  if (!opts.dataDir) throw new Error('an embedded server needs a data folder (--data DIR)');
  const { EmbeddedDb } = await import('./dbEmbedded');
  return EmbeddedDb.open(opts.dataDir, { vectors: opts.vectors });
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const db = await openDatabase(opts);
  let server: http.Server | undefined;
  let hub: ChangeHub | undefined;
  try {
    const schema = await migrate(db, { vectors: opts.vectors });
    const service = new TeamService({ db, vectors: schema.vectors === 'pgvector', now: opts.now });
    hub = new ChangeHub(db, opts.log);
    const tokens = new TokenCache(db);
    hub.onRevoked(id => tokens.revoked(id));
    hub.onGap(() => tokens.clear());
    await hub.start();
    const limiter = new RateLimiter({ perSecond: opts.rate ?? 50, burst: opts.burst ?? 200 });
    const health = async () => {
      const base = { database: db.kind === 'postgres' ? 'postgres' : 'embedded', vectors: schema.vectors, schema: schema.version, version };
      try {
        await db.query('SELECT 1');
        return { status: 200, body: { ok: true, ...base } };
      } catch {
        return { status: 503, body: { ok: false, ...base, error: 'the database is unavailable' } };
      }
    };
    // The embedded database is this process's alone: token commands reach it through us (localControl.ts).
    const localKey = db.kind === 'embedded' && opts.dataDir ? newKey() : undefined;
    server = createHttpServer({ service, hub, limiter, tokens, log: opts.log, health, mcp: mcpHandler(service, opts.log, version), localKey });
    const s = server;
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(opts.port ?? 7077, opts.host ?? '127.0.0.1', () => { s.off('error', reject); resolve(); });
    });
    const addr = s.address() as AddressInfo;
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    const url = `http://${host}:${addr.port}`;
    const controlFile = localKey ? writeControl(opts.dataDir!, { pid: process.pid, url: url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:'), key: localKey }) : undefined;
    const running: RunningServer = {
      url, db, schema, service, hub, tokens,
      close: async () => {
        if (controlFile) fs.rmSync(controlFile, { force: true });
        await hub!.close();
        s.closeAllConnections?.();
        await new Promise<void>(resolve => s.close(() => resolve()));
        await db.close();
      },
    };
    return running;
  } catch (e) {
    await hub?.close().catch(() => undefined);
    server?.close();
    await db.close().catch(() => undefined);
    throw e;
  }
}
