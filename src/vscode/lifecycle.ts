// A memory's life after capture: the user moves it up or down the ladder, turns a rule into a checked
// constraint, shares it with the team, restores it from quarantine; cleanup lets old, unused memories go
// (on demand and in the background). Also starts the stale guard and the team-file sync.
import * as vscode from 'vscode';
import { LADDER, planManualDemotion, planManualPromotion } from '../core/trust';
import { memoryTitle, type Lesson, type Maturity, type Memory } from '../core/types';
import { formatError } from './errors';
import type { Services } from './services';
import { registerStaleGuard } from './staleGuard';
import { loadStoreModule } from './storeLoader';
import { registerTeamSync, shareWithTeam } from './team';

const CLEANUP_EVERY_MS = 6 * 60 * 60 * 1000;
const CLEANUP_STARTUP_DELAY_MS = 60 * 1000;
const PROPOSED_PATTERNS_KEY = 'engram.patterns.proposed';

function maturityLabel(m: Maturity): string {
  switch (m) {
    case 'observation': return vscode.l10n.t('observation');
    case 'pattern': return vscode.l10n.t('pattern');
    case 'rule': return vscode.l10n.t('rule');
    case 'constraint': return vscode.l10n.t('constraint');
  }
}

interface MemoryItem extends vscode.QuickPickItem { id: string }

function idOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { id?: unknown }).id === 'string') return (arg as { id: string }).id;
  return undefined;
}

/** The memory named by `arg`, or the one the user picks among those `filter` allows. */
async function resolveMemory(services: Services, arg: unknown, filter: (m: Memory) => boolean, placeHolder: string, empty: string): Promise<Memory | undefined> {
  const store = await services.store();
  const id = idOf(arg);
  if (id) {
    const m = store.get(id);
    if (!m) { void vscode.window.showWarningMessage(vscode.l10n.t('No memory with id {0}.', id)); return undefined; }
    return m;
  }
  const candidates = store.list({ includeQuarantined: true }).filter(filter);
  if (!candidates.length) { void vscode.window.showInformationMessage(empty); return undefined; }
  const items: MemoryItem[] = candidates.slice(0, 500).map(m => ({
    id: m.id,
    label: memoryTitle(m) || m.id,
    description: `${m.kind} · ${maturityLabel(m.maturity)}`,
    detail: m.quarantined ? vscode.l10n.t('Quarantined: {0}', m.quarantined.reason) : m.kind === 'lesson' ? m.fixApproach : undefined,
  }));
  const pick = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, matchOnDetail: true });
  return pick ? store.get(pick.id) : undefined;
}

async function guarded(services: Services, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    services.logger.error(e instanceof Error ? e : String(e));
    void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not {0}: {1}', what, formatError(e)));
  }
}

async function promote(services: Services, arg: unknown): Promise<void> {
  const m = await resolveMemory(services, arg, x => x.kind !== 'episode' && x.maturity !== 'constraint' && !x.quarantined,
    vscode.l10n.t('Promote which memory?'), vscode.l10n.t('No memory can be promoted.'));
  if (!m) return;
  // The step to constraint needs a check: that is its own command.
  if (LADDER[LADDER.indexOf(m.maturity) + 1] === 'constraint') return makeConstraint(services, m.id);
  const plan = planManualPromotion(m);
  if (!plan.ok) { void vscode.window.showWarningMessage(vscode.l10n.t('Cannot promote: {0}', plan.error)); return; }
  await (await services.store()).promote(m.id, plan.transition.to, vscode.l10n.t('promoted by the user'));
  services.fireChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Promoted to {0}: {1}', maturityLabel(plan.transition.to), memoryTitle(m)));
}

async function demote(services: Services, arg: unknown): Promise<void> {
  const m = await resolveMemory(services, arg, x => x.maturity !== 'observation',
    vscode.l10n.t('Demote which memory?'), vscode.l10n.t('No memory can be demoted.'));
  if (!m) return;
  const plan = planManualDemotion(m);
  if (!plan.ok) { void vscode.window.showWarningMessage(vscode.l10n.t('Cannot demote: {0}', plan.error)); return; }
  await (await services.store()).demote(m.id, vscode.l10n.t('demoted by the user'));
  services.fireChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Demoted to {0}: {1}', maturityLabel(plan.transition.to), memoryTitle(m)));
}

