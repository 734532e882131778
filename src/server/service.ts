// What the team server does, for a caller: every HTTP route and every MCP tool calls one of these. Input
// is parsed here (the import format for memories, plain checks for the rest); access rules that depend on
// the role live here too, while tenant and privacy are the database's row-level security.
import { historyEntry } from '../core/history';
import { parseImportLine } from '../core/importFormat';
import { recallResultJson } from '../core/recallJson';
import { mean, workspaceConfidence } from '../core/trust';
import type { FeedbackOutcome, HistoryEntry, Memory, MemoryEvent, MemoryKind, RecallResult } from '../core/types';
import { planFeedback, planRecord, prepareImported } from '../core/writePlan';
import type { Caller, Db, Queryable } from './db';
import { anyTermQuery, derive, type Visibility } from './memoryRows';
import { RecallService } from '../core/recallService';
import { TenantRecallSource } from './tenantRecallSource';
import { PlanView, ROW_COLUMNS, TenantWrite, planContext, stored, type RowOut, type StoredMemory } from './writes';
import { nameProblem } from './tokens';
import { ApiError } from './apiError';

export { ApiError };

export const MAX_K = 50;
export const MAX_BATCH = 500;
const MAX_LIST = 1000;
const KINDS: readonly MemoryKind[] = ['lesson', 'episode', 'fact', 'rule'];

export interface ServiceOptions { db: Db; vectors: boolean; now?: () => number }

export interface RecordResult { id: string; status: 'approved' | 'proposed'; merged?: boolean; flagged?: string[] }

export class TeamService {
  private readonly now: () => number;
  constructor(private readonly opts: ServiceOptions) { this.now = opts.now ?? Date.now; }

  get db(): Db { return this.opts.db; }

  // ---- writes ----

  async record(caller: Caller, body: unknown): Promise<RecordResult> {
    const input = this.parseMemory(caller, body, 1);
    return this.opts.db.callerTx(caller, async q => {
      const w = await TenantWrite.begin(q, caller, this.opts.vectors);
      const r = await this.recordOne(w, caller, input, await this.viewFor(q, caller, [input.memory]));
      await w.finish();
      return r;
    });
  }

  /** Several memories in one transaction; a bad one is reported by index and the others are stored. */
  async recordBatch(caller: Caller, body: unknown): Promise<{ results: (RecordResult | { error: string })[] }> {
    const list = (body as { memories?: unknown })?.memories;
    if (!Array.isArray(list)) throw new ApiError(400, 'bad_request', 'the body must be {"memories": [...]}');
    if (list.length > MAX_BATCH) throw new ApiError(413, 'too_many', `at most ${MAX_BATCH} memories per batch`);
    const parsed = list.map((m, i) => { try { return this.parseMemory(caller, m, i + 1); } catch (e) { return e as Error; } });
    return this.opts.db.callerTx(caller, async q => {
      const w = await TenantWrite.begin(q, caller, this.opts.vectors);
      const results: (RecordResult | { error: string })[] = [];
      // One read for the whole batch: what every item's plan may ask about.
      const view = await this.viewFor(q, caller, parsed.filter((p): p is ParsedInput => !(p instanceof Error)).map(p => p.memory));
      for (const p of parsed) {
        if (p instanceof Error) { results.push({ error: p.message }); continue; }
        try {
          results.push(await this.recordOne(w, caller, p, view));
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          results.push({ error: e.message });
        }
      }
      await w.finish();
      return { results };
    });
  }

