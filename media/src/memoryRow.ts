// One memory as a list row, and its expanded details. Every string from a memory goes in as text.
import type { MemoryDetails, MemoryView, OpenEpisodeItem, StepView } from '../../src/views/memoriesProtocol';
import { h, icon, iconButton, textButton } from './dom';
import { maturityText } from '../../src/core/reasons';
import { age, dateTime, day, plural } from './format';
import { KIND_LABEL, OUTCOME_LABEL, outcomeLabel } from './labels';
import { t } from './l10n';
import { send } from './vscodeApi';

const KIND_ICON: Record<MemoryView['kind'], string> = { lesson: 'lightbulb', episode: 'history', fact: 'note', rule: 'law' };
export function confidenceText(m: MemoryView): string {
  return `${m.confidence}%`;
}

function evidenceText(m: MemoryView): string {
  if (m.kind === 'lesson') return plural(m.evidence, t('{0} episode'), t('{0} episodes'));
  return m.evidence ? plural(m.evidence, t('{0} outcome'), t('{0} outcomes')) : t('no feedback yet');
}

export function renderMemoryRow(m: MemoryView, section: string, now: number, expanded: boolean): HTMLLIElement {
  const detailsId = `details-${section}-${m.id}`;
  const conf = h('span', {
    class: `confidence ${m.confidence >= 70 ? 'high' : m.confidence < 40 ? 'low' : ''}`,
    attrs: { title: t('Confidence {0}%: helped {1}, did not help {2}', m.confidence, m.helped, m.notHelped), 'data-confidence': m.confidence },
  }, icon('pulse'), h('span', { class: 'value', text: confidenceText(m) }),
  h('span', { class: 'evidence', text: ` · ${evidenceText(m)}` }));

  const meta = h('div', { class: 'row-meta' },
    h('span', { class: `badge maturity-${m.maturity}`, text: maturityText(m.maturity, t), attrs: { title: t('Maturity: {0}', maturityText(m.maturity, t)) } }),
    h('span', { class: 'kind', text: KIND_LABEL[m.kind] }),
    m.outcome ? h('span', { class: `outcome outcome-text-${m.outcome}`, text: OUTCOME_LABEL[m.outcome] }) : null,
    conf,
    m.scope.length ? h('span', { class: 'scope', attrs: { title: t('Applies to {0}', m.scope.join(', ')) } }, icon('folder'), h('span', { text: m.scope.slice(0, 2).join(', ') + (m.scope.length > 2 ? ` +${m.scope.length - 2}` : '') })) : null,
    h('span', { class: 'age', text: age(m.updatedAt, now), attrs: { title: t('Recorded {0}, updated {1}', dateTime(m.createdAt), dateTime(m.updatedAt)) } }),
  );

  const title = h('div', { class: 'row-title' },
    h('span', { class: `kind-icon codicon codicon-${KIND_ICON[m.kind]}`, attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'title-text', text: m.title }),
    m.pinned ? h('span', { class: 'codicon codicon-pinned pin-mark', attrs: { title: t('Pinned'), 'aria-label': t('pinned') } }) : null,
    m.flagged?.length ? h('span', { class: 'codicon codicon-warning flag-mark', attrs: { title: t('Flagged: {0}', m.flagged.join('; ')), 'aria-label': t('flagged') } }) : null,
  );

  const why = m.why.length ? h('div', { class: 'row-why' }, h('span', { class: 'why-label', text: t('why') + ' ' }), h('span', { text: m.why.join(' · ') })) : null;
  const quarantine = m.quarantine ? h('div', { class: 'row-quarantine' }, icon('warning'), h('span', { text: m.quarantine })) : null;

  const actions = h('div', { class: 'row-actions', attrs: { role: 'toolbar', 'aria-label': t('Memory actions') } },
    ...(m.quarantine
      ? [textButton(t('Restore'), () => send({ type: 'restore', id: m.id }), 'history')]
      : [
        iconButton('thumbsup', t('Helpful (it prevented the error)'), () => send({ type: 'feedback', id: m.id, outcome: 'prevented' }), { 'data-action': 'helpful' }),
        iconButton('thumbsdown', t("Didn't help (it still failed)"), () => send({ type: 'feedback', id: m.id, outcome: 'still_failed' }), { 'data-action': 'not-helpful' }),
        iconButton('edit', t('Edit root cause and fix'), () => send({ type: 'edit', id: m.id })),
        iconButton(m.pinned ? 'pinned' : 'pin', m.pinned ? t('Unpin') : t('Pin'), () => send({ type: 'pin', id: m.id, pinned: !m.pinned })),
        iconButton('arrow-up', t('Promote'), () => send({ type: 'promote', id: m.id }), { disabled: m.maturity === 'constraint' }),
        iconButton('arrow-down', t('Demote'), () => send({ type: 'demote', id: m.id }), { disabled: m.maturity === 'observation' }),
      ]),
    iconButton('go-to-file', t('Open source file'), () => send({ type: 'openSource', id: m.id })),
    iconButton('copy', t('Copy as Markdown'), () => send({ type: 'copyMarkdown', id: m.id })),
    iconButton('trash', t('Forget'), () => send({ type: 'forget', id: m.id }), { 'data-action': 'forget' }),
  );

  const details = h('div', { class: 'row-details', attrs: { id: detailsId, hidden: !expanded } });
  const chevron = h('span', { class: `chevron codicon codicon-chevron-${expanded ? 'down' : 'right'}`, attrs: { 'aria-hidden': 'true' } });
  const row = h('li', {
    class: 'row memory',
    attrs: {
      role: 'listitem', 'data-row': '', 'data-id': m.id, 'data-kind': m.kind, 'data-key': `${section}:${m.id}`, tabindex: -1,
      'aria-expanded': expanded ? 'true' : 'false', 'aria-controls': detailsId,
      'aria-label': t('{0}: {1}. {2}, confidence {3}%.', KIND_LABEL[m.kind], m.title, maturityText(m.maturity, t), m.confidence) + (m.why.length ? ' ' + t('Why: {0}', m.why.join(', ')) : ''),
    },
  }, h('div', { class: 'row-head' }, chevron, h('div', { class: 'row-main' }, title, meta, why, quarantine)), actions, details);
  return row;
}

