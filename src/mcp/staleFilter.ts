// The stale guard for `engram mcp`: the same verdict as the window's (src/core/stale.ts staleVerdict),
// over the folder on disk instead of VS Code's file system; a memory found stale is quarantined in the
// shared store, so the window stops recalling it too. No symbol provider here: symbols are unknown and
// never count against a memory.
import { StaleCache, staleVerdict } from '../core/stale';
import type { Logger, Memory } from '../core/types';
import { folderProbe } from '../store/folderProbe';
import type { MemoryStore } from '../store/memoryStore';

/** The window's file lookups get this budget too. */
const BUDGET_MS = 1000;

export function mcpStaleCheck(store: MemoryStore, folder: string, log: Logger): (m: Memory) => Promise<string | undefined> {
  const cache = new StaleCache();
  const probe = folderProbe(folder);
  return async m => {
    // A personal memory is not in this store: checked all the same, quarantined by its own window.
    const own = store.get(m.id) !== undefined;
    const v = await staleVerdict(m, { cache, probe, budgetMs: BUDGET_MS, history: own ? store.history(m.id) : [] });
    if (v.found && v.reason && own) {
      try {
        await store.quarantine(m.id, v.reason);
        log.info(`quarantined ${m.id}: ${v.reason}`);
      } catch (e) {
        log.warn(`could not quarantine ${m.id}: ${(e as Error).message}`);
      }
    }
    return v.reason;
  };
}
