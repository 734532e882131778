// The embedded database: PostgreSQL compiled to WebAssembly (PGlite) in a data folder, with pgvector, so
// `engram serve` works with one command on a laptop or in CI. One process owns the folder (a pid file
// says which); several servers on one database need a PostgreSQL server (--database).
import * as fs from 'fs';
import * as path from 'path';
import type { PGlite } from '@electric-sql/pglite';
import { pidAlive } from '../store/lock';
import { mkdirPrivateSync } from '../store/privateFiles';
import { callerPrelude, checkPrelude, statementMessage, type Caller, type Db, type Queryable, type Rows, type Statement } from './db';

const OWNER_FILE = 'engram-serve.pid';

export class EmbeddedDb implements Db {
  readonly kind = 'embedded' as const;

  /** Statements prepared in the one session PGlite has. */
  private readonly prepared = new Set<string>();

  private constructor(readonly where: string, private readonly db: PGlite, private readonly ownerFile: string) {}

  /** Opens (or creates) the database in `dir`; refuses a folder another live process serves. */
  static async open(dir: string, opts: { vectors?: boolean } = {}): Promise<EmbeddedDb> {
    mkdirPrivateSync(dir);
    const ownerFile = claimFolder(dir);
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when an embedded server starts
      const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
      const extensions: Record<string, unknown> = {};
      if (opts.vectors !== false) {
        try {
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional: without it recall uses words and signatures
          extensions.vector = (require('@electric-sql/pglite-pgvector') as { vector: unknown }).vector;
        } catch { /* not installed: "vectors": "none" */ }
      }
      const db = await PGlite.create({ dataDir: path.join(dir, 'pgdata'), extensions: extensions as never });
      return new EmbeddedDb(`embedded:${dir}`, db, ownerFile);
    } catch (e) {
      fs.rmSync(ownerFile, { force: true });
      throw e;
    }
  }

  async query<T>(sql: string, params?: unknown[]): Promise<Rows<T>> {
    const r = await this.db.query<T>(sql, params);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  ownerTx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(tx => fn(wrap(tx)));
  }

  callerTx<T>(caller: Caller, fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async tx => {
      const res = await tx.exec(callerPrelude(caller));
      checkPrelude(caller, res[0]?.rows.length ?? 0);
      return fn(wrap(tx));
    });
  }

  async callerStatement<T>(caller: Caller, st: Statement, params: unknown[]): Promise<Rows<T>> {
    const prepare = !this.prepared.has(st.name);
    try {
      // PGlite's transaction() brackets the text (and rolls it back on error), so no BEGIN/COMMIT in it.
      const res = await this.db.transaction(tx => tx.exec(statementMessage(caller, st, params, { prepare, begin: false })));
      if (prepare) this.prepared.add(st.name);
      checkPrelude(caller, res[0]?.rows.length ?? 0);
      const r = res[res.length - 1];
      return { rows: r.rows as T[], rowCount: r.affectedRows ?? r.rows.length };
    } catch (e) {
      // A prepared statement outlives a rollback: one a failed text made is dropped, to be made again.
      if (prepare) await this.db.exec(`DEALLOCATE ${st.name}`).catch(() => undefined);
      throw e;
    }
  }

  async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    const stop = await this.db.listen(channel, fn);
    return async () => { await stop(); };
  }

  async close(): Promise<void> {
    try { await this.db.close(); } finally { fs.rmSync(this.ownerFile, { force: true }); }
  }
}

function wrap(tx: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>; exec(sql: string): Promise<unknown> }): Queryable {
  return {
    query: async <T>(sql: string, params?: unknown[]) => {
      const r = await tx.query<T>(sql, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    exec: async (sql: string) => { await tx.exec(sql); },
  };
}

/**
 * Writes our pid into the folder's owner file, or throws when a live process holds it: two processes
 * writing one PGlite folder would corrupt it. A file left by a process that died is taken over.
 */
function claimFolder(dir: string): string {
  const file = path.join(dir, OWNER_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) {
        throw new Error(`another engram serve (pid ${pid}) uses the embedded database in ${dir}; the embedded database serves one process — run several servers on PostgreSQL (--database postgres://…)`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not claim ${file}`);
}
