// The "Memories" sidebar view: Relevant now, Open episodes, Needs review, Recent and search. The host
// side owns every store call and every native UI (input boxes, clipboard, editors); the webview only
// renders rows and sends named actions back through the validated protocol.
import * as vscode from 'vscode';
import type { FeedbackOutcome, Memory, RecallResult } from '../../core/types';
import type { MemoryPatch } from '../../core/memoryPatch';
import { globProblem } from '../../core/scopeCheck';
import { formatError } from '../errors';
import type { CaptureApi } from '../capture/captureApi';
import { demote, endEpisode, forgetMemory, giveFeedback, promote, undoForget } from '../memoryActions';
import { reasonLabels, uiText } from '../uiText';
import type { Services } from '../services';
import type { MemoryView, RevealSection } from '../../views/memoriesProtocol';
import type { WebviewMessage } from '../../views/protocol';
import { currentRelevantQuery, watchRelevantContext } from './relevantQuery';
import { debounce, ViewHost } from './viewHost';
import { fromRecall, filesOf, toDetails, toMarkdown, toMemoryView } from '../../views/memoriesModel';

export { FORGET_DELAY_MS } from '../pendingForgets';
const RECENT_LIMIT = 20;
const SEARCH_LIMIT = 20;

export class MemoriesView extends ViewHost {
  static readonly viewType = 'engram.memories';
  private query = '';
  private searchSeq = 0;
  private relevantSeq = 0;
  /** A reveal requested before the webview was ready; delivered on `ready`. */
  private pendingReveal?: { id?: string; section?: RevealSection; query?: string };
  /** The memory shown in the "Opened" section, refreshed with the lists. */
  private openedId?: string;
  private readonly refreshSoon = debounce(() => void this.refreshChanged(), 200);

  constructor(private readonly services: Services, private readonly capture: CaptureApi | undefined) {
    super(services.context.extensionUri, services.logger, 'memories', vscode.l10n.t('Engram memories'));
    this.disposables.push(
      services.onDidChangeMemories(() => {
        if (this.isReady) this.refreshSoon();
      }),
      watchRelevantContext(() => { if (this.isReady) void this.refreshRelevant(); }),
    );
    if (capture) this.disposables.push(capture.onDidChange(() => { if (this.isReady) this.refreshEpisodes(); }));
    // Forgets from any surface wait in one list: show their Undo here and hide the memory meanwhile.
    this.disposables.push(services.pendingForgets.onDidChange(e => {
      if (e.type === 'pending') this.post({ type: 'pendingForget', id: e.id, title: e.title, deadline: e.deadline });
      else {
        this.post({ type: 'forgetSettled', id: e.id, undone: e.undone });
        if (e.error) this.post({ type: 'notice', level: 'error', text: vscode.l10n.t('Could not forget the memory: {0}', formatError(e.error)) });
      }
      if (this.isReady) this.refreshSoon();
    }));
  }

  private isPending(id: string): boolean {
    return this.services.pendingForgets.isPending(id);
  }

  private row(m: Memory, why?: string[]) {
    return toMemoryView(m, why, this.services.workspaceId);
  }

  protected async handle(msg: WebviewMessage): Promise<void> {
    try {
      await this.dispatch(msg);
    } catch (e) {
      this.logger.error(e instanceof Error ? e : String(e));
      this.post({ type: 'notice', level: 'error', text: formatError(e) });
    }
  }

  private async dispatch(msg: WebviewMessage): Promise<void> {
    await this.act(msg);
    // Actions add history: an expanded row shows it at once.
    if (msg.type === 'feedback' || msg.type === 'pin' || msg.type === 'promote' || msg.type === 'demote' || msg.type === 'restore') {
      await this.details(msg.id);
    }
  }

