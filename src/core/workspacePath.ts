// The one check a memory's file path passes before anything opens it. Paths in memories come from
// imports and team files, which anyone can write: "../../../etc/passwd" joined onto the workspace
// folder leaves it, and so do absolute paths, drive letters and UNC shares.

const MAX_PATH_CHARS = 1024;

/**
 * The path in normal workspace-relative form (forward slashes, no "./"), or undefined when it could
 * point outside the workspace: absolute, a drive letter or UNC share, a ".." segment, a NUL or other
 * control character, a URI scheme, or too long.
 */
export function workspaceRelativePath(p: string): string | undefined {
  if (typeof p !== 'string' || !p || p.length > MAX_PATH_CHARS) return undefined;
  if (/[\x00-\x1f\x7f]/.test(p)) return undefined;
  const s = p.replace(/\\/g, '/');
  if (s.startsWith('/') || /^[a-zA-Z]:/.test(s) || /^[a-zA-Z][\w+.-]*:/.test(s)) return undefined;
  const segs = s.split('/').filter(x => x !== '' && x !== '.');
  if (!segs.length || segs.some(x => x === '..')) return undefined;
  return segs.join('/');
}

/**
 * The one normaliser of a path a person or an agent gives (a tool's `file`, `engram recall --file`, a
 * hook's file_path, an editor's file) into the workspace-relative form scopes are matched against: an
 * absolute path is taken relative to `root`; a relative one is relative to `cwd` (where the agent runs,
 * which may be a subfolder of the root), else to the root. Backslashes, "./" and ".." are resolved; a
 * path outside the root gives undefined. `root` and `cwd` are absolute (POSIX or Windows form).
 */
export function toWorkspaceFile(file: string, root: string, cwd?: string): string | undefined {
  if (typeof file !== 'string' || !file.trim() || file.length > MAX_PATH_CHARS || /[\x00-\x1f\x7f]/.test(file)) return undefined;
  const f = file.trim().replace(/\\/g, '/');
  const abs = isAbsolute(f) ? f : `${(cwd ?? root).replace(/\\/g, '/').replace(/\/+$/, '')}/${f}`;
  const base = segments(root.replace(/\\/g, '/'));
  const full = segments(abs);
  if (!base || !full || full.length <= base.length) return undefined;
  // Windows paths compare without case (drive letters and names alike); POSIX ones exactly.
  const fold = /^[a-zA-Z]:/.test(root) ? (s: string) => s.toLowerCase() : (s: string) => s;
  for (let i = 0; i < base.length; i++) if (fold(base[i]) !== fold(full[i])) return undefined;
  return full.slice(base.length).join('/');
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[a-zA-Z]:\//.test(p);
}

/** The segments of an absolute path with "." and ".." resolved; undefined when ".." climbs above the top. */
function segments(p: string): string[] | undefined {
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') { if (!out.length) return undefined; out.pop(); continue; }
    out.push(s);
  }
  return out;
}
