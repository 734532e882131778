// The memory model shared by every layer. Field names follow the seed schemas in DESIGN.md; keep them.
// Pure types: nothing here imports Node or VS Code.
import { isAutomaticResolution } from './resolution';
import type { DetailNoun } from './errorDetails';

export type MemoryKind = 'lesson' | 'episode' | 'fact' | 'rule';
export type Maturity = 'observation' | 'pattern' | 'rule' | 'constraint';
export type Outcome = 'success' | 'partial' | 'failure' | 'abandoned';
export type FeedbackOutcome = 'prevented' | 'still_failed';
export type MemorySource = 'captured' | 'manual' | 'imported' | 'chat' | 'team';
export type OwnerScope = 'workspace' | 'personal' | 'team';

export interface Owner {
  scope: OwnerScope;
  /** Tenant/workspace id (a stable hash of the workspace folder, or a name given by the CLI). */
  workspace?: string;
  principal?: string;
  /** Agent namespace, e.g. "copilot" or "user". */
  agent?: string;
}

/** Beta posterior over "this memory helps"; a weak prior of (1, 1). */
export interface Confidence {
  alpha: number;
  beta: number;
}

export interface MemoryBase {
  id: string;
  kind: MemoryKind;
  owner: Owner;
  createdAt: number; // epoch ms
  updatedAt: number;
  lastAccessedAt?: number;
  accessCount: number;
  importance: number; // 0..1
  source: MemorySource;
  expiresAt?: number;
  deleted?: boolean;
  pinned?: boolean;
  /** Why this is kept (purpose/consent note), shown in the UI. */
  purpose?: string;
  tags: string[];
  /** Workspace-relative globs where this memory applies; empty means everywhere. */
  scope: string[];
  confidence: Confidence;
  maturity: Maturity;
  /** Set by the stale guard; excluded from recall until restored. */
  quarantined?: { reason: string; at: number };
  /** Set by the poisoning guard: text that tries to instruct; never injected as instructions. */
  flagged?: string[];
}

export interface EpisodeStep {
  action: string;
  reasoning?: string;
  result: string;
  wasEffective?: boolean;
  at?: number;
  /** Small masked diff or command line. */
  detail?: string;
}

export interface Episode extends MemoryBase {
  kind: 'episode';
  startedAt: number;
  endedAt?: number;
  duration?: number; // ms
  trigger: string; // masked error excerpt or command that opened the episode
  goal?: string;
  domain?: string; // e.g. "typescript", "terminal:npm"
  steps: EpisodeStep[];
  toolsUsed: string[];
  outcome: Outcome;
  resolution?: string;
  lessonsLearned: string[];
  files: string[]; // workspace-relative
  sourceIds: string[]; // diagnostic / terminal execution ids
  summary: string;
  errorSignature?: string; // normalised key of the triggering error
  codeBefore?: string; // masked excerpt around the error when it opened
  codeAfter?: string; // masked excerpt at the fix
  /** What fixed it, in words, when something was observed (the lesson's fixApproach); never the resolution boilerplate. */
  fixAction?: string;
  /** Identity of that fix (same commands or same changed lines), for grouping episodes into patterns. */
  fixKey?: string;
  /** The episode about the different error this one's error turned into after its fix. */
  nextEpisodeId?: string;
}

/**
 * The fix an episode can honestly show, only for a success: what was observed to fix it, or a resolution
 * a person or a tool wrote — never the tracker's own "the error is gone" / "`cmd` passed".
 */
export function episodeFix(e: Episode): string | undefined {
  if (e.outcome !== 'success') return undefined;
  return e.fixAction ?? (isAutomaticResolution(e.resolution) ? undefined : e.resolution);
}