interface CheckArgs { glob?: unknown; pattern?: unknown; flags?: unknown }

/** Rule → constraint, by the user, with a check: a file glob and a regular expression over the file text. */
async function makeConstraint(services: Services, arg: unknown, checkArg?: unknown): Promise<void> {
  const m = await resolveMemory(services, arg, x => x.kind === 'lesson' && x.maturity === 'rule' && !x.quarantined,
    vscode.l10n.t('Make which rule a constraint?'), vscode.l10n.t('Only rules can become constraints, and there are none yet.'));
  if (!m) return;
  if (m.kind !== 'lesson' || m.maturity !== 'rule') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Only a rule (a lesson confirmed by outcomes) can become a constraint; this one is a {0}.', maturityLabel(m.maturity)));
    return;
  }
  let check: Lesson['check'];
  const given = checkArg && typeof checkArg === 'object' ? checkArg as CheckArgs : undefined;
  if (given) {
    const problem = loadStoreModule().validateCheck(given);
    if (problem) { void vscode.window.showErrorMessage(vscode.l10n.t('Invalid constraint check: {0}', problem)); return; }
    check = { glob: String(given.glob), pattern: String(given.pattern), ...(given.flags ? { flags: String(given.flags) } : {}) };
  } else {
    const glob = await vscode.window.showInputBox({
      title: vscode.l10n.t('Constraint: where to check'),
      prompt: vscode.l10n.t('Workspace-relative glob of the files this constraint checks'),
      value: m.check?.glob ?? m.scope[0] ?? '**/*',
      validateInput: v => v.trim() ? undefined : vscode.l10n.t('Enter a glob, e.g. src/**/*.ts'),
    });
    if (glob === undefined) return;
    const pattern = await vscode.window.showInputBox({
      title: vscode.l10n.t('Constraint: what to flag'),
      prompt: vscode.l10n.t('Regular expression over the file text; each match gets a warning'),
      value: m.check?.pattern ?? '',
      validateInput: v => { const p = loadStoreModule().validateCheck({ glob, pattern: v }); return p ? vscode.l10n.t('Invalid: {0}', p) : undefined; },
    });
    if (pattern === undefined) return;
    check = { glob: glob.trim(), pattern };
  }
  const store = await services.store();
  await store.update(m.id, { check }, vscode.l10n.t('constraint check set by the user'));
  await store.promote(m.id, 'constraint', vscode.l10n.t('made a constraint by the user (check {0})', check.glob));
  services.fireChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Now a constraint: files matching {0} are checked for /{1}/.', check.glob, check.pattern));
}

async function share(services: Services, arg: unknown): Promise<void> {
  const m = await resolveMemory(services, arg, x => x.kind !== 'episode' && x.owner.scope !== 'team' && !x.quarantined,
    vscode.l10n.t('Share which memory with the team?'), vscode.l10n.t('No memory to share.'));
  if (!m) return;
  if (m.flagged?.length) {
    const go = vscode.l10n.t('Share anyway');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('This memory looks like instructions to an agent ({0}). Share it anyway?', m.flagged.join('; ')), { modal: true }, go);
    if (answer !== go) return;
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

export function registerLifecycle(services: Services): void {
  const subs = services.context.subscriptions;
  const reg = (id: string, what: string, fn: (...args: unknown[]) => Promise<void>) =>
    subs.push(vscode.commands.registerCommand(id, (...args: unknown[]) => guarded(services, what, () => fn(...args))));

  reg('engram.promote', vscode.l10n.t('promote the memory'), a => promote(services, a));
  reg('engram.demote', vscode.l10n.t('demote the memory'), a => demote(services, a));
  reg('engram.makeConstraint', vscode.l10n.t('make a constraint'), (a, c) => makeConstraint(services, a, c));
  reg('engram.shareWithTeam', vscode.l10n.t('share the memory'), a => share(services, a));
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
