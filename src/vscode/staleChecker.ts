// The stale check itself: the files, folders and symbols a memory names are looked up in the workspace
// within a time budget, cached per memory revision; what is stale is quarantined with the reason.
import * as vscode from 'vscode';
import { StaleCache, staleVerdict, type StaleProbe } from '../core/stale';
import type { Logger, Memory } from '../core/types';
import { workspaceRelativePath } from '../core/workspacePath';
import type { MemoryStore } from '../store/index';
import type { EngramConfig } from './config';
import { formatError } from './errors';

/** File and glob lookups get this much on top of the symbol budget (they are cheap but not free). */
const FILE_BUDGET_MS = 1000;
const RESTORED_KEY = 'engram.stale.restored';

function folders(): readonly vscode.WorkspaceFolder[] { return vscode.workspace.workspaceFolders ?? []; }

async function exists(uri: vscode.Uri): Promise<boolean> {
  try { await vscode.workspace.fs.stat(uri); return true; } catch { return false; }
}

/** The probe over the open workspace (every folder of a multi-root workspace counts). */
export function workspaceProbe(symbolBudgetMs: number): StaleProbe {
  const probe: StaleProbe = {
    async fileExists(rel) {
      // A memory names the file: only a path inside the workspace is looked at.
      const safe = workspaceRelativePath(rel);
      if (safe === undefined) return false;
      rel = safe;
      for (const f of folders()) if (await exists(vscode.Uri.joinPath(f.uri, rel))) return true;
      return false;
    },
    async globHasMatch(glob) {
      const literal = !/[*?[{]/.test(glob);
      if (literal && await probe.fileExists(glob)) return true;
      for (const f of folders()) {
        const pattern = new vscode.RelativePattern(f, literal ? `${glob}/**` : glob);
        const hits = await vscode.workspace.findFiles(pattern, '**/node_modules/**', 1);
        if (hits.length) return true;
      }
      return false;
    },
  };
  if (symbolBudgetMs > 0) {
    probe.symbolExists = async name => {
      const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', name);
      // No answer at all means no provider (or not indexed yet): unknown, never "missing".
      if (!found?.length) return undefined;
      return found.some(s => s.name === name || s.name.replace(/\(.*$/, '') === name);
    };
  }
  return probe;
}

export type StaleChecker = ((m: Memory) => Promise<string | undefined>) & {
  /** Forgets cached results (all, or those naming `rel`). */
  invalidate(rel?: string): string[];
  /** The user restored this memory: do not quarantine this revision of it again. */
  exempt(m: Memory): void;
};

/** What the checker needs from the window's context (Services satisfies it; this file does not import it). */
export interface StaleCheckerDeps {
  readonly context: { readonly workspaceState: vscode.Memento };
  readonly logger: Logger;
  config(): EngramConfig;
  store(): Promise<MemoryStore>;
  fireChanged(): void;
}

/**
 * The window's checker (Services builds one, shared by chat, tools, hover, instructions and the stale
 * guard): cached per memory revision, quarantines what it finds stale, and returns the reason
 * (undefined when fresh or when it could not tell in time).
 */
export function createStaleChecker(services: StaleCheckerDeps): StaleChecker {
  const cache = new StaleCache();
  const inFlight = new Map<string, Promise<string | undefined>>();
  const state = services.context.workspaceState;
  const restored = (): Record<string, number> => state.get<Record<string, number>>(RESTORED_KEY) ?? {};

  const run = async (m: Memory): Promise<string | undefined> => {
    const budget = services.config().stale.symbolBudgetMs;
    let verdict: { reason?: string; found: boolean };
    try {
      // The same verdict as `engram mcp` (core staleVerdict): a restore made in any process counts.
      const store = await services.store();
      verdict = await staleVerdict(m, {
        cache, probe: workspaceProbe(budget), budgetMs: budget + FILE_BUDGET_MS,
        history: store.history(m.id), exempt: restored()[m.id] === m.updatedAt,
      });
    } catch (e) {
      services.logger.warn(`stale check of ${m.id} failed: ${formatError(e)}`);
      return undefined;
    }
    const reason = verdict.reason;
    if (verdict.found && reason) {
      try {
        const store = await services.store();
        const cur = store.get(m.id);
        if (cur && !cur.quarantined) {
          await store.quarantine(m.id, reason);
          services.logger.info(`quarantined ${m.id}: ${reason}`);
          services.fireChanged();
        }
      } catch (e) {
        services.logger.warn(`could not quarantine ${m.id}: ${formatError(e)}`);
      }
    }
    return reason;
  };

  const checker = ((m: Memory) => {
    const key = `${m.id}@${m.updatedAt}`;
    let p = inFlight.get(key);
    if (!p) {
      p = run(m).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    return p;
  }) as StaleChecker;
  checker.invalidate = rel => cache.invalidate(rel);
  checker.exempt = m => {
    // Bounded: the oldest exemptions go first (a memory edited since is checked again anyway).
    const next = Object.fromEntries([...Object.entries(restored()).filter(([id]) => id !== m.id), [m.id, m.updatedAt] as const].slice(-1000));
    void state.update(RESTORED_KEY, next);
    cache.invalidate();
  };
  return checker;
}

