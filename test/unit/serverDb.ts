// The databases the team-server tests run on: the embedded one (PGlite in a temp folder) always, and the
// PostgreSQL server on 127.0.0.1:5432 when it answers — each test file gets a database of its own
// (engram_test_…), dropped afterwards. With ENGRAM_TEST_POSTGRES=required (CI sets it in .ci/run) an
// unreachable server fails the run instead of skipping; either way the run says which it used.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { randomBytes } from 'crypto';

export const PG_ADMIN_URL = process.env.ENGRAM_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Backend {
  name: 'embedded' | 'postgres';
  /** Options for startServer / openDatabase: a URL, or a data folder. */
  where(): { database?: string; dataDir?: string };
  /** Drops what setup made. */
  teardown(): Promise<void>;
}

let pgState: Promise<{ ok: true; version: string } | { ok: false; why: string }> | undefined;

/** Whether the PostgreSQL server answers (asked once per run). */
export function postgresReachable(): Promise<{ ok: true; version: string } | { ok: false; why: string }> {
  pgState ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver under test
    const { Client } = require('pg') as typeof import('pg');
    const c = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      const r = await c.query<{ server_version: string }>('SHOW server_version');
      return { ok: true as const, version: r.rows[0].server_version };
    } catch (e) {
      return { ok: false as const, why: (e as Error).message };
    } finally {
      await c.end().catch(() => undefined);
    }
  })();
  return pgState;
}

async function admin(sql: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver under test
  const { Client } = require('pg') as typeof import('pg');
  const c = new Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

export function embeddedBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-serve-'));
  return { name: 'embedded', where: () => ({ dataDir: dir }), teardown: async () => { fs.rmSync(dir, { recursive: true, force: true }); } };
}

export async function postgresBackend(): Promise<Backend> {
  const name = `engram_test_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = PG_ADMIN_URL.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  return {
    name: 'postgres',
    where: () => ({ database: url }),
    teardown: async () => { await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); },
  };
}

const announced = new Set<string>();

/**
 * Calls `define(getBackend)` inside a describe block per database. The PostgreSQL block skips itself
 * (saying why) when the server does not answer, unless ENGRAM_TEST_POSTGRES=required.
 */
export function onEachDatabase(title: string, define: (backend: () => Backend) => void, only?: 'postgres'): void {
  for (const kind of only ? [only] : (['embedded', 'postgres'] as const)) {
    describe(`${title} [${kind}]`, function () {
      this.timeout(180_000);
      let b: Backend | undefined;
      before(async function () {
        if (kind === 'postgres') {
          const pg = await postgresReachable();
          if (!pg.ok) {
            if (process.env.ENGRAM_TEST_POSTGRES === 'required') throw new Error(`ENGRAM_TEST_POSTGRES=required but PostgreSQL at ${PG_ADMIN_URL} did not answer: ${pg.why}`);
            console.log(`    (PostgreSQL at ${PG_ADMIN_URL} did not answer: ${pg.why}; these tests ran on the embedded database only)`);
            this.skip();
          }
          if (!announced.has('pg')) { announced.add('pg'); console.log(`    engram-server-tests: PostgreSQL ${pg.version} at 127.0.0.1:5432 used`); }
          b = await postgresBackend();
        } else {
          b = embeddedBackend();
        }
      });
      after(async () => { await b?.teardown(); });
      define(() => b!);
    });
  }
}
