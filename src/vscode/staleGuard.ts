// Stale guard in the editor: before a memory is injected (chat, tools, hover, instructions) the files,
// folders and symbols it names are checked against the workspace; a memory about code that is gone is
// quarantined with the reason, so it stops being recalled until someone restores it. File deletions
// re-check the memories that name the deleted path at once (the check itself is staleChecker.ts).
import * as vscode from 'vscode';
import { memoriesNaming } from '../core/stale';
import type { Memory } from '../core/types';
import { formatError } from './errors';
import type { Services } from './services';

const DELETE_DEBOUNCE_MS = 300;

/** Re-checks memories naming files as they are deleted (explorer, refactorings, git, other tools). */
export function registerStaleGuard(services: Services): void {
  const checker = services.stale;
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = async (): Promise<void> => {
    timer = undefined;
    const paths = [...pending];
    pending.clear();
    if (!paths.length) return;
    let store;
    try { store = await services.store(); } catch (e) { services.logger.warn(`stale guard: store unavailable: ${formatError(e)}`); return; }
    const all = store.list();
    const affected = new Map<string, Memory>();
    for (const rel of paths) {
      checker.invalidate(rel);
      for (const m of memoriesNaming(all, rel)) affected.set(m.id, m);
    }
    services.logger.debug(`deleted ${paths.join(', ')}: re-checking ${affected.size} memor${affected.size === 1 ? 'y' : 'ies'} naming them`);
    for (const m of affected.values()) {
      const reason = await checker(m);
      services.logger.debug(`after deleting ${paths.join(', ')}: ${m.id} is ${reason ? `stale (${reason})` : 'still fresh'}`);
    }
  };

  const onDeleted = (uri: vscode.Uri): void => {
    const rel = services.workspaceRelative(uri);
    if (!rel || rel.startsWith('..')) return;
    pending.add(rel);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => { void flush(); }, DELETE_DEBOUNCE_MS);
  };

  const watcher = vscode.workspace.createFileSystemWatcher('**/*', true, true, false);
  services.context.subscriptions.push(
    watcher,
    watcher.onDidDelete(onDeleted),
    vscode.workspace.onDidDeleteFiles(e => e.files.forEach(onDeleted)),
    // A rename is a delete of the old path for every memory that names it.
    vscode.workspace.onDidRenameFiles(e => e.files.forEach(f => onDeleted(f.oldUri))),
    { dispose: () => { if (timer) clearTimeout(timer); } },
  );
}
