// The stale guard's probe over a folder on disk, for processes without an editor (`engram mcp`): the
// window asks VS Code's file system and symbol providers; here files and globs are looked up directly,
// and symbols are unknown (no language server), which the stale check never counts against a memory.
import * as fs from 'fs';
import * as path from 'path';
import type { StaleProbe } from '../core/stale';
import { scopeMatches } from '../core/scope';
import { workspaceRelativePath } from '../core/workspacePath';

/** Folders a glob search never walks (the window's search excludes node_modules the same way). */
const SKIP = new Set(['node_modules', '.git']);
/** Entries a glob search looks at before it gives up (unknown, never "no match"). */
const MAX_ENTRIES = 50_000;

class TooBig extends Error {}

export function folderProbe(root: string): StaleProbe {
  const fileExists = async (rel: string): Promise<boolean> => {
    // Only a path inside the folder is looked at: memories come from imports anyone can write.
    const safe = workspaceRelativePath(rel);
    if (safe === undefined) return false;
    try { await fs.promises.stat(path.join(root, safe)); return true; } catch { return false; }
  };
  return {
    fileExists,
    async globHasMatch(glob) {
      const literal = !/[*?[{]/.test(glob);
      if (literal) return fileExists(glob);
      let seen = 0;
      const walk = async (dir: string, rel: string): Promise<boolean> => {
        let entries: fs.Dirent[];
        try { entries = await fs.promises.readdir(dir, { withFileTypes: true }); } catch { return false; }
        for (const e of entries) {
          if (++seen > MAX_ENTRIES) throw new TooBig();
          const r = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) { if (!SKIP.has(e.name) && await walk(path.join(dir, e.name), r)) return true; } else if (scopeMatches([glob], r)) return true;
        }
        return false;
      };
      try { return await walk(root, ''); } catch (e) {
        // Too large to tell: say it matches, so nothing is quarantined on a guess.
        if (e instanceof TooBig) return true;
        throw e;
      }
    },
  };
}
