// The memories view: search box, then Opened / Search results / Relevant now / Open episodes /
// Needs review / Recent. State arrives as validated host messages; rendering is plain DOM.
import type { MemoryDetails, MemoryView, OpenEpisodeItem, RelevantContext, SectionId, SectionState } from '../../src/views/memoriesProtocol';
import type { HostMessage } from '../../src/views/protocol';
import { h, icon, iconButton, textButton } from './dom';
import { plural } from './format';
import { t } from './l10n';
import { renderDetails, renderEpisodeRow, renderMemoryRow } from './memoryRow';
import { RovingList } from './rovingList';
import { loadState, saveState, send } from './vscodeApi';

type ListSection = SectionId | 'episodes';
interface SectionUi { root: HTMLElement; list: HTMLElement; count: HTMLElement; sub: HTMLElement; body: HTMLElement }

const TITLES: Record<ListSection, string> = {
  opened: t('Opened'), search: t('Search results'), relevant: t('Relevant now'), episodes: t('Open episodes'), review: t('Needs review'), recent: t('Recent'),
};
const ORDER: ListSection[] = ['opened', 'search', 'relevant', 'episodes', 'review', 'recent'];
const SEARCH_DEBOUNCE_MS = 350;

export class MemoriesApp {
  private now = Date.now();
  private captureAvailable = true;
  private readonly sections = new Map<ListSection, SectionUi>();
  private readonly memoryState = new Map<SectionId, SectionState<MemoryView>>();
  private episodesState: SectionState<OpenEpisodeItem> = { status: 'loading' };
  private relevantContext?: RelevantContext;
  private searchQuery = '';
  private readonly expanded = new Set<string>();
  private readonly collapsed = new Set<string>();
  private readonly details = new Map<string, { details?: MemoryDetails; error?: string }>();
  /** Details asked for since this webview loaded (expanded rows restored from saved state need one too). */
  private readonly requested = new Set<string>();
  private readonly pendingForget = new Map<string, { title: string; deadline: number; bar: HTMLElement }>();
  private readonly roving: RovingList;
  private readonly input: HTMLInputElement;
  private readonly live: HTMLElement;
  private readonly toasts: HTMLElement;
  private searchTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly root: HTMLElement) {
    const saved = loadState();
    saved.expanded?.forEach(id => this.expanded.add(id));
    saved.collapsed?.forEach(id => this.collapsed.add(id));
    this.searchQuery = saved.query ?? '';

    this.input = h('input', {
      class: 'search-input',
      attrs: { type: 'search', placeholder: t('Search errors or questions'), title: t('Paste raw error text or ask a question, in English or Korean (한국어). Enter searches now.'), 'aria-label': t('Search memories: raw error text or a question, in English or Korean'), spellcheck: 'false', value: this.searchQuery },
      on: {
        input: () => this.scheduleSearch(),
        keydown: ev => {
          if (ev.key === 'Enter') { ev.preventDefault(); this.runSearch(); }
          if (ev.key === 'Escape' && this.input.value) { ev.preventDefault(); this.input.value = ''; this.runSearch(); }
          if (ev.key === 'ArrowDown') { const first = this.roving.rows()[0]; if (first) { ev.preventDefault(); this.roving.focus(first); } }
        },
      },
    });
    this.input.value = this.searchQuery;
    this.live = h('div', { class: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
    this.toasts = h('div', { class: 'toasts', attrs: { role: 'status', 'aria-live': 'polite' } });
    const header = h('header', { class: 'search' },
      h('div', { class: 'search-box' }, icon('search'), this.input));
    const main = h('main', { class: 'sections' });
    for (const id of ORDER) {
      const ui = this.makeSection(id);
      this.sections.set(id, ui);
      main.append(ui.root);
    }
    root.replaceChildren(header, this.live, main, this.toasts);
    root.removeAttribute('aria-busy');
    this.roving = new RovingList(main, {
      toggle: row => this.toggleRow(row),
      expand: (row, open) => { if (row.dataset.id && this.isExpanded(row) !== open) this.toggleRow(row); },
    });
    this.renderAll();
  }

  private makeSection(id: ListSection): SectionUi {
    const count = h('span', { class: 'count' });
    const sub = h('span', { class: 'section-sub' });
    const list = h('ul', { class: 'list', attrs: { role: 'list', 'aria-label': TITLES[id] } });
    const body = h('div', { class: 'section-body', attrs: { id: `section-body-${id}` } }, list);
    const open = !this.collapsed.has(id);
    const toggle = h('button', {
      class: 'section-toggle',
      attrs: { type: 'button', 'aria-expanded': open ? 'true' : 'false', 'aria-controls': `section-body-${id}` },
      on: { click: () => this.toggleSection(id) },
    }, h('span', { class: `codicon codicon-chevron-${open ? 'down' : 'right'}`, attrs: { 'aria-hidden': 'true' } }), h('h2', { text: TITLES[id] }), count);
    const headerExtras = id === 'opened' ? iconButton('close', t('Close'), () => { this.memoryState.delete('opened'); this.renderSection('opened'); send({ type: 'closeOpened' }); }) : null;
    const root = h('section', { class: `section section-${id}`, attrs: { 'aria-label': TITLES[id], 'data-section': id } },
      h('div', { class: 'section-header' }, toggle, sub, headerExtras), body);
    body.hidden = !open;
    return { root, list, count, sub, body };
  }

  private toggleSection(id: ListSection): void {
    const ui = this.sections.get(id)!;
    if (this.collapsed.has(id)) this.collapsed.delete(id); else this.collapsed.add(id);
    const open = !this.collapsed.has(id);
    ui.body.hidden = !open;
    const btn = ui.root.querySelector('.section-toggle')!;
    btn.setAttribute('aria-expanded', String(open));
    btn.querySelector('.codicon')!.className = `codicon codicon-chevron-${open ? 'down' : 'right'}`;
    this.persist();
    this.roving.update();
  }

  handle(msg: HostMessage): void {
    switch (msg.type) {
      case 'init':
        this.now = msg.now;
        this.captureAvailable = msg.captureAvailable;
        if (this.searchQuery) send({ type: 'search', query: this.searchQuery });
        return;
      case 'section':
        this.now = Date.now();
        this.memoryState.set(msg.section, msg.state);
        if (msg.section === 'relevant' && msg.context) this.relevantContext = msg.context;
        this.renderSection(msg.section);
        if (msg.section === 'search' && msg.state.status === 'ready' && this.searchQuery) {
          this.announce(msg.state.items.length ? plural(msg.state.items.length, t('{0} memory found'), t('{0} memories found')) : t('No memories found'));
        }
        return;
      case 'episodes':
        this.episodesState = msg.state;
        this.renderSection('episodes');
        return;
      case 'details':
        this.details.set(msg.id, { details: msg.details, error: msg.error });
        for (const row of this.root.querySelectorAll<HTMLElement>(`[data-row][data-id]`)) {
          if (row.dataset.id === msg.id && this.isExpanded(row)) this.fillDetails(row);
        }
        return;
      case 'pendingForget': return this.showPendingForget(msg.id, msg.title, msg.deadline);
      case 'forgetSettled': {
        const p = this.pendingForget.get(msg.id);
        p?.bar.remove();
        this.pendingForget.delete(msg.id);
        if (!msg.undone) this.toast('info', t('Forgot “{0}”.', p?.title ?? t('memory')));
        this.renderAll();
        return;
      }
      case 'reveal': return this.reveal(msg.id, msg.section, msg.query);
      case 'notice': return this.toast(msg.level, msg.text);
      case 'insights': return;
    }
  }

  // ------------------------------------------------------------------------------------- rendering

  private renderAll(): void {
    for (const id of ORDER) this.renderSection(id);
  }

  private renderSection(id: ListSection): void {
    const ui = this.sections.get(id)!;
    ui.list.replaceChildren();
    ui.body.querySelectorAll('.state').forEach(e => e.remove());
    ui.sub.textContent = '';
    ui.count.textContent = '';

    if (id === 'episodes') {
      this.renderEpisodes(ui);
    } else {
      const state = this.memoryState.get(id) ?? (id === 'opened' || id === 'search' ? undefined : { status: 'loading' as const });
      const hide = !state || (id === 'search' && !this.searchQuery) || (id === 'review' && state.status === 'ready' && !state.items.length)
        || (id === 'opened' && state.status === 'ready' && !state.items.length);
      ui.root.hidden = !!hide;
      if (state && !hide) this.renderMemories(id, ui, state);
    }
    this.roving.update();
  }

  private renderMemories(id: SectionId, ui: SectionUi, state: SectionState<MemoryView>): void {
    if (id === 'relevant') {
      const c = this.relevantContext;
      ui.sub.textContent = c?.file ? `${c.file}${c.errors ? ` · ${plural(c.errors, t('{0} error'), t('{0} errors'))}` : ''}` : '';
      ui.sub.title = ui.sub.textContent;
    }
    if (id === 'search') ui.sub.textContent = `“${this.searchQuery}”`;
    if (state.status === 'loading') { ui.body.append(stateBox('loading', t('Loading…'))); return; }
    if (state.status === 'error') {
      ui.body.append(stateBox('error', state.message,
        textButton(t('Retry'), () => (id === 'search' ? this.runSearch() : send({ type: 'run', action: 'refresh' })), 'refresh'),
        textButton(t('Show log'), () => send({ type: 'run', action: 'showLog' }), 'output')));
      return;
    }
    const items = state.items.filter(m => !this.pendingForget.has(m.id));
    ui.count.textContent = items.length ? String(items.length) : '';
    if (!items.length) { ui.body.append(this.emptyState(id)); return; }
    for (const m of items) {
      const row = renderMemoryRow(m, id, this.now, this.expanded.has(m.id));
      row.querySelector('.row-head')!.addEventListener('click', () => this.toggleRow(row));
      ui.list.append(row);
      if (this.expanded.has(m.id)) {
        this.fillDetails(row);
        if (!this.requested.has(m.id)) { this.requested.add(m.id); send({ type: 'details', id: m.id }); }
      }
    }
  }

  private renderEpisodes(ui: SectionUi): void {
    const state = this.episodesState;
    if (state.status === 'loading') { ui.body.append(stateBox('loading', t('Loading…'))); return; }
    if (state.status === 'error') { ui.body.append(stateBox('error', state.message, textButton(t('Show log'), () => send({ type: 'run', action: 'showLog' }), 'output'))); return; }
    ui.count.textContent = state.items.length ? String(state.items.length) : '';
    if (state.note) ui.sub.textContent = state.note;
    if (!state.items.length) {
      ui.body.append(stateBox('empty', t('No open episodes. One opens when an error appears and closes when it is fixed.')));
      return;
    }
    for (const e of state.items) ui.list.append(renderEpisodeRow(e, this.now, this.captureAvailable));
  }

  private emptyState(id: SectionId): HTMLElement {
    const record = textButton(t('Record Lesson…'), () => send({ type: 'run', action: 'recordLesson' }), 'add', true);
    switch (id) {
      case 'relevant':
        return this.relevantContext?.file || this.relevantContext?.errors
          ? stateBox('empty', this.relevantContext.file ? t('Nothing remembered for {0} yet.', this.relevantContext.file) : t('Nothing remembered for this file yet.'))
          : stateBox('empty', t('Open a file to see what Engram remembers about it and its errors.'));
      case 'search': return stateBox('empty', t('No memories match “{0}”. Try the error code or fewer words.', this.searchQuery));
      case 'recent': return stateBox('empty', t('No memories yet — Engram learns as you fix errors, or record one yourself.'), record);
      default: return stateBox('empty', t('Nothing here.'));
    }
  }

  // ------------------------------------------------------------------------------------ behaviour

  private isExpanded(row: HTMLElement): boolean { return row.getAttribute('aria-expanded') === 'true'; }

  private toggleRow(row: HTMLElement): void {
    const id = row.dataset.id;
    if (!id) return;
    const open = !this.isExpanded(row);
    if (open) this.expanded.add(id); else this.expanded.delete(id);
    row.setAttribute('aria-expanded', String(open));
    const chevron = row.querySelector('.chevron');
    if (chevron) chevron.className = `chevron codicon codicon-chevron-${open ? 'down' : 'right'}`;
    const det = row.querySelector<HTMLElement>('.row-details')!;
    det.hidden = !open;
    if (open) {
      this.fillDetails(row);
      // Always fetch fresh details (history changes with every action); the cached copy shows meanwhile.
      this.requested.add(id);
      send({ type: 'details', id });
    }
    this.persist();
  }

  private fillDetails(row: HTMLElement): void {
    const id = row.dataset.id!;
    const d = this.details.get(id);
    const kind = (row.dataset.kind ?? 'lesson') as MemoryView['kind'];
    renderDetails(row.querySelector<HTMLElement>('.row-details')!, kind, d?.details, d?.error);
  }

  private scheduleSearch(): void {
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.runSearch(), SEARCH_DEBOUNCE_MS);
  }

  private runSearch(): void {
    if (this.searchTimer) clearTimeout(this.searchTimer);
    const q = this.input.value.trim();
    if (q === this.searchQuery && this.memoryState.get('search')?.status === 'loading') return;
    this.searchQuery = q;
    if (!q) { this.memoryState.delete('search'); this.announce(t('Search cleared')); }
    send({ type: 'search', query: q });
    this.renderSection('search');
    this.persist();
  }

  private reveal(id?: string, section?: string, query?: string): void {
    if (query !== undefined) {
      this.input.value = query;
      this.searchQuery = query.trim();
      this.persist();
      this.renderSection('search');
      this.sections.get('search')!.root.scrollIntoView({ block: 'start' });
      if (!query) this.input.focus();
      return;
    }
    if (id) {
      const row = this.root.querySelector<HTMLElement>(`.section-opened [data-row]`)
        ?? [...this.root.querySelectorAll<HTMLElement>('[data-row][data-id]')].find(r => r.dataset.id === id);
      if (row) {
        if (!this.isExpanded(row)) this.toggleRow(row);
        this.roving.focus(row);
      }
      return;
    }
    if (section) {
      const target = this.sections.get(section as ListSection);
      if (target) {
        if (this.collapsed.has(section)) this.toggleSection(section as ListSection);
        target.root.scrollIntoView({ block: 'start' });
        const first = target.root.querySelector<HTMLElement>('[data-row]');
        if (first) this.roving.focus(first); else target.root.querySelector<HTMLElement>('.section-toggle')?.focus();
      }
    }
  }

  private showPendingForget(id: string, title: string, deadline: number): void {
    this.pendingForget.get(id)?.bar.remove();
    const undo = textButton(t('Undo'), () => send({ type: 'undoForget', id }), 'discard', true);
    const seconds = h('span', { class: 'muted' });
    const bar = h('div', { class: 'toast undo', attrs: { role: 'alert' } }, icon('trash'),
      h('span', { class: 'toast-text', text: t('Forgetting “{0}”', title) }), seconds, undo);
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      seconds.textContent = left ? ' ' + t('in {0} s', left) : '';
      if (left && bar.isConnected) setTimeout(tick, 500);
    };
    tick();
    this.pendingForget.set(id, { title, deadline, bar });
    this.toasts.append(bar);
    undo.focus();
    this.renderAll();
  }

  private toast(level: 'info' | 'error', text: string): void {
    const box = h('div', { class: `toast ${level}` }, icon(level === 'error' ? 'error' : 'info'), h('span', { class: 'toast-text', text }),
      iconButton('close', t('Dismiss'), () => box.remove()));
    this.toasts.append(box);
    if (level === 'info') setTimeout(() => box.remove(), 4000);
  }

  private announce(text: string): void {
    this.live.textContent = text;
  }

  private persist(): void {
    saveState({ query: this.searchQuery, expanded: [...this.expanded].slice(-50), collapsed: [...this.collapsed] });
  }
}

function stateBox(kind: 'loading' | 'empty' | 'error', text: string, ...actions: HTMLElement[]): HTMLElement {
  const iconName = kind === 'loading' ? 'loading' : kind === 'error' ? 'error' : 'info';
  return h('div', { class: `state state-${kind}`, attrs: kind === 'loading' ? { 'aria-busy': 'true' } : {} },
    h('div', { class: 'state-message' }, icon(iconName, kind === 'loading' ? 'codicon-modifier-spin' : ''), h('span', { text })),
    actions.length ? h('div', { class: 'state-actions' }, ...actions) : null);
}
