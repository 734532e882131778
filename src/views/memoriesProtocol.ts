// The memories webview's own messages: list sections, open episodes, row details, the forget/undo
// round trip and reveals from the host; searches and per-memory actions from the webview. Parsed on
// receipt like every message; no 'vscode', DOM or Node imports.
import { arr, bool, lit, obj, oneOf, opt, union, type Schema } from '../core/schema';
import type { FeedbackOutcome, Maturity, MemoryKind, Outcome } from '../core/types';
import { failed, id, MAX_ITEMS, maturity, num, text } from './common';

export type SectionId = 'relevant' | 'recent' | 'review' | 'search' | 'opened';
export type RevealSection = 'relevant' | 'episodes' | 'recent' | 'search';

/** A memory as a list row: plain data, already reduced to what the row shows. */
export interface MemoryView {
  id: string;
  kind: MemoryKind;
  title: string;
  maturity: Maturity;
  /** Posterior mean of "this helps", 0..100. */
  confidence: number;
  /** Outcomes that fed the confidence: helped / did not help. */
  helped: number;
  notHelped: number;
  /** Evidence episodes (lessons) or outcomes (other kinds). */
  evidence: number;
  scope: string[];
  why: string[];
  createdAt: number;
  updatedAt: number;
  pinned: boolean;
  source: string;
  quarantine?: string;
  flagged?: string[];
  /** Episodes: how it ended; lessons: the outcome of their source episodes. */
  outcome?: Outcome;
}

export interface StepView { action: string; result: string; effective?: boolean; at?: number; detail?: string }
export interface EpisodeRef { id: string; title: string; outcome?: string; startedAt?: number; steps: StepView[]; files: string[] }
export interface HistoryView { type: string; at: number; detail: string }

/** What an expanded row shows; fetched on demand. */
export interface MemoryDetails {
  id: string;
  /** Error text (lessons), content (facts), instruction (rules), summary (episodes). */
  body?: string;
  rootCause?: string;
  fix?: string;
  steps: StepView[];
  episodes: EpisodeRef[];
  files: string[];
  history: HistoryView[];
  purpose?: string;
}

export interface OpenEpisodeItem {
  id: string;
  title: string;
  file?: string;
  signature?: string;
  startedAt: number;
  steps: number;
  source: 'diagnostics' | 'terminal';
}

export type SectionState<T> =
  | { status: 'loading' }
  | { status: 'ready'; items: T[]; note?: string }
  | { status: 'error'; message: string };

export interface RelevantContext { file?: string; errors: number }

export type MemoriesHostMessage =
  | { type: 'section'; section: SectionId; state: SectionState<MemoryView>; context?: RelevantContext; query?: string }
  | { type: 'episodes'; state: SectionState<OpenEpisodeItem> }
  | { type: 'details'; id: string; details?: MemoryDetails; error?: string }
  | { type: 'pendingForget'; id: string; title: string; deadline: number }
  | { type: 'forgetSettled'; id: string; undone: boolean }
  | { type: 'reveal'; id?: string; section?: RevealSection; query?: string };

export type MemoriesWebviewMessage =
  | { type: 'search'; query: string }
  | { type: 'details'; id: string }
  | { type: 'feedback'; id: string; outcome: FeedbackOutcome }
  | { type: 'edit'; id: string }
  | { type: 'pin'; id: string; pinned: boolean }
  | { type: 'promote'; id: string }
  | { type: 'demote'; id: string }
  | { type: 'forget'; id: string }
  | { type: 'undoForget'; id: string }
  | { type: 'restore'; id: string }
  | { type: 'openSource'; id: string }
  | { type: 'copyMarkdown'; id: string }
  | { type: 'endEpisode'; id: string }
  | { type: 'closeOpened' };

// ----------------------------------------------------------------------------------------- validators

const kind = oneOf<MemoryKind>(['lesson', 'episode', 'fact', 'rule']);