  private parseMemory(caller: Caller, body: unknown, n: number): ParsedInput {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bad_request', 'a memory must be a JSON object');
    const { visibility: vis, workspace, ...rest } = body as Record<string, unknown>;
    const visibility = vis === undefined ? 'team' : vis;
    if (visibility !== 'team' && visibility !== 'private') throw new ApiError(400, 'bad_request', '"visibility" must be "team" or "private"');
    const ws = this.workspaceOf(workspace);
    const now = this.now();
    const parsed = parseImportLine(JSON.stringify(rest), n, now, {});
    if (!parsed.ok) throw new ApiError(400, 'bad_request', parsed.error);
    // The owner is who the token says, whatever the line claims.
    const owner = { scope: visibility === 'team' ? 'team' as const : 'personal' as const, workspace: caller.tenant, principal: caller.principal, ...(parsed.memory.owner?.agent ? { agent: parsed.memory.owner.agent } : {}) };
    let memory: Memory;
    try {
      memory = prepareImported({ ...parsed.memory, owner }, {}, planContext(now, ws)).memory;
    } catch (e) {
      throw new ApiError(400, 'bad_request', (e as Error).message);
    }
    return { memory, explicitId: parsed.explicitId, visibility, workspace: ws };
  }

  private async recordOne(w: TenantWrite, caller: Caller, input: ParsedInput, view: PlanView): Promise<RecordResult> {
    const m = input.memory;
    if (view.has(m.id) || view.isTombstoned(m.id)) throw new ApiError(409, 'conflict', `a memory with id "${m.id}" ${view.isTombstoned(m.id) ? 'was forgotten' : 'exists'}; send it without an id or with another one`);
    const status = input.visibility === 'private' || caller.role !== 'member' ? 'approved' : 'proposed';
    const ctx = planContext(this.now(), input.workspace);
    // A line that names its own id is kept as itself (as import does); otherwise a repeat becomes evidence.
    const plan = input.explicitId ? { id: m.id, events: [{ type: 'recorded' as const, id: m.id, at: ctx.now, memory: m }] } : planRecord(view, m, ctx);
    const ids = [...new Set(plan.events.map(e => e.id))];
    const before = new Map(ids.map(id => [id, view.cache.get(id)]));
    try {
      await w.apply(plan.events, { visibility: input.visibility, principal: caller.principal, status }, view.cache);
    } catch (e) {
      // A conflict is found before anything of the item is stored: the view forgets the item too.
      for (const [id, s] of before) { if (s) view.cache.set(id, s); else view.cache.delete(id); }
      throw e;
    }
    view.reindex(ids);
    const kept = view.cache.get(plan.id);
    const merged = plan.id !== m.id;
    return {
      id: plan.id, status: kept?.status ?? status, ...(merged ? { merged: true } : {}),
      ...(kept?.memory.flagged?.length ? { flagged: kept.memory.flagged } : {}),
    };
  }

  /** What planRecord may ask about: lessons under the same signatures, facts sharing words, the ids themselves, and which ids were forgotten. */
  private async viewFor(q: Queryable, caller: Caller, ms: Memory[]): Promise<PlanView> {
    const ids = ms.map(m => m.id);
    const keys = [...new Set(ms.flatMap(m => (m.kind === 'lesson' ? derive(m).sigKeys : [])))];
    const terms = [...new Set(ms.flatMap(m => (m.kind === 'fact' ? derive(m).terms.slice(0, 64) : [])))].slice(0, 512);
    // One round trip: the forgotten ids among them, and the memories the plans may ask about.
    const r = await q.query<RowOut & { tombs: string[] | null }>(
      `SELECT x.tombs, m.* FROM (SELECT array(SELECT id FROM tombstones WHERE tenant_id = $1 AND id = ANY($2::text[])) AS tombs) x
       LEFT JOIN LATERAL (SELECT ${ROW_COLUMNS} FROM memories WHERE tenant_id = $1 AND (id = ANY($2::text[]) OR (kind = 'lesson' AND sig_keys && $3::text[]) OR (kind = 'fact' AND $4 <> '' AND words @@ $4::tsquery))
         ORDER BY updated_at DESC LIMIT ${2000 + ms.length}) m ON true`,
      [caller.tenant, ids, keys, terms.length ? anyTermQuery(terms) : ''],
    );
    return new PlanView(r.rows.filter(x => x.body).map(stored), new Set(r.rows[0]?.tombs ?? []));
  }

