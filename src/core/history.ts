// A memory's visible history: what each event did, as data, and its words. The sidebar renders it in
// the UI language; the CLI, MCP and `detail` keep the English line they always showed. Reasons inside
// events are written by people or by policy code and stay as written.
import { english, type Translate } from './l10n';
import { maturityText } from './reasons';
import { workspaceName } from './workspaceId';
import type { FeedbackOutcome, HistoryEntry, HistoryFacts, MemoryEvent, MemorySource } from './types';

export type { HistoryEntry, HistoryFacts } from './types';

export function historyFacts(ev: MemoryEvent): HistoryFacts {
  switch (ev.type) {
    case 'recorded': return { type: 'recorded', source: ev.memory.source };
    case 'updated': return { type: 'updated', fields: Object.keys(ev.patch), reason: ev.reason };
    case 'feedback': return { type: 'feedback', outcome: ev.outcome, auto: ev.auto, workspace: ev.workspace, reason: ev.reason, ...(ev.replaces ? { replaces: ev.replaces } : {}) };
    case 'evidence': return { type: 'evidence', evidenceId: ev.evidenceId, reason: ev.reason };
    case 'promoted':
    case 'demoted': return { type: ev.type, from: ev.from, to: ev.to, reason: ev.reason };
    case 'accessed': return { type: 'accessed' };
    case 'quarantined': return { type: 'quarantined', reason: ev.reason };
    case 'restored':
    case 'deleted':
    case 'expired': return { type: ev.type, reason: ev.reason };
  }
}

export function historyEntry(ev: MemoryEvent): HistoryEntry {
  const facts = historyFacts(ev);
  return { ...facts, at: ev.at, detail: historyText(facts) };
}

function sourceText(s: MemorySource, t: Translate): string {
  switch (s) {
    case 'captured': return t('captured');
    case 'manual': return t('manual');
    case 'imported': return t('imported');
    case 'chat': return t('chat');
    case 'team': return t('team');
  }
}

function outcomeText(o: FeedbackOutcome, t: Translate): string {
  return o === 'prevented' ? t('prevented') : t('still_failed');
}

/** The line for one history entry; English unless a translator is given. */
export function historyText(h: HistoryFacts, t: Translate = english): string {
  const because = (reason?: string) => (reason ? `: ${reason}` : '');
  switch (h.type) {
    case 'recorded': return t('recorded ({0})', sourceText(h.source, t));
    case 'updated': return t('updated {0}', h.fields.join(', ')) + because(h.reason);
    case 'feedback': return outcomeText(h.outcome, t) + (h.auto ? ' ' + t('(automatic)') : '')
      + (h.workspace ? ' ' + t('in {0}', workspaceName(h.workspace)) : '')
      + (h.replaces ? ' ' + t('(replaces the automatic {0})', outcomeText(h.replaces, t)) : '') + because(h.reason);
    case 'evidence': return t('evidence {0}', h.evidenceId) + because(h.reason);
    case 'promoted': return t('promoted {0} → {1}', maturityText(h.from, t), maturityText(h.to, t)) + because(h.reason);
    case 'demoted': return t('demoted {0} → {1}', maturityText(h.from, t), maturityText(h.to, t)) + because(h.reason);
    case 'accessed': return t('recalled');
    case 'quarantined': return t('quarantined') + because(h.reason);
    case 'restored': return t('restored') + because(h.reason);
    case 'deleted': return t('deleted') + because(h.reason);
    case 'expired': return t('expired') + because(h.reason);
  }
}
