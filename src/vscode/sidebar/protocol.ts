// The one message protocol between the Engram views and their webviews, imported by both the extension
// host (src/vscode/sidebar/*) and the webview bundle (media/src/*). Every message crossing the boundary
// is parsed with the schemas below (core/schema) on the receiving side; anything unknown or malformed is
// dropped (and logged by the caller). Parsers copy only the keys they know into fresh objects, so a
// hostile `__proto__`/`constructor` key can never reach a prototype. No 'vscode' or DOM imports here.
import type { InsightsData } from '../../core/insights';
import { arr, bool, isPlainObject, lit, num as number, obj, oneOf, opt, own, str, tryParse, union, type Schema } from '../../core/schema';
import type { FeedbackOutcome, Maturity, MemoryKind, Outcome } from '../../core/types';

// ---------------------------------------------------------------------------------------------- types

export type ViewKind = 'memories' | 'insights';
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

export type HostMessage =
  | { type: 'init'; view: ViewKind; now: number; captureAvailable: boolean }
  | { type: 'section'; section: SectionId; state: SectionState<MemoryView>; context?: RelevantContext; query?: string }
  | { type: 'episodes'; state: SectionState<OpenEpisodeItem> }
  | { type: 'details'; id: string; details?: MemoryDetails; error?: string }
  | { type: 'pendingForget'; id: string; title: string; deadline: number }
  | { type: 'forgetSettled'; id: string; undone: boolean }
  | { type: 'reveal'; id?: string; section?: RevealSection; query?: string }
  | { type: 'notice'; level: 'info' | 'error'; text: string }
  | { type: 'insights'; state: { status: 'loading' } | { status: 'ready'; data: InsightsData } | { status: 'error'; message: string } };

/** Host commands the webview may ask for by name (never a command id string from the webview). */
export type RunAction = 'recordLesson' | 'showLog' | 'refresh' | 'showInsights' | 'showPanel';

export type WebviewMessage =
  | { type: 'ready'; view: ViewKind }
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
  | { type: 'closeOpened' }
  | { type: 'run'; action: RunAction };

// ----------------------------------------------------------------------------------------- validators

/** A parser returns a fresh, typed copy of valid input, or `undefined`. */
export type Parser<T> = (v: unknown) => T | undefined;

const MAX_TEXT = 100_000;
const MAX_ITEMS = 1000;

const text = (max = MAX_TEXT) => str({ max });
const id = str({ min: 1, max: 200 });
const num = number();

const kind = oneOf<MemoryKind>(['lesson', 'episode', 'fact', 'rule']);
const maturity = oneOf<Maturity>(['observation', 'pattern', 'rule', 'constraint']);
const viewKind = oneOf<ViewKind>(['memories', 'insights']);

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
const failed = obj<{ status: 'error'; message: string }>({ status: lit('error'), message: text(5000) });
function sectionState<T>(item: Schema<T>): Schema<SectionState<T>> {
  return union<SectionState<T>>('status', {
    loading: obj<{ status: 'loading' }>({ status: lit('loading') }),
    ready: obj<{ status: 'ready'; items: T[]; note?: string }>({ status: lit('ready'), items: arr(item, MAX_ITEMS), note: opt(text(2000)) }),
    error: failed,
  });
}

const counts = obj<Record<Outcome, number>>({ success: num, partial: num, failure: num, abandoned: num });
const insightsData = obj<InsightsData>({
  now: num,
  totals: obj<InsightsData['totals']>({ memories: num, episodes: num, lessons: num, rules: num, facts: num, constraints: num }),
  weeks: arr(obj<InsightsData['weeks'][number]>({ weekStart: num, counts }), 520),
  signatures: arr(obj<InsightsData['signatures'][number]>({ signature: text(2000), label: text(2000), count: num }), 100),
  promotions: arr(obj<InsightsData['promotions'][number]>({ at: num, total: num, to: maturity }), 10_000),
  timeSaved: obj<InsightsData['timeSaved']>({
    totalMs: num, prevented: num, unestimated: num,
    rows: arr(obj<InsightsData['timeSaved']['rows'][number]>({ signature: text(2000), label: text(2000), prevented: num, medianMs: opt(num) }), 100),
  }),
});
const insightsState = union<Extract<HostMessage, { type: 'insights' }>['state']>('status', {
  loading: obj<{ status: 'loading' }>({ status: lit('loading') }),
  ready: obj<{ status: 'ready'; data: InsightsData }>({ status: lit('ready'), data: insightsData }),
  error: failed,
});

type H<K extends HostMessage['type']> = Extract<HostMessage, { type: K }>;
type W<K extends WebviewMessage['type']> = Extract<WebviewMessage, { type: K }>;
const idOnly = <K extends WebviewMessage['type']>(t: K) => obj<{ type: string; id: string }>({ type: lit<string>(t), id }) as unknown as Schema<W<K>>;

const webviewMessage = union<WebviewMessage>('type', {
  ready: obj<W<'ready'>>({ type: lit('ready'), view: viewKind }),
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
  run: obj<W<'run'>>({ type: lit('run'), action: oneOf<RunAction>(['recordLesson', 'showLog', 'refresh', 'showInsights', 'showPanel']) }),
} satisfies { [K in WebviewMessage['type']]: Schema<W<K>> });

const hostMessage = union<HostMessage>('type', {
  init: obj<H<'init'>>({ type: lit('init'), view: viewKind, now: num, captureAvailable: bool }),
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
  notice: obj<H<'notice'>>({ type: lit('notice'), level: oneOf(['info', 'error']), text: text(5000) }),
  insights: obj<H<'insights'>>({ type: lit('insights'), state: insightsState }),
} satisfies { [K in HostMessage['type']]: Schema<H<K>> });

/** Parses a message the webview sent to the host. */
export const parseWebviewMessage: Parser<WebviewMessage> = v => tryParse(webviewMessage, v);

/** Parses a message the host sent to the webview. */
export const parseHostMessage: Parser<HostMessage> = v => tryParse(hostMessage, v);

/** Short description of a rejected message for the log (never the whole payload: it may be large). */
export function describeRejected(v: unknown): string {
  if (!isPlainObject(v)) return `non-object (${Array.isArray(v) ? 'array' : typeof v})`;
  const t = own(v, 'type');
  return typeof t === 'string' ? `type "${t.slice(0, 40)}"` : 'no type';
}
