// `engram serve` and `engram serve token create|revoke|list`: the CLI's wiring of the team server. The
// token is printed once, alone on the last line of stdout (only its hash is stored); everything else the
// server says goes to stderr.
import * as os from 'os';
import * as path from 'path';
import type { Logger } from '../core/types';
import { stderrLogger } from '../mcp/command';
import { migrate } from './schema';
import { openDatabase, startServer } from './serve';
import { readControl, sendTokenOp, type Control } from './localControl';
import { createToken, listTokens, revokeToken, ROLES, type Role, type TokenInfo } from './tokens';

export interface CliArgs { positional: string[]; flags: Map<string, string | true> }
interface Io { out(s: string): void; err(s: string): void }

export const SERVE_FLAGS = ['database', 'data', 'host', 'port', 'rate', 'no-vectors', 'tenant', 'principal', 'role'] as const;

/** The user's data folder for the embedded database: XDG on Linux, Application Support, LOCALAPPDATA. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'engram', 'server');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'engram', 'server');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'engram', 'server');
}

function str(a: CliArgs, name: string): string | undefined {
  const v = a.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function where(a: CliArgs): { database?: string; dataDir: string } {
  const database = str(a, 'database') ?? process.env.ENGRAM_DATABASE_URL;
  if (database && !/^postgres(ql)?:\/\//.test(database)) throw new Error('--database must be a postgres:// URL');
  return { database, dataDir: path.resolve(str(a, 'data') ?? defaultDataDir()) };
}

function intFlag(a: CliArgs, name: string, dflt: number, min: number, max: number): number {
  const v = str(a, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export async function runServeCommand(rest: string[], a: CliArgs, io: Io): Promise<number> {
  const log = stderrLogger(io);
  if (rest[0] === 'token') return runToken(rest.slice(1), a, io, log);
  if (rest.length) { io.err(`engram: serve takes no arguments (got "${rest[0]}"); did you mean "serve token …"?\n`); return 2; }
  const w = where(a);
  const server = await startServer({
    database: w.database, dataDir: w.dataDir, host: str(a, 'host') ?? '127.0.0.1', port: intFlag(a, 'port', 7077, 0, 65535),
    rate: intFlag(a, 'rate', 50, 0, 100_000), vectors: a.flags.has('no-vectors') ? false : undefined, log,
  });
  io.err(`engram serve: listening on ${server.url} (database ${server.db.kind === 'postgres' ? server.db.where : `embedded in ${w.dataDir}`}, vectors ${server.schema.vectors}, schema ${server.schema.version}, changes by ${server.hub.mode === 'listen' ? 'LISTEN/NOTIFY' : 'polling'})\n`);
  await new Promise<void>(resolve => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.err('engram serve: stopping\n');
  await server.close();
  return 0;
}

async function runToken(rest: string[], a: CliArgs, io: Io, log: Logger): Promise<number> {
  const sub = rest[0];
  if (sub !== 'create' && sub !== 'revoke' && sub !== 'list') {
    io.err('engram: serve token create --tenant T --principal P [--role member|reviewer|admin] | revoke ID|TOKEN | list [--tenant T]\n');
    return 2;
  }
  const w = where(a);
  // An embedded server running on this folder holds its database: the command goes through it.
  const running = !w.database ? readControl(w.dataDir) : undefined;
  if (running) return runTokenThrough(running, sub, rest, a, io);
  const db = await openDatabase({ database: w.database, dataDir: w.dataDir, log });
  try {
    await migrate(db);
    if (sub === 'create') {
      const role = (str(a, 'role') ?? 'member') as Role;
      if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
      const { token, info } = await createToken(db, { tenant: str(a, 'tenant') ?? '', principal: str(a, 'principal') ?? '', role });
      io.out(`token ${info.id} for ${info.principal} (${info.role}) in tenant ${info.tenant}; it is shown once, only its hash is kept:\n${token}\n`);
      return 0;
    }
    if (sub === 'revoke') {
      const what = rest[1];
      if (!what) throw new Error('token revoke needs a token id (tok_…) or the token');
      const ok = await revokeToken(db, what);
      if (!ok) { io.err(`engram: no live token ${what.startsWith('eng_') ? '(the given token)' : what}\n`); return 1; }
      io.out(`revoked ${what.startsWith('eng_') ? 'the token' : what}\n`);
      return 0;
    }
    printTokens(await listTokens(db, str(a, 'tenant')), a, io);
    return 0;
  } finally {
    await db.close();
  }
}

/** The token commands sent to the embedded server that holds the folder; the same output as on the database. */
async function runTokenThrough(c: Control, sub: 'create' | 'revoke' | 'list', rest: string[], a: CliArgs, io: Io): Promise<number> {
  io.err(`engram: the engram serve running on this folder (pid ${c.pid}) holds its database; asking it\n`);
  try {
    if (sub === 'create') {
      const role = (str(a, 'role') ?? 'member') as Role;
      if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
      const r = await sendTokenOp(c, { op: 'create', tenant: str(a, 'tenant') ?? '', principal: str(a, 'principal') ?? '', role }) as { token: string; info: TokenInfo };
      io.out(`token ${r.info.id} for ${r.info.principal} (${r.info.role}) in tenant ${r.info.tenant}; it is shown once, only its hash is kept:\n${r.token}\n`);
      return 0;
    }
    if (sub === 'revoke') {
      const what = rest[1];
      if (!what) throw new Error('token revoke needs a token id (tok_…) or the token');
      const r = await sendTokenOp(c, { op: 'revoke', what });
      if (!r.revoked) { io.err(`engram: no live token ${what.startsWith('eng_') ? '(the given token)' : what}\n`); return 1; }
      io.out(`revoked ${what.startsWith('eng_') ? 'the token' : what}\n`);
      return 0;
    }
    const tokens = (await sendTokenOp(c, { op: 'list', tenant: str(a, 'tenant') })).tokens as TokenInfo[];
    printTokens(tokens, a, io);
    return 0;
  } catch (e) {
    io.err(`engram: ${(e as Error).message}\n`);
    return 1;
  }
}

function printTokens(tokens: TokenInfo[], a: CliArgs, io: Io): void {
  if (a.flags.has('json')) io.out(JSON.stringify(tokens) + '\n');
  else io.out(tokens.map(t => `${t.id}  ${t.tenant}  ${t.principal}  ${t.role}  ${t.createdAt}${t.revokedAt ? `  revoked ${t.revokedAt}` : ''}`).join('\n') + (tokens.length ? '\n' : ''));
}
