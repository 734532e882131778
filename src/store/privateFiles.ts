// How the store touches its own files. The memory folder holds masked but still private text, and a
// link planted in it (events.jsonl -> ~/.bashrc) must not make Engram truncate, append to or overwrite
// the target: files are opened without following a symbolic link in the last component, created
// readable by the owner only (0600), and folders likewise (0700).
import * as fs from 'fs';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

// Not defined on Windows, where creating a symlink needs privileges; there an lstat check stands in.
const O_NOFOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;

export class SymlinkRefusedError extends Error {
  readonly code = 'ELOOP';
  constructor(readonly file: string) {
    super(`${file} is a symbolic link; Engram does not follow links in its store folder (remove the link or point the store at the real folder)`);
  }
}

/** fs.openSync with no-follow semantics on the last component; a link is refused with SymlinkRefusedError. */
export function openNoFollowSync(file: string, flags: number, mode = FILE_MODE): number {
  if (!O_NOFOLLOW) {
    let st: fs.Stats | undefined;
    try { st = fs.lstatSync(file); } catch { /* missing: the open decides */ }
    if (st?.isSymbolicLink()) throw new SymlinkRefusedError(file);
  }
  try {
    return fs.openSync(file, flags | O_NOFOLLOW, mode);
  } catch (err) {
    // Linux and macOS answer ELOOP for a link opened with O_NOFOLLOW; some BSDs answer EMLINK.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new SymlinkRefusedError(file);
    throw err;
  }
}

/** The whole file and its inode, read without following a link. Throws ENOENT like readFileSync. */
export function readFileNoFollowSync(file: string): { buf: Buffer; ino: number } {
  const fd = openNoFollowSync(file, fs.constants.O_RDONLY);
  try {
    const st = fs.fstatSync(fd);
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break; // shrank while reading: keep what is there
      off += n;
    }
    return { buf: off === buf.length ? buf : buf.subarray(0, off), ino: st.ino };
  } finally {
    fs.closeSync(fd);
  }
}

/** mkdir -p with owner-only permissions for every folder it creates. */
export function mkdirPrivateSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
}
