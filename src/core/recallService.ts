// The one recall service every surface asks: the window's Services.recall (hover, Relevant now, @memory,
// the status bar), Copilot's engram_recall, the MCP tools, the CLI and, later, the team server. It decides,
// once, what the surfaces used to decide each on their own: which owners and stores are searched (the
// workspace's, plus the personal one when the user turned it on), that stale memories are left out
// through RecallQuery.isStale (checked in rank order, so a stale one frees its place for the next), the
// default and the largest k, reading other processes' writes before answering, and merging by score with
// every constraint in scope kept. What an agent's tool call gets on top (one input schema, trimming, the
// proactive gate unless `all`, the capped data block) is `answerAgent` in recall/agentAnswer.ts, over this.
//
// How another backend plugs in: a RecallSource is anything with `recall(q)` that ranks one store. The
// window, the CLI and `engram mcp` pass MemoryStore (its RecallEngine over the in-memory indexes). A team
// server passes an object whose recall(q) fetches candidates from its database (full-text, signature
// index, pgvector, the constraints) and ranks them with the same RecallEngine over the interfaces in
// recall/source.ts; it gets owners, stale check, caps, gate, data block and trimming from here unchanged.
// Pure: no Node, no VS Code.
import { maskSecrets } from './mask';
import { mergeRecall } from './recallMerge';
import type { Memory, OwnerScope, RecallQuery, RecallResult, StaleCheck } from './types';

/** One store recall ranks in (MemoryStore; a team server's database-backed ranker). */
export interface RecallSource {
  recall(q: RecallQuery): Promise<RecallResult[]>;
  /** Reads what other processes appended since (a long-running server beside the window). */
  refresh?(): Promise<void>;
}

export interface RecallServiceOptions {
  /** The workspace's store (opened lazily by the caller: the first recall waits for it). */
  workspace(): Promise<RecallSource>;
  /** The user's personal store when recall includes it, else undefined. A failure is logged, not thrown. */
  personal?(): Promise<RecallSource | undefined>;
  /** Owner scopes searched in the workspace store when a query names none (workspace, and team when on). */
  owners?(): OwnerScope[];
  /** k when a query gives none. */
  defaultK?(): number;
  /** The stale guard (the window's checker; a folder probe in the CLI and MCP). */
  isStale?: StaleCheck;
  /** Refresh both stores before each recall (a process that runs for hours beside writers). */
  refreshFirst?: boolean;
  /** Sees each query before it runs (the window's onDidRecall, for tests and traces). */
  onRecall?(q: RecallQuery): void;
  /** Where a failing personal store is reported (recall goes on without it). */
  warn?(message: string): void;
}

/** Every surface's largest k: beyond it, results are rarely read and crowd the answer. */
export const MAX_RECALL_K = 1000;
export const DEFAULT_RECALL_K = 5;

export class RecallService {
  constructor(private readonly opts: RecallServiceOptions) {}

  /**
   * Recall across the enabled stores, stale memories left out, merged by score and capped at k.
   * `checkStale: false` is for the editor's own surfaces (hover, Relevant now, search): they never wait on
   * file lookups, and the window's stale guard quarantines in the background what they would show.
   */
  async recall(q: RecallQuery, opts: { checkStale?: boolean } = {}): Promise<RecallResult[]> {
    this.opts.onRecall?.(q);
    const k = clampK(q.k ?? this.opts.defaultK?.() ?? DEFAULT_RECALL_K);
    const owners = q.owners ?? this.opts.owners?.() ?? ['workspace'];
    const main = await this.opts.workspace();
    const personal = await this.personal();
    if (this.opts.refreshFirst) {
      await main.refresh?.();
      await personal?.refresh?.().catch(() => undefined);
    }
    // The query is masked as stored text is: it then matches what the store holds («secret:…» for
    // «secret:…»), and nothing the answer repeats of it (the words a match is explained by) is a secret.
    const query: RecallQuery = { ...q, text: maskSecrets(q.text), k, owners, isStale: opts.checkStale === false ? undefined : q.isStale ?? this.opts.isStale };
    const results = await main.recall(query);
    const mine = personal ? await personal.recall({ ...query, owners: ['personal'] }) : [];
    return mergeRecall(results, mine, k);
  }

  /** The stale guard's reason for one memory (surfaces that list memories without a query). */
  async staleReason(m: Memory): Promise<string | undefined> {
    try { return await this.opts.isStale?.(m); } catch { return undefined; }
  }

  private async personal(): Promise<RecallSource | undefined> {
    try {
      return await this.opts.personal?.();
    } catch (e) {
      this.opts.warn?.(`personal store unavailable: ${(e as Error)?.message ?? String(e)}`);
      return undefined;
    }
  }
}

export function clampK(k: number): number {
  return Number.isFinite(k) ? Math.min(MAX_RECALL_K, Math.max(1, Math.round(k))) : DEFAULT_RECALL_K;
}
