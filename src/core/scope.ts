// Scope globs decide *where* a memory applies. Globs are workspace-relative with forward slashes; an
// empty list means everywhere. Specificity lets the tighter of two matching memories win.
import { Minimatch } from 'minimatch';

const OPTS = { dot: true, nocomment: true, nonegate: true } as const;
const MAX_CACHED = 50_000;
const cache = new Map<string, (file: string) => boolean>();

function matcher(glob: string): (file: string) => boolean {
  let fn = cache.get(glob);
  if (!fn) {
    const g = normaliseGlob(glob);
    // A bare folder ("packages/web" or "packages/web/") means everything under it.
    const globs = (/[*?[{]/.test(g) ? [g] : [g, `${g.replace(/\/$/, '')}/**`]).map(x => new Minimatch(x, OPTS));
    fn = (file: string) => globs.some(x => x.match(file));
    // Bounded, oldest first out (Map keeps insertion order): big stores can hold many distinct globs.
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(glob, fn);
  }
  return fn;
}

function normaliseGlob(g: string): string {
  return g.trim().replace(/\\/g, '/').replace(/^\.\//, '');
}

export function normaliseFile(file: string): string {
  return file.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');
}

/** True when a memory with `globs` applies to `file`. Empty globs, or no file given, always match. */
export function scopeMatches(globs: readonly string[] | undefined, file?: string): boolean {
  if (!globs || !globs.length || file === undefined || file === '') return true;
  const f = normaliseFile(file);
  return globs.some(g => matcher(g)(f));
}

/**
 * How tightly the matching globs fit `file` (higher = tighter; 0 = everywhere or no match). Counts
 * literal path segments before the first wildcard, then literal characters, so `packages/web/**`
 * beats `packages/**`, which beats `**`, and `src/a.ts` beats `src/*.ts`.
 */
export function scopeSpecificity(globs: readonly string[] | undefined, file?: string): number {
  if (!globs || !globs.length) return 0;
  const f = file === undefined ? undefined : normaliseFile(file);
  let best = 0;
  for (const g of globs) {
    if (f !== undefined && !matcher(g)(f)) continue;
    best = Math.max(best, globSpecificity(g));
  }
  return best;
}

export function globSpecificity(glob: string): number {
  const segs = normaliseGlob(glob).split('/').filter(Boolean);
  let literalSegs = 0;
  let wildSegs = 0;
  let literalChars = 0;
  for (const s of segs) {
    if (s === '**') { wildSegs++; continue; }
    if (/[*?[{]/.test(s)) { literalChars += s.replace(/[*?[\]{}]/g, '').length; wildSegs++; continue; }
    literalSegs++;
    literalChars += s.length;
  }
  // Segments dominate; characters break ties; every wildcard costs a little.
  return literalSegs * 100 + Math.min(literalChars, 99) - (wildSegs > 0 ? 1 : 0) + 1;
}

/** Folders a test runner keeps beside the tests they belong to (jest, vitest, syrupy, insta): the tests' folder is the place. */
const SNAPSHOT_DIR = /^(?:__snapshots__|__snapshot__|snapshots|__image_snapshots__)$/;

/**
 * The narrowest globs covering `files` (workspace-relative): the common folder of each top-level group,
 * e.g. ["packages/web/src/a.ts", "packages/web/src/b/c.ts"] → ["packages/web/src/**"]. One file alone
 * keeps its folder, so the memory applies to neighbours too. Files at the root give "**" (everywhere). A
 * snapshot counts for the folder of its test (`src/__snapshots__/badge.test.js.snap` → `src/**`): the
 * error was in the test, not in the file `jest -u` rewrote.
 */
export function narrowestGlobs(files: readonly string[]): string[] {
  const norm = [...new Set(files.map(normaliseFile).filter(Boolean))];
  if (!norm.length) return [];
  const groups = new Map<string, string[][]>();
  for (const f of norm) {
    const parts = f.split('/');
    const dir = parts.slice(0, -1);
    if (dir.length && SNAPSHOT_DIR.test(dir[dir.length - 1])) dir.pop();
    const key = dir[0] ?? '';
    const list = groups.get(key) ?? [];
    list.push(dir);
    groups.set(key, list);
  }
  const out: string[] = [];
  for (const [key, dirs] of groups) {
    if (key === '') return ['**'];
    let common = dirs[0];
    for (const d of dirs.slice(1)) {
      let i = 0;
      while (i < common.length && i < d.length && common[i] === d[i]) i++;
      common = common.slice(0, i);
    }
    out.push(common.length ? `${common.join('/')}/**` : '**');
  }
  return out.includes('**') ? ['**'] : out.sort();
}

/** Workspace-relative form of `path` given workspace root folders (absolute); undefined when outside. */
export function toWorkspaceRelative(path: string, roots: readonly string[]): string | undefined {
  const p = path.replace(/\\/g, '/');
  for (const r of roots) {
    const root = r.replace(/\\/g, '/').replace(/\/+$/, '');
    const sameCase = /^[a-zA-Z]:/.test(root) ? p.toLowerCase().startsWith(root.toLowerCase() + '/') : p.startsWith(root + '/');
    if (sameCase) return p.slice(root.length + 1);
  }
  if (!/^([a-zA-Z]:)?\//.test(p)) return normaliseFile(p);
  return undefined;
}