  async feedback(caller: Caller, id: string, body: unknown): Promise<{ id: string; outcome: FeedbackOutcome; maturity: string; previousMaturity: string; confidence: number }> {
    const b = (body ?? {}) as { outcome?: unknown; reason?: unknown; workspace?: unknown; file?: unknown };
    if (b.outcome !== 'prevented' && b.outcome !== 'still_failed') throw new ApiError(400, 'bad_request', '"outcome" must be "prevented" or "still_failed"');
    if (b.reason !== undefined && (typeof b.reason !== 'string' || b.reason.length > 1000)) throw new ApiError(400, 'bad_request', '"reason" must be a string of at most 1000 characters');
    if (b.file !== undefined && (typeof b.file !== 'string' || b.file.length > 1000)) throw new ApiError(400, 'bad_request', '"file" must be a workspace-relative path');
    const ws = this.workspaceOf(b.workspace);
    const outcome = b.outcome;
    return this.opts.db.callerTx(caller, async q => {
      const w = await TenantWrite.begin(q, caller, this.opts.vectors);
      const cur = await this.mustGet(q, caller, id, true);
      const ev = cur.memory.kind === 'lesson' ? cur.memory.evidence : [];
      const rows = [cur, ...(await this.rowsByIds(q, caller, ev))];
      const view = new PlanView(rows, new Set());
      const ctx = planContext(this.now(), ws ?? caller.tenant);
      const events = planFeedback(view, cur.memory, outcome, { reason: b.reason as string | undefined, file: b.file as string | undefined }, ctx);
      await w.apply(events, cur, view.cache);
      await w.finish();
      const m = view.cache.get(id)!.memory;
      return { id, outcome, maturity: m.maturity, previousMaturity: cur.memory.maturity, confidence: round(workspaceConfidence(m, ws ?? caller.tenant)) };
    });
  }

  /** Forget: the author, or a reviewer or admin for a team memory. The text leaves every table. */
  async forget(caller: Caller, id: string): Promise<{ forgotten: string }> {
    return this.opts.db.callerTx(caller, async q => {
      const w = await TenantWrite.begin(q, caller, this.opts.vectors);
      const cur = await this.mustGet(q, caller, id, true);
      if (cur.principal !== caller.principal && caller.role === 'member') {
        throw new ApiError(403, 'forbidden', 'only its author, a reviewer or an admin may forget a team memory');
      }
      await w.apply([{ type: 'deleted', id, at: this.now() }], cur, new Map([[id, cur]]));
      await w.finish();
      return { forgotten: id };
    });
  }

  /** A reviewer's approval of a memory a member proposed to the team. */
  async approve(caller: Caller, id: string): Promise<{ id: string; status: 'approved' }> {
    if (caller.role === 'member') throw new ApiError(403, 'forbidden', 'approving needs the reviewer or admin role');
    return this.opts.db.callerTx(caller, async q => {
      const w = await TenantWrite.begin(q, caller, this.opts.vectors);
      const cur = await this.mustGet(q, caller, id, true);
      if (cur.visibility !== 'team') throw new ApiError(409, 'conflict', 'a private memory is not proposed to the team');
      if (cur.status !== 'approved') await w.setStatus(cur, 'approved', this.now());
      await w.finish();
      return { id, status: 'approved' };
    });
  }

  // ---- reads ----

  async recall(caller: Caller, body: unknown): Promise<{ query: string; file?: string; results: ReturnType<typeof recallResultJson>[] }> {
    const r = await this.recallResults(caller, body);
    return { query: r.query, ...(r.file ? { file: r.file } : {}), results: r.results.map(recallResultJson) };
  }

