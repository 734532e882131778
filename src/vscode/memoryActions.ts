// What a user can do to a memory (feedback, forget, promote, demote, make a constraint, end an episode),
// decided once for every surface: the palette, the sidebar, the hover and chat only say which memory and
// show the result their own way. The labels they show are in labels.ts.
import * as vscode from 'vscode';
import { LADDER, planManualDemotion, planManualPromotion, workspaceConfidence } from '../core/trust';
import { memoryTitle, type FeedbackOutcome, type Lesson, type Memory } from '../core/types';
import type { CaptureApi } from './capture/captureApi';
import { episodeOutcomeChoices, maturityLabel } from './labels';
import type { Services } from './services';
import { loadStoreModule } from './storeLoader';

/** The confidence a surface shows: the one ranking used in this workspace (disputed memories differ). */
export function shownConfidence(services: Services, m: Memory): number {
  return workspaceConfidence(m, services.workspaceId);
}

/**
 * Records the user's verdict; the memory as it is now (its confidence may have changed its maturity).
 * The verdict is final for the recurrence it is about: capture adds no automatic outcome for it, and
 * one capture already added just before is taken back (core/capture/outcomeLedger.ts).
 */
export async function giveFeedback(services: Services, id: string, outcome: FeedbackOutcome): Promise<Memory | undefined> {
  const store = await services.store();
  if (!store.get(id)) throw new Error(vscode.l10n.t('No memory with id {0}.', id));
  const replaces = services.outcomes.userVerdict(id, outcome, Date.now());
  await store.feedback(id, outcome, { reason: outcome === 'prevented' ? 'marked helpful by the user' : 'marked not helpful by the user', ...(replaces ? { replaces } : {}) });
  services.fireChanged();
  return store.get(id);
}

/**
 * Forgets a memory. `undoable`: the deletion waits FORGET_DELAY_MS for Undo and keeps the id if undone
 * (pendingForgets.ts says why this beats re-recording); the deadline is returned. Otherwise (an explicit
 * id from chat or a test, `{ confirm: false }`) it is written at once.
 */
export async function forgetMemory(services: Services, id: string, opts: { undoable: boolean; reason: string }): Promise<{ memory: Memory; deadline?: number }> {
  const store = await services.store();
  const m = store.get(id);
  if (!m) throw new Error(vscode.l10n.t('No memory with id {0}.', id));
  if (opts.undoable) {
    const deadline = services.pendingForgets.schedule(id, memoryTitle(m) || `(${m.kind})`, opts.reason);
    return { memory: m, deadline };
  }
  await store.forget(id, opts.reason);
  services.fireChanged();
  return { memory: m };
}

/** Keeps a memory whose forget is still waiting; false when it is too late. */
export function undoForget(services: Services, id: string): boolean {
  return services.pendingForgets.undo(id);
}

interface MemoryItem extends vscode.QuickPickItem { id: string }

function idOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { id?: unknown }).id === 'string') return (arg as { id: string }).id;
  return undefined;
}

/** The memory named by `arg`, or the one the user picks among those `filter` allows. */
export async function resolveMemory(services: Services, arg: unknown, filter: (m: Memory) => boolean, placeHolder: string, empty: string): Promise<Memory | undefined> {
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

/** One step up the ladder; the step to constraint is the Make Constraint flow, which asks for the check. */
export async function promote(services: Services, arg: unknown): Promise<void> {
  const m = await resolveMemory(services, arg, x => x.kind !== 'episode' && x.maturity !== 'constraint' && !x.quarantined,
    vscode.l10n.t('Promote which memory?'), vscode.l10n.t('No memory can be promoted.'));
  if (!m) return;
  if (LADDER[LADDER.indexOf(m.maturity) + 1] === 'constraint') return makeConstraint(services, m.id);
  const plan = planManualPromotion(m);
  if (!plan.ok) { void vscode.window.showWarningMessage(vscode.l10n.t('Cannot promote: {0}', plan.error)); return; }
  await (await services.store()).promote(m.id, plan.transition.to, vscode.l10n.t('promoted by the user'));
  services.fireChanged();
  void vscode.window.showInformationMessage(vscode.l10n.t('Promoted to {0}: {1}', maturityLabel(plan.transition.to), memoryTitle(m)));
}

export async function demote(services: Services, arg: unknown): Promise<void> {
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
export async function makeConstraint(services: Services, arg: unknown, checkArg?: unknown): Promise<void> {
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

/** Ends an open episode (the one given, or one the user picks): how it ended, then an optional note. */
export async function endEpisode(capture: CaptureApi, id?: string): Promise<boolean> {
  const open = capture.openEpisodes();
  if (!open.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Engram has no open episode.'));
    return false;
  }
  let target = id ? open.find(e => e.id === id) : undefined;
  if (!target) {
    const pick = await vscode.window.showQuickPick(open.map(e => ({
      label: e.title, description: e.file, detail: vscode.l10n.t('{0} step(s), started {1}', e.steps, new Date(e.startedAt).toLocaleTimeString()), id: e.id,
    })), { title: vscode.l10n.t('End which episode?') });
    if (!pick) return false;
    target = open.find(e => e.id === pick.id);
  }
  if (!target) return false;
  const chosen = await vscode.window.showQuickPick(episodeOutcomeChoices(), { title: vscode.l10n.t('How did it end?') });
  if (!chosen) return false;
  const note = await vscode.window.showInputBox({
    title: vscode.l10n.t('Note (optional)'),
    prompt: vscode.l10n.t('What did you learn? It is stored with the episode (secrets are masked).'),
  });
  if (note === undefined) return false;
  await capture.endEpisode(target.id, chosen.outcome, note);
  return true;
}