export interface Lesson extends MemoryBase {
  kind: 'lesson';
  /** Normalised signature key (see core/signature.ts). */
  errorSignature: string;
  /** The masked error text as first seen (one or a few lines), for display and lexical recall. */
  errorText: string;
  errorCategory: string;
  /** Technology stack, e.g. ["typescript", "node"]. */
  stack: string[];
  rootCause: string;
  fixApproach: string;
  /** Episode/lesson ids that support this lesson. */
  evidence: string[];
  /** Optional gate: a constraint raises a warning where `pattern` matches a file under `glob`. */
  check?: { glob: string; pattern: string; flags?: string };
  /** Outcome of the episode(s) it came from: past successes to follow, past failures to avoid. */
  outcome?: Outcome;
  /** Per-workspace outcome tallies, so disagreeing projects are never averaged. */
  perWorkspace?: Record<string, { prevented: number; stillFailed: number }>;
  /** The hunks of the fix that matter (bounded, masked unified diff), most important first. */
  change?: string;
  /** Commands that ran successfully between the failure and the fix and plausibly fixed it. */
  commands?: string[];
  /** Who wrote rootCause/fixApproach: Engram's template, a language model, an agent or the user. */
  author?: LessonAuthor;
  /** Identity of the fix (same commands or same changed lines): lessons merge only when it matches. */
  fixKey?: string;
  /** The error cleared with nothing observed that explains it: low importance, never merged or promoted. */
  unexplained?: boolean;
  /** Signature keys of the other errors the episode met on the way (ModuleNotFoundError → ImportError). */
  variantSignatures?: string[];
  /** A general rule for next time and when it does not apply (written by a model or an agent). */
  rule?: string;
  notWhen?: string;
}

export type LessonAuthor = 'template' | 'model' | 'agent' | 'user';
export const LESSON_AUTHORS: readonly LessonAuthor[] = ['template', 'model', 'agent', 'user'];

export interface Fact extends MemoryBase {
  kind: 'fact';
  content: string;
  topic?: string;
  type: 'fact' | 'preference' | 'decision';
  /** Profile key (e.g. "packageManager"); set for profile facts, where the latest value wins. */
  key?: string;
  /** Id of the fact this one superseded (kept as history). */
  supersedes?: string;
  supersededBy?: string;
}

export interface Rule extends MemoryBase {
  kind: 'rule';
  instruction: string;
  /** Lesson this rule was promoted from, if any. */
  fromLesson?: string;
}

export type Memory = Episode | Lesson | Fact | Rule;

/** Events are the canonical truth; state is derived by folding them (core/reduce.ts). */
export type MemoryEvent =
  | { type: 'recorded'; id: string; at: number; memory: Memory }
  | { type: 'updated'; id: string; at: number; patch: Record<string, unknown>; reason?: string }
  /** `replaces`: the user's verdict takes back the automatic outcome of the same recurrence (one recurrence counts once). */
  | { type: 'feedback'; id: string; at: number; outcome: FeedbackOutcome; reason?: string; auto?: boolean; workspace?: string; replaces?: FeedbackOutcome }
  | { type: 'evidence'; id: string; at: number; evidenceId: string; reason?: string; workspace?: string }
  | { type: 'promoted'; id: string; at: number; from: Maturity; to: Maturity; reason: string }
  | { type: 'demoted'; id: string; at: number; from: Maturity; to: Maturity; reason: string }
  | { type: 'accessed'; id: string; at: number; count?: number }
  | { type: 'quarantined'; id: string; at: number; reason: string }
  | { type: 'restored'; id: string; at: number; reason?: string }
  | { type: 'deleted'; id: string; at: number; reason?: string }
  | { type: 'expired'; id: string; at: number; reason?: string };

export type MemoryEventType = MemoryEvent['type'];

/** An event without its id or payload: enough to say what happened. */
export type HistoryFacts =
  | { type: 'recorded'; source: MemorySource }
  | { type: 'updated'; fields: string[]; reason?: string }
  | { type: 'feedback'; outcome: FeedbackOutcome; auto?: boolean; workspace?: string; reason?: string; replaces?: FeedbackOutcome }
  | { type: 'evidence'; evidenceId: string; reason?: string }
  | { type: 'promoted' | 'demoted'; from: Maturity; to: Maturity; reason: string }
  | { type: 'accessed' }
  | { type: 'quarantined'; reason: string }
  | { type: 'restored' | 'deleted' | 'expired'; reason?: string };

