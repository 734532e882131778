// Crash-safe whole-file replacement: readers see either the old bytes or the new bytes, never a mix,
// and once this resolves the new bytes survive a power cut (data fsync before rename, dir fsync after).
import * as fs from 'fs';
import * as path from 'path';
import { randomBytes } from 'crypto';
import { FILE_MODE } from './privateFiles';

export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  writeFileAtomicSync(file, data);
}

/** Synchronous variant, for code that already holds the store lock and must not interleave. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    // O_EXCL never follows a link; the rename then replaces a link at `file` instead of writing through it.
    fd = fs.openSync(tmp, 'wx', FILE_MODE);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    renameWithRetry(tmp, file);
  } catch (err) {
    if (fd !== undefined) { try { fs.closeSync(fd); } catch { /* already failing */ } }
    try { fs.unlinkSync(tmp); } catch { /* never created or already renamed */ }
    throw err;
  }
  fsyncDir(dir);
}

/**
 * Windows refuses to replace a file another process has open (EPERM/EBUSY/EACCES), e.g. a second window
 * reading the snapshot at that moment: retry briefly before giving up. Elsewhere the first try succeeds.
 */
export function renameWithRetry(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (process.platform !== 'win32' || attempt >= 20 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + attempt * 10);
    }
  }
}

/** Makes a rename or create in `dir` durable. Some platforms (Windows) cannot open directories: best effort there. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EACCES' && code !== 'EINVAL') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Removes temp files a crash left behind by writeFileAtomic (they may hold forgotten text). */
export function removeStaleTempFiles(dir: string, maxAgeMs = 60_000): void {
  let names: string[];
  try { names = fs.readdirSync(dir); } catch { return; }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
    const p = path.join(dir, name);
    try {
      if (now - fs.lstatSync(p).mtimeMs > maxAgeMs) fs.unlinkSync(p);
    } catch { /* raced with another cleaner */ }
  }
}

/** Copies a file to `to` the way writeFileAtomicSync writes one (temp file, fsync, rename, dir fsync). */
export function copyFileAtomicSync(from: string, to: string): void {
  const dir = path.dirname(to);
  const tmp = path.join(dir, `.${path.basename(to)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    fs.copyFileSync(from, tmp, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(tmp, FILE_MODE);
    const fd = fs.openSync(tmp, 'r+');
    try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
    renameWithRetry(tmp, to);
  } catch (err) {
    try { fs.unlinkSync(tmp); } catch { /* never created or already renamed */ }
    throw err;
  }
  fsyncDir(dir);
}