  private async act(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready': return this.onReady();
      case 'search': return this.search(msg.query);
      case 'details': return this.details(msg.id);
      case 'feedback': return this.feedback(msg.id, msg.outcome);
      case 'edit': return this.edit(msg.id);
      case 'pin': {
        const store = await this.services.store();
        await store.update(msg.id, { pinned: msg.pinned ? true : null }, msg.pinned ? 'pinned in the sidebar' : 'unpinned in the sidebar');
        return;
      }
      // The palette's flows: a rule's next step is Make Constraint, which asks for the check.
      case 'promote': return promote(this.services, msg.id);
      case 'demote': return demote(this.services, msg.id);
      case 'forget': return this.forget(msg.id);
      case 'undoForget': undoForget(this.services, msg.id); return;
      case 'restore': {
        const store = await this.services.store();
        await store.restore(msg.id);
        return;
      }
      case 'openSource': return this.openSource(msg.id);
      case 'copyMarkdown': {
        const store = await this.services.store();
        const m = store.get(msg.id);
        if (!m) return this.gone(msg.id);
        await vscode.env.clipboard.writeText(toMarkdown(m, store));
        this.post({ type: 'notice', level: 'info', text: vscode.l10n.t('Copied as Markdown.') });
        return;
      }
      case 'endEpisode': return this.endEpisode(msg.id);
      case 'closeOpened': this.openedId = undefined; return;
      case 'run': return this.run(msg.action);
    }
  }

  private async onReady(): Promise<void> {
    this.post({ type: 'init', view: 'memories', now: Date.now(), captureAvailable: !!this.capture });
    for (const p of this.services.pendingForgets.list()) this.post({ type: 'pendingForget', id: p.id, title: p.title, deadline: p.deadline });
    const reveal = this.pendingReveal;
    this.pendingReveal = undefined;
    this.refreshEpisodes();
    await Promise.all([this.refreshStored(), this.refreshRelevant(), this.query ? this.search(this.query) : Promise.resolve(), this.refreshOpened()]);
    if (reveal) await this.showRevealed(reveal.id, reveal.section, reveal.query);
  }

  /** After a memory changed: every list that may show it, so confidence and maturity stay current. */
  private async refreshChanged(): Promise<void> {
    await Promise.all([this.refreshStored(), this.refreshRelevant(), this.query ? this.search(this.query, true) : Promise.resolve(), this.refreshOpened()]);
  }

  private async refreshOpened(): Promise<void> {
    if (!this.openedId) return;
    const store = await this.services.store();
    const m = store.get(this.openedId);
    const items = m && !this.isPending(m.id) ? [this.row(m, [vscode.l10n.t('opened from elsewhere')])] : [];
    this.post({ type: 'section', section: 'opened', state: { status: 'ready', items } });
  }

  /** Recent + Needs review: straight from the store, no recall. */
  private async refreshStored(): Promise<void> {
    let store;
    try {
      store = await this.services.store();
    } catch (e) {
      const message = vscode.l10n.t('Engram could not open its memory store: {0}', formatError(e));
      this.post({ type: 'section', section: 'recent', state: { status: 'error', message } });
      return;
    }
    const all = store.list({ includeQuarantined: true });
    const recent = all.filter(m => !m.quarantined && !this.isPending(m.id))
      .sort((a, b) => Number(b.pinned === true) - Number(a.pinned === true) || b.updatedAt - a.updatedAt)
      .slice(0, RECENT_LIMIT);
    const review = all.filter(m => m.quarantined).sort((a, b) => (b.quarantined?.at ?? 0) - (a.quarantined?.at ?? 0));
    this.post({ type: 'section', section: 'review', state: { status: 'ready', items: review.map(m => this.row(m, [])) } });
    this.post({ type: 'section', section: 'recent', state: { status: 'ready', items: recent.map(m => this.row(m)) } });
  }

  private async refreshRelevant(): Promise<void> {
    const seq = ++this.relevantSeq;
    const q = currentRelevantQuery(uri => this.services.workspaceRelative(uri));
    if (!q) {
      this.post({ type: 'section', section: 'relevant', state: { status: 'ready', items: [] }, context: { errors: 0 } });
      return;
    }
    const context = { file: q.file, errors: q.errors };
    this.post({ type: 'section', section: 'relevant', state: { status: 'loading' }, context });
    try {
      // Shown unasked: only what passes the proactive gate, like the hover.
      const results = q.text ? await this.services.recall({ text: q.text, file: q.file, proactive: true }) : [];
      if (seq !== this.relevantSeq) return; // the user moved on; a newer recall is on its way
      this.post({ type: 'section', section: 'relevant', state: { status: 'ready', items: this.visible(results) }, context });
    } catch (e) {
      if (seq !== this.relevantSeq) return;
      this.post({ type: 'section', section: 'relevant', state: { status: 'error', message: formatError(e) }, context });
    }
  }

  private refreshEpisodes(): void {
    const capture = this.capture;
    if (!capture) {
      this.post({ type: 'episodes', state: { status: 'ready', items: [], note: vscode.l10n.t('Capture is not running in this window.') } });
      return;
    }
    try {
      const items = capture.openEpisodes().map(e => ({ ...e }));
      this.post({ type: 'episodes', state: { status: 'ready', items, note: capture.paused ? vscode.l10n.t('Capture is paused.') : undefined } });
    } catch (e) {
      this.post({ type: 'episodes', state: { status: 'error', message: formatError(e) } });
    }
  }

  /** `quiet`: a refresh of the same query after a change, without flashing the loading state. */
  private async search(raw: string, quiet = false): Promise<void> {
    const query = raw.trim();
    this.query = query;
    const seq = ++this.searchSeq;
    if (!query) {
      this.post({ type: 'section', section: 'search', state: { status: 'ready', items: [] }, query: '' });
      return;
    }
    if (!quiet) this.post({ type: 'section', section: 'search', state: { status: 'loading' }, query });
    try {
      const results = await this.services.recall({ text: query, k: SEARCH_LIMIT });
      if (seq !== this.searchSeq) return;
      this.post({ type: 'section', section: 'search', state: { status: 'ready', items: this.visible(results) }, query });
    } catch (e) {
      if (seq !== this.searchSeq) return;
      this.post({ type: 'section', section: 'search', state: { status: 'error', message: formatError(e) }, query });
    }
  }

  private visible(results: RecallResult[]): MemoryView[] {
    return fromRecall(results.filter(r => !this.isPending(r.memory.id)), reasonLabels, this.services.workspaceId);
  }

  private async details(id: string): Promise<void> {
    const store = await this.services.store();
    const m = store.get(id);
    if (!m) {
      this.post({ type: 'details', id, error: vscode.l10n.t('This memory no longer exists.') });
      return;
    }
    this.post({ type: 'details', id, details: toDetails(m, store, uiText) });
  }

  private async feedback(id: string, outcome: FeedbackOutcome): Promise<void> {
    await giveFeedback(this.services, id, outcome);
    this.post({
      type: 'notice', level: 'info',
      text: outcome === 'prevented' ? vscode.l10n.t('Thanks: this memory gains confidence.') : vscode.l10n.t('Noted: this memory loses confidence.'),
    });
    this.refreshSoon();
  }

  private async edit(id: string): Promise<void> {
    const store = await this.services.store();
    const m = store.get(id);
    if (!m) return this.gone(id);
    const patch: MemoryPatch = {};
    const ask = async (field: 'rootCause' | 'fixApproach' | 'content' | 'instruction' | 'summary' | 'resolution', prompt: string, value: string): Promise<boolean> => {
      const next = await vscode.window.showInputBox({ title: vscode.l10n.t('Edit memory'), prompt, value, ignoreFocusOut: true });
      if (next === undefined) return false; // Escape cancels the whole edit
      if (next.trim() !== value.trim()) patch[field] = next.trim();
      return true;
    };
    let ok = true;
    switch (m.kind) {
      case 'lesson':
        ok = await ask('rootCause', vscode.l10n.t('Root cause (why it really failed)'), m.rootCause)
          && await ask('fixApproach', vscode.l10n.t('Fix (what made it work)'), m.fixApproach);
        break;
      case 'fact': ok = await ask('content', vscode.l10n.t('Fact'), m.content); break;
      case 'rule': ok = await ask('instruction', vscode.l10n.t('Instruction'), m.instruction); break;
      case 'episode':
        ok = await ask('summary', vscode.l10n.t('Summary'), m.summary)
          && await ask('resolution', vscode.l10n.t('Resolution'), m.resolution ?? '');
        break;
    }
    if (!ok || !Object.keys(patch).length) return;
    await store.update(id, patch, 'edited in the sidebar');
    await this.details(id);
  }

  /** Forget with Undo, the same as from the palette (memoryActions.forgetMemory). */
  private async forget(id: string): Promise<void> {
    if (this.isPending(id)) return;
    const store = await this.services.store();
    if (!store.get(id)) return this.gone(id);
    await forgetMemory(this.services, id, { undoable: true, reason: 'forgotten by the user' });
  }

  private async openSource(id: string): Promise<void> {
    const store = await this.services.store();
    const m = store.get(id);
    if (!m) return this.gone(id);
    const folder = vscode.workspace.workspaceFolders?.[0];
    let uris: vscode.Uri[] = folder ? filesOf(m, store).map(f => vscode.Uri.joinPath(folder.uri, f)) : [];
    if (!uris.length && m.scope.length && folder) {
      // No recorded file: look for files the memory's scope covers.
      const globs = m.scope.filter(g => !globProblem(g)).slice(0, 5); // stored before scopes were checked
      const found = await Promise.all(globs.map(g => vscode.workspace.findFiles(new vscode.RelativePattern(folder, g), '**/node_modules/**', 10)));
      uris = found.flat();
    }
    if (!uris.length) {
      this.post({ type: 'notice', level: 'info', text: vscode.l10n.t('This memory has no source file in this workspace.') });
      return;
    }
    let target = uris[0];
    if (uris.length > 1) {
      const pick = await vscode.window.showQuickPick(uris.map(u => ({ label: vscode.workspace.asRelativePath(u), uri: u })), {
        title: vscode.l10n.t('Open source file'),
      });
      if (!pick) return;
      target = pick.uri;
    }
    try {
      await vscode.window.showTextDocument(target, { preview: true });
    } catch (e) {
      this.post({ type: 'notice', level: 'error', text: vscode.l10n.t('Could not open {0}: {1}', vscode.workspace.asRelativePath(target), formatError(e)) });
    }
  }

  private async endEpisode(id: string): Promise<void> {
    const capture = this.capture;
    if (!capture) return;
    if (await endEpisode(capture, id)) this.refreshEpisodes();
  }

  private async run(action: 'recordLesson' | 'showLog' | 'refresh' | 'showInsights' | 'showPanel'): Promise<void> {
    switch (action) {
      case 'recordLesson': await vscode.commands.executeCommand('engram.recordLesson'); return;
      case 'showLog': this.services.logChannel.show(); return;
      case 'showInsights': await vscode.commands.executeCommand('engram.showInsights'); return;
      case 'showPanel': await vscode.commands.executeCommand('engram.showPanel'); return;
      case 'refresh': await this.onReady(); return;
    }
  }

  private gone(id: string): void {
    this.post({ type: 'notice', level: 'error', text: vscode.l10n.t('This memory no longer exists.') });
    this.post({ type: 'details', id, error: vscode.l10n.t('This memory no longer exists.') });
    this.refreshSoon();
  }

  /** Shows the view and then a memory, a section or a search. Used by hover, status bar and commands. */
  async reveal(id?: string, section?: RevealSection, query?: string): Promise<void> {
    if (!this.isReady || !this.isVisible) {
      // Showing the view (re)loads the webview, which says `ready`; the reveal follows its fresh state.
      this.pendingReveal = { id, section, query };
      const reloaded = this.nextReady();
      await vscode.commands.executeCommand(`${MemoriesView.viewType}.focus`);
      const timeout = new Promise<'timeout'>(r => setTimeout(() => r('timeout'), 3000));
      // A webview kept alive while hidden does not reload: deliver the reveal ourselves.
      if ((await Promise.race([reloaded, timeout])) === 'timeout' && this.pendingReveal && this.isReady) {
        this.pendingReveal = undefined;
        await this.showRevealed(id, section, query);
      }
      return;
    }
    await this.showRevealed(id, section, query);
  }

  private async showRevealed(id?: string, section?: RevealSection, query?: string): Promise<void> {
    if (query !== undefined) {
      this.post({ type: 'reveal', section: 'search', query });
      await this.search(query);
    }
    if (id) {
      const store = await this.services.store();
      const m = store.get(id);
      if (!m) return this.gone(id);
      this.openedId = id;
      await this.refreshOpened();
      this.post({ type: 'reveal', id });
      await this.details(id);
    } else if (section && query === undefined) {
      this.post({ type: 'reveal', section });
    }
  }

  override dispose(): void {
    this.refreshSoon.cancel();
    super.dispose();
  }
}

