// A memory's life after capture: the user moves it up or down the ladder, turns a rule into a checked
// constraint, shares it with the team, restores it from quarantine; cleanup lets old, unused memories go
// (on demand and in the background). Also starts the stale guard and the team-file sync.
import * as vscode from 'vscode';
import { memoryTitle } from '../core/types';
import { formatError } from './errors';
import { demote, makeConstraint, promote, resolveMemory } from './memoryActions';
import type { Services } from './services';
import { registerStaleGuard } from './staleGuard';
import { loadStoreModule } from './storeLoader';
import { registerTeamSync, shareWithTeam } from './team';
import { shareThroughServer, type TeamServerSync } from './teamServer';

const CLEANUP_EVERY_MS = 6 * 60 * 60 * 1000;
const CLEANUP_STARTUP_DELAY_MS = 60 * 1000;
const PROPOSED_PATTERNS_KEY = 'engram.patterns.proposed';

async function guarded(services: Services, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    services.logger.error(e instanceof Error ? e : String(e));
    void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not {0}: {1}', what, formatError(e)));
  }
}

async function share(services: Services, arg: unknown, team: TeamServerSync | undefined): Promise<void> {
  const m = await resolveMemory(services, arg, x => x.kind !== 'episode' && x.owner.scope !== 'team' && !x.quarantined,
    vscode.l10n.t('Share which memory with the team?'), vscode.l10n.t('No memory to share.'));
  if (!m) return;
  if (m.flagged?.length) {
    const go = vscode.l10n.t('Share anyway');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('This memory looks like instructions to an agent ({0}). Share it anyway?', m.flagged.join('; ')), { modal: true }, go);
    if (answer !== go) return;
  }
  if (services.config().team.server && team) {
    // With a team server, the memory goes there (reviewed there when the author is a member) instead of the file.
    const r = await shareThroughServer(team, m);
    void vscode.window.showInformationMessage(r.status === 'proposed'
      ? vscode.l10n.t('Sent a masked copy to the team server at {0}; the team sees it once a reviewer approves it.', r.url)
      : vscode.l10n.t('Shared a masked copy with the team through {0}.', r.url));
    return;
  }
  const uri = await shareWithTeam(services, m);
  // Opened for review: the line goes to the team through a normal commit / pull request.
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  void vscode.window.showInformationMessage(vscode.l10n.t('Added a masked copy to {0}. Review it and commit it to share.', vscode.workspace.asRelativePath(uri)));
}

async function restore(services: Services, arg: unknown): Promise<void> {
  const m = await resolveMemory(services, arg, x => !!x.quarantined,
    vscode.l10n.t('Restore which quarantined memory?'), vscode.l10n.t('No memory is quarantined.'));
  if (!m) return;
  if (!m.quarantined) { void vscode.window.showInformationMessage(vscode.l10n.t('That memory is not quarantined.')); return; }
  const store = await services.store();
  await store.restore(m.id);
  // The user has looked at it: this revision is not quarantined again for the same reason.
  const cur = store.get(m.id);
  if (cur) services.stale.exempt(cur);
  services.fireChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Restored: {0}', memoryTitle(m)));
}

async function runCleanup(services: Services, interactive: boolean): Promise<number> {
  const cfg = services.config();
  const store = await services.store();
  const ids = await store.cleanup({
    ttlDays: cfg.retention.ttlDays,
    minAgeDays: cfg.cleanup.minAgeDays,
    minAccesses: cfg.cleanup.minAccesses,
    minImportance: cfg.cleanup.minImportance,
  });
  if (ids.length) services.fireChanged();
  services.logger.info(`cleanup${interactive ? '' : ' (background)'}: ${ids.length} memor${ids.length === 1 ? 'y' : 'ies'} expired`);
  return ids.length;
}

/**
 * Episodes that keep ending the same way become pattern lessons (store/patternPass.ts, which the CLI runs
 * too). A pattern once proposed here is remembered, so one the user forgot stays gone.
 */
export async function runPatternPass(services: Services): Promise<number> {
  const store = await services.store();
  const proposed = new Set(services.context.workspaceState.get<string[]>(PROPOSED_PATTERNS_KEY) ?? []);
  const r = await loadStoreModule().runPatternPass(store, { owner: { scope: 'workspace', workspace: services.workspaceId }, proposed });
  const added = r.proposed.length;
  if (added) {
    for (const id of r.proposed) proposed.add(id);
    await services.context.workspaceState.update(PROPOSED_PATTERNS_KEY, [...proposed].slice(-2000));
    services.fireChanged();
  }
  services.logger.info(`pattern pass: ${added} new pattern${added === 1 ? '' : 's'} from ${r.episodes} episodes`);
  return added;
}

export function registerLifecycle(services: Services, team?: TeamServerSync): void {
  const subs = services.context.subscriptions;
  const reg = (id: string, what: string, fn: (...args: unknown[]) => Promise<void>) =>
    subs.push(vscode.commands.registerCommand(id, (...args: unknown[]) => guarded(services, what, () => fn(...args))));

  reg('engram.promote', vscode.l10n.t('promote the memory'), a => promote(services, a));
  reg('engram.demote', vscode.l10n.t('demote the memory'), a => demote(services, a));
  reg('engram.makeConstraint', vscode.l10n.t('make a constraint'), (a, c) => makeConstraint(services, a, c));
  reg('engram.shareWithTeam', vscode.l10n.t('share the memory'), a => share(services, a, team));
  reg('engram.restoreMemory', vscode.l10n.t('restore the memory'), a => restore(services, a));
  reg('engram.cleanup', vscode.l10n.t('clean up'), async () => {
    const n = await runCleanup(services, true);
    void vscode.window.showInformationMessage(n
      ? vscode.l10n.t('Engram cleaned up {0} expired or unused memories.', n)
      : vscode.l10n.t('Engram found nothing to clean up.'));
  });

  // Background cleanup and pattern pass: once the window has settled, then every 6 hours; never two at once.
  let running = false;
  const background = (): void => {
    if (running) return;
    running = true;
    runCleanup(services, false)
      .catch(e => services.logger.warn(`background cleanup failed: ${formatError(e)}`))
      .then(() => runPatternPass(services))
      .catch(e => services.logger.warn(`pattern pass failed: ${formatError(e)}`))
      .finally(() => { running = false; });
  };
  const first = setTimeout(background, CLEANUP_STARTUP_DELAY_MS);
  const every = setInterval(background, CLEANUP_EVERY_MS);
  subs.push({ dispose: () => { clearTimeout(first); clearInterval(every); } });

  registerStaleGuard(services);
  registerTeamSync(services);
}
