// The insights view: summary numbers and three charts, redrawn from each `insights` message.
import type { InsightsData } from '../../src/core/insights';
import type { HostMessage } from '../../src/views/protocol';
import { recurrentSignatures, promotionsOverTime, timeSavedLabel, weeklyOutcomes } from './charts';
import { h, icon, textButton } from './dom';
import { duration } from './format';
import { OUTCOME_LABEL } from './labels';
import { t } from './l10n';
import { send } from './vscodeApi';

export class InsightsApp {
  private readonly body: HTMLElement;
  private data?: InsightsData;
  private drawnWidth = 0;

  constructor(private readonly root: HTMLElement) {
    this.body = h('main', { class: 'insights', attrs: { 'aria-live': 'polite' } });
    root.replaceChildren(this.body);
    root.removeAttribute('aria-busy');
    this.body.append(loading());
    // Charts are drawn at the view's real width (1 SVG unit = 1 px) so text stays readable; redraw on resize.
    new ResizeObserver(() => {
      if (this.data && Math.abs(this.chartWidth() - this.drawnWidth) > 16) this.render(this.data);
    }).observe(this.body);
  }

  private chartWidth(): number {
    return Math.max(200, Math.min(900, this.body.clientWidth - 24));
  }

  handle(msg: HostMessage): void {
    if (msg.type !== 'insights') return;
    const s = msg.state;
    if (s.status === 'loading') {
      if (!this.body.querySelector('.chart')) this.body.replaceChildren(loading());
      return;
    }
    if (s.status === 'error') {
      this.body.replaceChildren(h('div', { class: 'state state-error' },
        h('div', { class: 'state-message' }, icon('error'), h('span', { text: s.message })),
        h('div', { class: 'state-actions' }, textButton(t('Retry'), () => send({ type: 'run', action: 'refresh' }), 'refresh'),
          textButton(t('Show log'), () => send({ type: 'run', action: 'showLog' }), 'output'))));
      return;
    }
    this.render(s.data);
  }

  private render(d: InsightsData): void {
    this.data = d;
    const W = this.drawnWidth = this.chartWidth();
    const n = d.totals;
    if (!n.memories) {
      this.body.replaceChildren(h('div', { class: 'state state-empty' },
        h('div', { class: 'state-message' }, icon('graph'), h('span', { text: t('No memories yet. Insights appear once Engram has captured a few episodes.') })),
        h('div', { class: 'state-actions' }, textButton(t('Record Lesson…'), () => send({ type: 'run', action: 'recordLesson' }), 'add', true))));
      return;
    }
    const stat = (value: string, label: string, title?: string) =>
      h('div', { class: 'stat', attrs: title ? { title } : {} }, h('div', { class: 'stat-value', text: value }), h('div', { class: 'stat-label', text: label }));
    const saved = d.timeSaved;
    const stats = h('div', { class: 'stats', attrs: { role: 'group', 'aria-label': t('Totals') } },
      stat(String(n.episodes), t('episodes')),
      stat(String(n.lessons), t('lessons')),
      stat(String(n.rules + n.constraints), t('rules & constraints')),
      stat(saved.totalMs ? duration(saved.totalMs) : '—', t('time saved'), timeSavedLabel(d)));

    const card = (title: string, note: string, content: Node, legend?: Node) =>
      h('section', { class: 'card', attrs: { 'aria-label': title } }, h('h2', { text: title }), note ? h('p', { class: 'muted', text: note }) : null, content, legend ?? null);

    const legend = h('ul', { class: 'legend', attrs: { 'aria-hidden': 'true' } },
      ...(['success', 'partial', 'failure', 'abandoned'] as const).map(o => h('li', {}, h('span', { class: `swatch outcome-${o}` }), h('span', { text: OUTCOME_LABEL[o] }))));

    const sections: Node[] = [stats,
      card(t('Episodes per week'), t('By outcome, last {0} weeks', d.weeks.length), weeklyOutcomes(d, W), legend)];
    sections.push(d.signatures.length
      ? card(t('Most recurrent errors'), t('Episodes per error signature'), recurrentSignatures(d, W))
      : card(t('Most recurrent errors'), t('No recurring errors yet.'), h('div')));
    sections.push(card(t('Promotions over time'), d.promotions.length ? t('Memories that earned a higher maturity') : t('No promotions yet: memories are promoted as they keep helping.'), promotionsOverTime(d, W)));
    const rows = saved.rows.length
      ? h('table', { class: 'saved' },
        h('thead', {}, h('tr', {}, h('th', { text: t('Error') }), h('th', { text: t('Prevented') }), h('th', { text: t('Median fix') }))),
        h('tbody', {}, ...saved.rows.map(r => h('tr', {},
          h('td', { text: r.label, attrs: { title: r.signature } }), h('td', { class: 'num', text: String(r.prevented) }),
          h('td', { class: 'num', text: r.medianMs !== undefined ? duration(r.medianMs) : '—' })))))
      : h('div');
    sections.push(card(t('Time saved (estimate)'), `${timeSavedLabel(d)} ${t('Each prevented error counts the median time its episodes took to fix.')}`, rows));
    this.body.replaceChildren(...sections);
  }
}

function loading(): HTMLElement {
  return h('div', { class: 'state state-loading', attrs: { 'aria-busy': 'true' } },
    h('div', { class: 'state-message' }, icon('loading', 'codicon-modifier-spin'), h('span', { text: t('Loading insights…') })));
}