/** One line of a memory's visible history; `detail` is its English text. */
export type HistoryEntry = HistoryFacts & { at: number; detail: string };

/** Why a memory was recalled, as data each surface words (core/reasons.ts renders it). */
export type RecallReason =
  /** The query carries the memory's error signature; `code` is its code or family ("TS2322"). */
  | { kind: 'signature'; code: string }
  /** The same signature, but another module / type / test: a near miss, never shown unasked. */
  | { kind: 'nearMiss'; code: string; noun: DetailNoun; value: string }
  /** The memory's scope globs that match the file at hand. */
  | { kind: 'scope'; globs: string[] }
  /** Query words the memory has, as the query spelled them, rarest first. */
  | { kind: 'words'; words: string[] }
  /** Cosine similarity with the query (vectors). */
  | { kind: 'similar'; score: number }
  /** A constraint whose scope covers the file: always included. */
  | { kind: 'constraint' }
  /** Above observation; `confidence` (0..1) when recall weighed it, absent when a list names the rung only. */
  | { kind: 'maturity'; maturity: Maturity; confidence?: number }
  /** Holds instruction-like text (core/poison.ts): data, not orders. */
  | { kind: 'flagged' }
  /** From the user's personal store rather than the workspace's. */
  | { kind: 'personal' }
  /** Asked for by id (MCP engram_get), not found by a query. */
  | { kind: 'requested' };

export interface RecallQuery {
  /** Raw error output (many lines) or natural language, English or Korean. */
  text: string;
  /** Workspace-relative path of the file at hand; when set, scope globs must match it. */
  file?: string;
  k?: number; // cap, default 5
  kinds?: MemoryKind[];
  /** Restrict by outcome of the source episode(s): 'success' = things to follow, 'failure' = to avoid. */
  outcome?: 'success' | 'failure';
  /** Owner scopes to include (default: workspace only, plus whatever the caller enables). */
  owners?: OwnerScope[];
  now?: number;
  /** Include quarantined/flagged memories (for the sidebar's review list), default false. */
  includeQuarantined?: boolean;
  /**
   * Shown unasked (hover, Relevant now, status bar, automatic context): only results that pass the
   * proactive gate (core/recallGate.ts) come back, constraints included.
   */
  proactive?: boolean;
  /**
   * Why a memory is stale (the code it names is gone), undefined when it is not: checked in rank order
   * before a memory takes one of the k places, so stale ones never reach the caller and leave room for
   * the next. Every surface gets it from the recall service (core/recallService.ts).
   */
  isStale?: StaleCheck;
}

/** The stale guard as recall consults it (the window's checker, or a folder probe in the CLI and MCP). */
export type StaleCheck = (m: Memory) => string | undefined | Promise<string | undefined>;

export interface RecallResult {
  memory: Memory;
  score: number; // 0..1
  /** Why it came (same signature, scope, words, similarity, ...): data each surface words (core/reasons.ts). */
  reasons: RecallReason[];
  /** Set when the match would not pass the proactive gate: shown on request only, marked as weak. */
  weak?: boolean;
}

export interface Logger {
  trace(msg: string, ...args: unknown[]): void;
  debug(msg: string, ...args: unknown[]): void;
  info(msg: string, ...args: unknown[]): void;
  warn(msg: string, ...args: unknown[]): void;
  error(msg: string | Error, ...args: unknown[]): void;
}

export const nullLogger: Logger = {
  trace() {}, debug() {}, info() {}, warn() {}, error() {},
};

/** Human-readable one-line title for any memory (used by every surface). */
export function memoryTitle(m: Memory): string {
  switch (m.kind) {
    case 'lesson': return firstLine(m.errorText || m.errorSignature);
    case 'episode': return firstLine(m.summary || m.trigger);
    case 'fact': return firstLine(m.content);
    case 'rule': return firstLine(m.instruction);
  }
}

function firstLine(s: string): string {
  const line = (s || '').split('\n').find(l => l.trim()) ?? '';
  return line.length > 160 ? line.slice(0, 157) + '…' : line.trim();
}
