// The memories view model: turns store memories into the plain rows and details the webview shows, and a memory into markdown
// for "Copy as markdown". No 'vscode' import: it is data shaping only.
import { historyText } from '../core/history';
import { english, type Translate } from '../core/l10n';
import type { RecallReason } from '../core/reasons';
import type { Episode, HistoryEntry, Memory, RecallResult } from '../core/types';
import { workspaceConfidence } from '../core/trust';
import { episodeFix, memoryTitle } from '../core/types';
import { workspaceRelativePath } from '../core/workspacePath';
import type { EpisodeRef, MemoryDetails, MemoryView, StepView } from './memoriesProtocol';

/** What the view model needs from the store. */
export interface MemoryLookup {
  get(id: string): Memory | undefined;
  history(id: string): HistoryEntry[];
}

const PRIOR = 1; // the Beta(1, 1) prior every memory starts from (core/trust.ts)

/** `workspace`: the one asking, so a disputed memory shows the confidence its ranking used there. */
export function toMemoryView(m: Memory, why: string[] = [], workspace?: string): MemoryView {
  const { alpha, beta } = m.confidence;
  const helped = Math.max(0, Math.round(alpha - PRIOR));
  const notHelped = Math.max(0, Math.round(beta - PRIOR));
  const view: MemoryView = {
    id: m.id,
    kind: m.kind,
    title: memoryTitle(m) || `(${m.kind} without text)`,
    maturity: m.maturity,
    confidence: Math.round(workspaceConfidence(m, workspace) * 100),
    helped,
    notHelped,
    evidence: m.kind === 'lesson' ? m.evidence.length : helped + notHelped,
    scope: [...m.scope],
    why: [...why],
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    pinned: m.pinned === true,
    source: m.source,
  };
  if (m.quarantined) view.quarantine = m.quarantined.reason;
  if (m.flagged?.length) view.flagged = [...m.flagged];
  const outcome = m.kind === 'episode' ? m.outcome : m.kind === 'lesson' ? m.outcome : undefined;
  if (outcome) view.outcome = outcome;
  return view;
}

/** Rows for recall results; `words` renders the reasons in the UI language (the host passes reasonLabels);
 * `workspace` is the one asking, so a disputed memory shows the confidence its ranking used there. */
export function fromRecall(results: readonly RecallResult[], words: (reasons: readonly RecallReason[]) => string[], workspace?: string): MemoryView[] {
  return results.map(r => toMemoryView(r.memory, words(r.reasons), workspace));
}

function stepsOf(e: Episode): StepView[] {
  return e.steps.map(s => {
    const v: StepView = { action: s.action, result: s.result };
    // The exit code decides: a run that exited non-zero is never drawn as a success (episodes captured
    // before issue 17 marked the run that showed a changed error so).
    if (s.wasEffective !== undefined) v.effective = s.wasEffective && !/^exit [1-9]\d*\b/.test(s.result);
    if (s.at !== undefined) v.at = s.at;
    if (s.detail) v.detail = s.detail;
    return v;
  });
}

function episodeRef(e: Episode): EpisodeRef {
  return { id: e.id, title: memoryTitle(e), outcome: e.outcome, startedAt: e.startedAt, steps: stepsOf(e), files: [...e.files] };
}

export function bodyOf(m: Memory): string {
  switch (m.kind) {
    case 'lesson': return m.errorText;
    case 'episode': return m.summary || m.trigger;
    case 'fact': return m.content;
    case 'rule': return m.instruction;
  }
}

/** Source episodes of a memory: a lesson's evidence, a rule's lesson's evidence. */
export function sourceEpisodes(m: Memory, store: MemoryLookup): Episode[] {
  let ids: string[] = [];
  if (m.kind === 'lesson') ids = m.evidence;
  else if (m.kind === 'rule' && m.fromLesson) {
    const l = store.get(m.fromLesson);
    ids = l?.kind === 'lesson' ? l.evidence : [];
  }
  const out: Episode[] = [];
  for (const id of ids.slice(-10)) {
    const e = store.get(id);
    if (e?.kind === 'episode') out.push(e);
  }
  return out;
}

/**
 * Files a memory came from (episodes touched them); used by "Open source file". Only paths inside the
 * workspace: an imported episode naming "../../../etc/passwd" must not open it.
 */
export function filesOf(m: Memory, store: MemoryLookup): string[] {
  const files = new Set<string>();
  const add = (f: string) => { const safe = workspaceRelativePath(f); if (safe) files.add(safe); };
  if (m.kind === 'episode') m.files.forEach(add);
  for (const e of sourceEpisodes(m, store)) e.files.forEach(add);
  return [...files];
}

/** Details of a memory; `t` words its history (the host passes vscode.l10n.t, English otherwise). */
export function toDetails(m: Memory, store: MemoryLookup, t: Translate = english): MemoryDetails {
  const d: MemoryDetails = {
    id: m.id,
    body: bodyOf(m),
    steps: m.kind === 'episode' ? stepsOf(m) : [],
    episodes: sourceEpisodes(m, store).map(episodeRef),
    files: filesOf(m, store),
    history: store.history(m.id).slice(-50).map(h => ({ type: h.type, at: h.at, detail: historyText(h, t) })),
  };
  if (m.kind === 'lesson') { d.rootCause = m.rootCause; d.fix = m.fixApproach; }
  if (m.kind === 'episode' && episodeFix(m)) d.fix = episodeFix(m);
  if (m.kind === 'episode' && m.lessonsLearned.length) d.rootCause = m.lessonsLearned.join('\n');
  if (m.purpose) d.purpose = m.purpose;
  return d;
}

/** Inline text for markdown, so memory text cannot open a fence or inject links into the copy. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map(x => x[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}

/** Memory text outside fences: HTML and link syntax escaped, so pasting it anywhere shows text, not markup. */
function mdText(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, c => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`));
}

export function toMarkdown(m: Memory, store: MemoryLookup): string {
  const v = toMemoryView(m);
  const lines = [`### ${mdText(v.title.replace(/[\r\n]+/g, ' '))}`, ''];
  lines.push(`- Kind: ${m.kind} · maturity: ${m.maturity} · confidence ${v.confidence}% (${v.helped} helped, ${v.notHelped} did not)`);
  if (m.scope.length) lines.push(`- Scope: ${m.scope.map(s => `\`${s}\``).join(', ')}`);
  lines.push(`- Recorded: ${new Date(m.createdAt).toISOString().slice(0, 10)} (${m.source})`);
  lines.push('');
  if (m.kind === 'lesson') {
    lines.push('**Error**', '', fence(m.errorText), '', '**Root cause**', '', mdText(m.rootCause) || '_unknown_', '', '**Fix**', '', mdText(m.fixApproach) || '_unknown_');
  } else {
    lines.push(mdText(bodyOf(m)));
  }
  const eps = sourceEpisodes(m, store);
  if (eps.length) {
    lines.push('', '**Episodes**', '');
    for (const e of eps) lines.push(`- ${new Date(e.startedAt).toISOString().slice(0, 10)} ${e.outcome}: ${mdText(memoryTitle(e))}`);
  }
  return lines.join('\n') + '\n';
}

const LADDER = ['observation', 'pattern', 'rule', 'constraint'] as const;
export function nextMaturity(m: Memory): Memory['maturity'] | undefined {
  const i = LADDER.indexOf(m.maturity);
  return i >= 0 && i < LADDER.length - 1 ? LADDER[i + 1] : undefined;
}
