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