  async recallResults(caller: Caller, body: unknown): Promise<{ query: string; file?: string; results: RecallResult[] }> {
    const b = (body ?? {}) as { query?: unknown; file?: unknown; k?: unknown; proactive?: unknown; kinds?: unknown; workspace?: unknown };
    if (typeof b.query !== 'string' || !b.query.trim()) throw new ApiError(400, 'bad_request', '"query" must be a non-empty string');
    if (b.file !== undefined && (typeof b.file !== 'string' || b.file.length > 1000)) throw new ApiError(400, 'bad_request', '"file" must be a workspace-relative path');
    if (b.k !== undefined && (typeof b.k !== 'number' || !Number.isInteger(b.k) || b.k < 1 || b.k > MAX_K)) throw new ApiError(400, 'bad_request', `"k" must be a whole number from 1 to ${MAX_K}`);
    if (b.proactive !== undefined && typeof b.proactive !== 'boolean') throw new ApiError(400, 'bad_request', '"proactive" must be true or false');
    let kinds: MemoryKind[] | undefined;
    if (b.kinds !== undefined) {
      if (!Array.isArray(b.kinds) || !b.kinds.every(k => KINDS.includes(k as MemoryKind))) throw new ApiError(400, 'bad_request', `"kinds" must be a list of ${KINDS.join(', ')}`);
      kinds = b.kinds as MemoryKind[];
    }
    const ws = this.workspaceOf(b.workspace);
    const file = typeof b.file === 'string' && b.file ? b.file.replace(/\\/g, '/').replace(/^\.\//, '') : undefined;
    const query = { text: b.query, file, k: b.k as number | undefined, proactive: b.proactive === true || undefined, kinds };
    const now = this.now();
    // The one recall service every surface asks, over this tenant's database as its store: the team's
    // memories and the caller's own private ones (owner 'personal' on the server).
    // The source reads in one round trip as the caller (its own transaction), then ranks without the database.
    const results = await new RecallService({
      workspace: async () => new TenantRecallSource(this.opts.db, caller, { vectors: this.opts.vectors, workspace: ws, now }),
      owners: () => ['team', 'personal'],
    }).recall(query);
    return { query: b.query, ...(file ? { file } : {}), results };
  }

  async get(caller: Caller, id: string): Promise<MemoryDetail> {
    return this.opts.db.callerTx(caller, async q => {
      const cur = await this.mustGet(q, caller, id, false);
      const ev = await q.query<{ body: MemoryEvent & { by?: string }; principal: string; type: string; at: string }>(
        `SELECT body, principal, type, at FROM events WHERE tenant_id = $1 AND memory_id = $2 ORDER BY rev, seq`, [caller.tenant, id],
      );
      const history: (HistoryEntry | { type: 'approved'; at: number; detail: string })[] = ev.rows.map(r =>
        r.type === 'approved'
          ? { type: 'approved' as const, at: Number(r.at), detail: `approved for the team by ${r.body.by ?? 'a reviewer'}` }
          : historyEntry(r.body));
      const m = cur.memory;
      return {
        memory: m, visibility: cur.visibility, status: cur.status, author: cur.principal, principal: cur.principal,
        confidence: round(mean(m.confidence)), evidence: m.kind === 'lesson' ? m.evidence : [], history,
      };
    });
  }

  /** Team memories a reviewer has yet to approve. */
  async proposed(caller: Caller): Promise<{ memories: { memory: Memory; author: string }[] }> {
    if (caller.role === 'member') throw new ApiError(403, 'forbidden', 'the review list needs the reviewer or admin role');
    return this.opts.db.callerTx(caller, async q => {
      const r = await q.query<RowOut>(`SELECT ${ROW_COLUMNS} FROM memories WHERE tenant_id = $1 AND visibility = 'team' AND status = 'proposed' ORDER BY updated_at DESC LIMIT ${MAX_LIST}`, [caller.tenant]);
      return { memories: r.rows.map(stored).map(s => ({ memory: s.memory, author: s.principal })) };
    });
  }

  /**
   * What changed after revision `after`: the memories as they are now (approved team memories and the
   * caller's own) and the ids that are gone, in revision order, at most `limit`. `after=0` is a full copy.
   * A window keeps its copy in step with this (its offline store).
   */
  async changes(caller: Caller, after: number, limit = MAX_LIST): Promise<ChangePage> {
    const n = Math.max(1, Math.min(MAX_LIST, limit));
    return this.opts.db.callerTx(caller, async q => {
      const head = Number((await q.query<{ revision: string }>(`SELECT revision FROM tenants WHERE tenant_id = $1`, [caller.tenant])).rows[0]?.revision ?? 0);
      const rows = await q.query<RowOut>(
        `SELECT ${ROW_COLUMNS} FROM memories WHERE tenant_id = $1 AND rev > $2 AND (status = 'approved' OR principal = current_setting('engram.principal', true))
         ORDER BY rev, id LIMIT $3`, [caller.tenant, after, n + 1],
      );
      const more = rows.rows.length > n;
      const mem = rows.rows.slice(0, n).map(stored);
      // Up to the last revision fully included: the page stops inside a revision only when one holds more than a page.
      let upTo = more ? mem[mem.length - 1].rev - 1 : head;
      if (more && upTo <= after) upTo = mem[mem.length - 1].rev;
      const gone = await q.query<{ id: string }>(`SELECT id FROM tombstones WHERE tenant_id = $1 AND rev > $2 AND rev <= $3 ORDER BY rev`, [caller.tenant, after, upTo]);
      return {
        revision: upTo, head, more,
        memories: mem.filter(s => s.rev <= upTo).map(s => ({ memory: s.memory, visibility: s.visibility, status: s.status, author: s.principal })),
        deleted: gone.rows.map(r => r.id),
      };
    });
  }

  /** The tenant's current revision (the change feed's long poll compares with it). */
  async revision(caller: Caller): Promise<number> {
    return this.opts.db.callerTx(caller, async q => Number((await q.query<{ revision: string }>(`SELECT revision FROM tenants WHERE tenant_id = $1`, [caller.tenant])).rows[0]?.revision ?? 0));
  }

  // ---- helpers ----

  private async mustGet(q: Queryable, caller: Caller, id: string, lock: boolean): Promise<StoredMemory> {
    if (typeof id !== 'string' || !id || id.length > 200) throw new ApiError(400, 'bad_request', 'a memory id is required');
    const r = await q.query<RowOut>(`SELECT ${ROW_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [caller.tenant, id]);
    // Another tenant's memory, or another principal's private one, is not there for this caller: 404 alike.
    if (!r.rows.length) throw new ApiError(404, 'not_found', `no memory with id ${id}`);
    return stored(r.rows[0]);
  }

  private async rowsByIds(q: Queryable, caller: Caller, ids: string[]): Promise<StoredMemory[]> {
    if (!ids.length) return [];
    const r = await q.query<RowOut>(`SELECT ${ROW_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = ANY($2::text[])`, [caller.tenant, ids.slice(0, 500)]);
    return r.rows.map(stored);
  }

  private workspaceOf(v: unknown): string | undefined {
    if (v === undefined) return undefined;
    const p = typeof v === 'string' ? nameProblem('workspace', v) : '"workspace" must be a string';
    if (p) throw new ApiError(400, 'bad_request', p);
    return v as string;
  }
}

interface ParsedInput { memory: Memory; explicitId: boolean; visibility: Visibility; workspace?: string }

export interface MemoryDetail {
  memory: Memory; visibility: Visibility; status: string; author: string; principal: string; confidence: number; evidence: string[];
  history: (HistoryEntry | { type: 'approved'; at: number; detail: string })[];
}

export interface ChangePage {
  /** Apply this page and ask again with after = revision (while `more`). */
  revision: number;
  head: number;
  more: boolean;
  memories: { memory: Memory; visibility: Visibility; status: string; author: string }[];
  deleted: string[];
}

function round(x: number): number { return Math.round(x * 1000) / 1000; }
