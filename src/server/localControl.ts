// Token commands while an embedded server runs. PGlite is one process's database: `engram serve token
// create --data DIR` cannot open the folder a running `engram serve` holds. So that server leaves a
// control file in the folder (its pid, its URL and a random key, readable by the folder's owner only) and
// answers token commands at POST /v1/local/tokens from the loopback interface with that key; the CLI
// finds the file and goes through the server. The key grants nothing the folder's files do not: whoever
// can read it can read the database itself.
import * as fs from 'fs';
import * as path from 'path';
import { randomBytes, timingSafeEqual } from 'crypto';
import { pidAlive } from '../store/lock';
import { ApiError } from './apiError';
import type { Db } from './db';
import { createToken, listTokens, revokeToken, ROLES, type Role } from './tokens';

export const CONTROL_FILE = 'engram-serve.json';
export const LOCAL_ROUTE = '/v1/local/tokens';
export const KEY_HEADER = 'x-engram-local-key';

export interface Control { pid: number; url: string; key: string }

export function newKey(): string { return randomBytes(32).toString('base64url'); }

export function writeControl(dir: string, c: Control): string {
  const file = path.join(dir, CONTROL_FILE);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, JSON.stringify(c), { mode: 0o600, flag: 'wx' });
  return file;
}

/** The running server's control file, when the process that wrote it is alive. */
export function readControl(dir: string): Control | undefined {
  try {
    const c = JSON.parse(fs.readFileSync(path.join(dir, CONTROL_FILE), 'utf8')) as Partial<Control>;
    if (typeof c.pid !== 'number' || typeof c.url !== 'string' || typeof c.key !== 'string') return undefined;
    return pidAlive(c.pid) ? c as Control : undefined;
  } catch {
    return undefined;
  }
}

export function keyMatches(given: string | string[] | undefined, key: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function isLoopback(addr: string | undefined): boolean {
  return !!addr && (addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.'));
}

export type TokenOp =
  | { op: 'create'; tenant: string; principal: string; role: Role }
  | { op: 'revoke'; what: string }
  | { op: 'list'; tenant?: string };

/** One token command, as the CLI would run it on the database itself. */
export async function runTokenOp(db: Db, body: unknown): Promise<object> {
  const b = (body ?? {}) as Record<string, unknown>;
  const s = (k: string) => (typeof b[k] === 'string' ? b[k] as string : undefined);
  try {
    if (b.op === 'create') {
      const role = (s('role') ?? 'member') as Role;
      if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
      return await createToken(db, { tenant: s('tenant') ?? '', principal: s('principal') ?? '', role });
    }
    if (b.op === 'revoke') return { revoked: await revokeToken(db, s('what') ?? '') };
    if (b.op === 'list') return { tokens: await listTokens(db, s('tenant')) };
  } catch (e) {
    throw new ApiError(400, 'bad_request', (e as Error).message);
  }
  throw new ApiError(400, 'bad_request', '"op" must be create, revoke or list');
}

/** The CLI's side: the command sent to the running server. */
export async function sendTokenOp(c: Control, op: TokenOp): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(`${c.url}${LOCAL_ROUTE}`, {
      method: 'POST', headers: { 'content-type': 'application/json', [KEY_HEADER]: c.key }, body: JSON.stringify(op), signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    throw new Error(`the engram serve running on this folder (pid ${c.pid}, ${c.url}) did not answer (${(e as Error).message}); stop it and run the command again`);
  }
  const json = await res.json().catch(() => ({})) as Record<string, unknown>;
  if (!res.ok) throw new Error((json.error as { message?: string } | undefined)?.message ?? `the running server answered HTTP ${res.status}`);
  return json;
}