function block(label: string, ...children: (Node | string | null)[]): HTMLElement {
  return h('div', { class: 'detail-block' }, h('div', { class: 'detail-label', text: label }), ...children);
}

function para(text: string): HTMLElement {
  return h('div', { class: 'detail-text', text });
}

function stepsList(steps: StepView[]): HTMLElement {
  return h('ol', { class: 'timeline' }, ...steps.map(s => h('li', { class: s.effective === true ? 'effective' : s.effective === false ? 'ineffective' : '' },
    h('span', { class: `codicon codicon-${s.effective === true ? 'pass' : s.effective === false ? 'circle-slash' : 'circle-small'}`, attrs: { 'aria-hidden': 'true' } }),
    h('div', { class: 'step-body' },
      h('div', { class: 'step-action', text: s.action }),
      s.result ? h('div', { class: 'step-result', text: s.result }) : null,
      s.detail ? h('pre', { class: 'step-detail', text: s.detail }) : null,
      s.at ? h('div', { class: 'step-at', text: dateTime(s.at) }) : null))));
}

export function renderDetails(container: HTMLElement, kind: MemoryView['kind'], d: MemoryDetails | undefined, error?: string): void {
  container.replaceChildren();
  if (error) { container.append(h('div', { class: 'detail-error' }, icon('error'), h('span', { text: error }))); return; }
  if (!d) { container.append(h('div', { class: 'detail-loading' }, icon('loading', 'codicon-modifier-spin'), h('span', { text: t('Loading…') }))); return; }
  if (d.body && kind === 'lesson') container.append(block(t('Error'), h('pre', { class: 'error-text', text: d.body })));
  else if (d.body) container.append(block(kind === 'episode' ? t('Summary') : kind === 'rule' ? t('Instruction') : t('Fact'), para(d.body)));
  if (d.rootCause !== undefined) container.append(block(kind === 'episode' ? t('Lessons learned') : t('Root cause'), para(d.rootCause || '—')));
  if (d.fix !== undefined) container.append(block(kind === 'episode' ? t('Resolution') : t('Fix'), para(d.fix || '—')));
  if (d.steps.length) container.append(block(t('Steps'), stepsList(d.steps)));
  if (d.episodes.length) {
    container.append(block(d.episodes.length === 1 ? t('Source episode') : t('Source episodes'),
      ...d.episodes.map(e => h('details', { class: 'episode' },
        h('summary', {}, h('span', { text: e.title || e.id }), h('span', { class: 'muted', text: ` · ${e.outcome ? outcomeLabel(e.outcome) : ''}${e.startedAt ? ' · ' + day(e.startedAt) : ''}` })),
        e.steps.length ? stepsList(e.steps) : h('div', { class: 'muted', text: t('No steps recorded.') }),
        e.files.length ? h('div', { class: 'muted', text: t('Files: {0}', e.files.join(', ')) }) : null))));
  }
  if (d.files.length) container.append(block(t('Files'), h('div', { class: 'detail-text mono', text: d.files.join('\n') })));
  if (d.purpose) container.append(block(t('Kept because'), para(d.purpose)));
  if (d.history.length) {
    container.append(block(t('History'), h('ol', { class: 'history' }, ...[...d.history].reverse().map(x =>
      h('li', {}, h('span', { class: 'history-at', text: dateTime(x.at) }), h('span', { text: x.detail }))))));
  }
}

export function renderEpisodeRow(e: OpenEpisodeItem, now: number, canEnd: boolean): HTMLLIElement {
  return h('li', {
    class: 'row episode-row',
    attrs: { role: 'listitem', 'data-row': '', 'data-key': `episode:${e.id}`, tabindex: -1, 'aria-label': t('Open episode: {0}', e.title) },
  }, h('div', { class: 'row-head' },
    h('span', { class: `codicon codicon-${e.source === 'terminal' ? 'terminal' : 'error'} episode-icon`, attrs: { 'aria-hidden': 'true' } }),
    h('div', { class: 'row-main' },
      h('div', { class: 'row-title' }, h('span', { class: 'title-text', text: e.title })),
      h('div', { class: 'row-meta' },
        e.file ? h('span', { class: 'scope' }, icon('file'), h('span', { text: e.file })) : null,
        h('span', { text: plural(e.steps, t('{0} step'), t('{0} steps')) }),
        h('span', { class: 'age', text: t('started {0}', age(e.startedAt, now)) })))),
  canEnd ? h('div', { class: 'row-actions' }, iconButton('debug-stop', t('End episode…'), () => send({ type: 'endEpisode', id: e.id }))) : null);
}
