// Exclusive writer lock for one storage folder, shared by every process that writes it (two VS Code
// windows, the CLI). A lock whose owner died (dead pid on this host) or that has not been refreshed for
// `staleMs` is taken over, so a crash never wedges the store.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { randomBytes } from 'crypto';

export interface LockOptions {
  /** Give up after this long (ms). Default 10 s. */
  timeoutMs?: number;
  /** A lock not refreshed for this long is stale even if its pid looks alive (pid reuse, other host). Default 30 s. */
  staleMs?: number;
  /** Called when a stale lock is taken over, with a human-readable reason. */
  onStale?: (reason: string) => void;
}

export class LockTimeoutError extends Error {
  readonly code = 'ELOCKED';
  constructor(readonly lockPath: string, readonly holder: string) {
    super(`The memory store is locked by another process (${holder}); gave up waiting for ${lockPath}`);
    this.name = 'LockTimeoutError';
  }
}

interface LockInfo { pid: number; host: string; nonce: string; at: number }

export const LOCK_FILE = '.lock';

/** In-process queue per lock path, so concurrent calls in one process wait in order instead of polling. */
const chains = new Map<string, Promise<unknown>>();

export async function withLock<T>(dir: string, fn: () => Promise<T> | T, opts: LockOptions = {}): Promise<T> {
  const lockPath = path.join(dir, LOCK_FILE);
  const prev = chains.get(lockPath) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>(r => { release = r; });
  const chained = prev.then(() => mine);
  chains.set(lockPath, chained);
  await prev;
  try {
    const info = await acquire(lockPath, opts);
    // Refresh mtime while we hold it, so a long compaction is not mistaken for a dead holder.
    const staleMs = opts.staleMs ?? 30_000;
    const timer = setInterval(() => { try { const t = new Date(); fs.utimesSync(lockPath, t, t); } catch { /* lost it; fn will finish anyway */ } }, Math.max(1000, staleMs / 3));
    timer.unref?.();
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      releaseLock(lockPath, info);
    }
  } finally {
    release();
    if (chains.get(lockPath) === chained) chains.delete(lockPath);
  }
}

async function acquire(lockPath: string, opts: LockOptions): Promise<LockInfo> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const staleMs = opts.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const info: LockInfo = { pid: process.pid, host: os.hostname(), nonce: randomBytes(8).toString('hex'), at: Date.now() };
  let delay = 2;
  for (;;) {
    if (createWithContent(lockPath, JSON.stringify(info))) return info;
    const holder = readHolder(lockPath);
    const stale = staleReason(lockPath, holder, staleMs);
    if (stale && takeOver(lockPath, holder)) {
      opts.onStale?.(stale);
      continue;
    }
    if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, holder ? `pid ${holder.pid} on ${holder.host}` : 'unknown holder');
    await new Promise(r => setTimeout(r, delay));
    delay = Math.min(50, delay * 2);
  }
}

/**
 * Creates the lock file with its holder already written, atomically: the content goes to a private temp
 * file that is then hard-linked into place (link fails if the lock exists). A holder killed between
 * creating and writing would otherwise leave an empty lock that no one can judge stale by its pid.
 * False when the lock exists; other errors (EACCES/EROFS/ENOSPC) are thrown for the caller to report.
 */
function createWithContent(lockPath: string, content: string): boolean {
  const tmp = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Filesystems without hard links: exclusive create, then write (the old, less atomic way).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP') {
      let fd: number;
      try { fd = fs.openSync(lockPath, 'wx', 0o600); } catch (e) { if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false; throw e; }
      try { fs.writeSync(fd, content); } finally { fs.closeSync(fd); }
      return true;
    }
    throw err;
  } finally {
    try { fs.unlinkSync(tmp); } catch { /* already gone */ }
  }
}

function readHolder(lockPath: string): LockInfo | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.nonce === 'string') {
      return { pid: v.pid, host: v.host, nonce: v.nonce, at: typeof v.at === 'number' ? v.at : 0 };
    }
  } catch { /* missing, or written half-way by a holder that is still starting */ }
  return undefined;
}

function staleReason(lockPath: string, holder: LockInfo | undefined, staleMs: number): string | undefined {
  let mtime: number;
  try { mtime = fs.statSync(lockPath).mtimeMs; } catch { return undefined; } // gone: just retry
  if (holder && holder.host === os.hostname() && !pidAlive(holder.pid)) return `lock holder pid ${holder.pid} is not running`;
  if (Date.now() - mtime > staleMs) return `lock not refreshed for ${Math.round((Date.now() - mtime) / 1000)} s`;
  return undefined;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * Moves the stale lock aside atomically, so of two processes that both judged it stale only one wins.
 * If what we moved turns out to be a fresh lock someone just took, we put it back.
 */
function takeOver(lockPath: string, judged: LockInfo | undefined): boolean {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try { fs.renameSync(lockPath, aside); } catch { return false; }
  const moved = readHolder(aside);
  if (judged && moved && moved.nonce !== judged.nonce) {
    try { fs.linkSync(aside, lockPath); } catch { /* someone else holds it now; they win */ }
    try { fs.unlinkSync(aside); } catch { /* ignore */ }
    return false;
  }
  try { fs.unlinkSync(aside); } catch { /* ignore */ }
  return true;
}

function releaseLock(lockPath: string, info: LockInfo): void {
  // Only remove our own lock: if it was taken over while we were stalled, the new holder keeps it.
  const cur = readHolder(lockPath);
  if (cur && cur.nonce !== info.nonce) return;
  try { fs.unlinkSync(lockPath); } catch { /* already gone */ }
}
