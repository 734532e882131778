// The stale guard for `engram mcp` and the CLI: the same verdict as the window's (src/core/stale.ts
// staleVerdict), over the workspace root on disk instead of VS Code's file system. A memory found stale
// is quarantined in the shared store (unless the caller only reads), so the window stops recalling it
// too. Only when the root is known (published, --folder, or a .engram/.git/manifest folder): a check run
// against a guessed root would find every scoped memory "gone" and quarantine valid memories for
// everyone, so with an unknown root nothing is judged stale. No symbol provider here: symbols never
// count against a memory.
import { StaleCache, staleVerdict } from '../core/stale';
import type { Logger, Memory } from '../core/types';
import { folderProbe } from '../store/folderProbe';
import type { MemoryStore } from '../store/memoryStore';

/** The window's file lookups get this budget too. */
const BUDGET_MS = 1000;

export interface FolderStaleOptions {
  /** The root was found, not guessed: otherwise the check is not run at all. */
  rootKnown: boolean;
  /** Record a quarantine in the store (the MCP server); the CLI's reading commands only leave it out. */
  quarantine: boolean;
}

export function mcpStaleCheck(store: () => Promise<MemoryStore>, folder: string, log: Logger, opts: FolderStaleOptions): (m: Memory) => Promise<string | undefined> {
  const cache = new StaleCache();
  const probe = folderProbe(folder);
  return async m => {
    if (!opts.rootKnown) return undefined;
    const s = await store();
    // A personal memory is not in this store: checked all the same, quarantined by its own window.
    const own = s.get(m.id) !== undefined;
    const v = await staleVerdict(m, { cache, probe, budgetMs: BUDGET_MS, history: own ? s.history(m.id) : [] });
    if (v.found && v.reason && own && opts.quarantine) {
      try {
        await s.quarantine(m.id, v.reason);
        log.info(`quarantined ${m.id}: ${v.reason}`);
      } catch (e) {
        log.warn(`could not quarantine ${m.id}: ${(e as Error).message}`);
      }
    }
    return v.reason;
  };
}