const memoryView = obj<MemoryView>({
  id, kind, title: text(2000), maturity, confidence: num, helped: num, notHelped: num, evidence: num,
  scope: arr(text(1000), 200), why: arr(text(1000), 50), createdAt: num, updatedAt: num, pinned: bool,
  source: text(50), quarantine: opt(text(2000)), flagged: opt(arr(text(2000), 50)),
  outcome: opt(oneOf<Outcome>(['success', 'partial', 'failure', 'abandoned'])),
});
const stepView = obj<StepView>({ action: text(), result: text(), effective: opt(bool), at: opt(num), detail: opt(text()) });
const episodeRef = obj<EpisodeRef>({
  id, title: text(2000), outcome: opt(text(50)), startedAt: opt(num), steps: arr(stepView, 500), files: arr(text(1000), 500),
});
const historyView = obj<HistoryView>({ type: text(50), at: num, detail: text(5000) });
const memoryDetails = obj<MemoryDetails>({
  id, body: opt(text()), rootCause: opt(text()), fix: opt(text()), steps: arr(stepView, 500), episodes: arr(episodeRef, 50),
  files: arr(text(1000), 500), history: arr(historyView, 500), purpose: opt(text(5000)),
});
const openEpisode = obj<OpenEpisodeItem>({
  id, title: text(2000), file: opt(text(1000)), signature: opt(text(2000)), startedAt: num, steps: num,
  source: oneOf(['diagnostics', 'terminal']),
});
function sectionState<T>(item: Schema<T>): Schema<SectionState<T>> {
  return union<SectionState<T>>('status', {
    loading: obj<{ status: 'loading' }>({ status: lit('loading') }),
    ready: obj<{ status: 'ready'; items: T[]; note?: string }>({ status: lit('ready'), items: arr(item, MAX_ITEMS), note: opt(text(2000)) }),
    error: failed,
  });
}

type H<K extends MemoriesHostMessage['type']> = Extract<MemoriesHostMessage, { type: K }>;
type W<K extends MemoriesWebviewMessage['type']> = Extract<MemoriesWebviewMessage, { type: K }>;
const idOnly = <K extends MemoriesWebviewMessage['type']>(t: K) => obj<{ type: string; id: string }>({ type: lit<string>(t), id }) as unknown as Schema<W<K>>;

export const memoriesWebviewSchemas = {
  search: obj<W<'search'>>({ type: lit('search'), query: text(10_000) }),
  details: idOnly('details'),
  feedback: obj<W<'feedback'>>({ type: lit('feedback'), id, outcome: oneOf<FeedbackOutcome>(['prevented', 'still_failed']) }),
  edit: idOnly('edit'),
  pin: obj<W<'pin'>>({ type: lit('pin'), id, pinned: bool }),
  promote: idOnly('promote'),
  demote: idOnly('demote'),
  forget: idOnly('forget'),
  undoForget: idOnly('undoForget'),
  restore: idOnly('restore'),
  openSource: idOnly('openSource'),
  copyMarkdown: idOnly('copyMarkdown'),
  endEpisode: idOnly('endEpisode'),
  closeOpened: obj<W<'closeOpened'>>({ type: lit('closeOpened') }),
} satisfies { [K in MemoriesWebviewMessage['type']]: Schema<W<K>> };

export const memoriesHostSchemas = {
  section: obj<H<'section'>>({
    type: lit('section'), section: oneOf<SectionId>(['relevant', 'recent', 'review', 'search', 'opened']),
    state: sectionState(memoryView),
    context: opt(obj<RelevantContext>({ file: opt(text(1000)), errors: num })),
    query: opt(text(10_000)),
  }),
  episodes: obj<H<'episodes'>>({ type: lit('episodes'), state: sectionState(openEpisode) }),
  details: obj<H<'details'>>({ type: lit('details'), id, details: opt(memoryDetails), error: opt(text(5000)) }),
  pendingForget: obj<H<'pendingForget'>>({ type: lit('pendingForget'), id, title: text(2000), deadline: num }),
  forgetSettled: obj<H<'forgetSettled'>>({ type: lit('forgetSettled'), id, undone: bool }),
  reveal: obj<H<'reveal'>>({
    type: lit('reveal'), id: opt(id), section: opt(oneOf<RevealSection>(['relevant', 'episodes', 'recent', 'search'])), query: opt(text(10_000)),
  }),
} satisfies { [K in MemoriesHostMessage['type']]: Schema<H<K>> };
