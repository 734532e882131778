// The server's write layer: what a write does is decided by the window's own write plan
// (core/writePlan.ts: masking, poisoning flags, dedup into evidence, the trust ladder); this file reads
// what the plan needs from the database and stores the events it returns — the memory row, its derived
// columns, the event rows, the word statistics — in one transaction per request. Writes to one tenant take
// its `tenants` row lock first, so two servers never plan against the same state at once, and the tenant's
// revision numbers the changes in commit order (the change feed reads them).
import { foldEvent } from '../core/reduce';
import { memorySignatures } from '../core/memoryText';
import type { PlanContext, StoreView } from '../core/writePlan';
import type { Memory, MemoryEvent } from '../core/types';
import { ApiError } from './apiError';
import type { Caller, Queryable } from './db';
import { derive, memoryVectorLiteral, type RowMeta, type Status, type Visibility } from './memoryRows';

export const CHANGES_CHANNEL = 'engram_changes';

/** A memory row as read back: the record and what the row says about it. */
export interface StoredMemory extends RowMeta { memory: Memory; rev: number }

export interface RowOut { body: Memory; visibility: Visibility; principal: string; status: Status; rev: string | number; embedding?: string | null }

export const ROW_COLUMNS = 'body, visibility, principal, status, rev';

export function stored(r: RowOut): StoredMemory {
  return { memory: r.body, visibility: r.visibility, principal: r.principal, status: r.status, rev: Number(r.rev) };
}

/** A write inside one caller transaction: the tenant is locked, its next revision taken. */
export class TenantWrite {
  private seq = 0;
  /** Word and document counts by scope ('' the team's, else the principal whose private memory it is). */
  private readonly termDelta = new Map<string, Map<string, number>>();
  private readonly docDelta = new Map<string, { docs: number; len: number }>();
  private touched = false;

  private constructor(private readonly q: Queryable, private readonly caller: Caller, readonly rev: number, private readonly vectors: boolean) {}

  static async begin(q: Queryable, caller: Caller, vectors: boolean): Promise<TenantWrite> {
    await q.query(`INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [caller.tenant]);
    const r = await q.query<{ revision: string }>(`UPDATE tenants SET revision = revision + 1 WHERE tenant_id = $1 RETURNING revision`, [caller.tenant]);
    if (!r.rows.length) throw new Error('tenant row not visible'); // only if row-level security and the caller disagree
    return new TenantWrite(q, caller, Number(r.rows[0].revision), vectors);
  }

  /** Stores the events a plan returned, in order; `meta` says who may see a new memory. */
  async apply(events: MemoryEvent[], meta: RowMeta, cache: Map<string, StoredMemory>): Promise<void> {
    for (const ev of events) {
      if (ev.type === 'recorded') {
        await this.insert(ev.memory, meta, ev);
        cache.set(ev.id, { memory: ev.memory, ...meta, rev: this.rev });
        continue;
      }
      const cur = cache.get(ev.id) ?? (await this.load(ev.id));
      if (!cur) continue; // gone meanwhile: the event changes nothing, as MemoryState ignores it
      if (ev.type === 'deleted' || ev.type === 'expired') {
        await this.remove(cur, ev.at);
        cache.delete(ev.id);
        continue;
      }
      const next = foldEvent(cur.memory, ev);
      if (!next) continue;
      await this.update(cur, next, ev);
      cache.set(ev.id, { ...cur, memory: next, rev: this.rev });
    }
  }

  async setStatus(cur: StoredMemory, status: Status, at: number): Promise<void> {
    await this.q.query(`UPDATE memories SET status = $2, rev = $3 WHERE tenant_id = $1 AND id = $4`, [this.caller.tenant, status, this.rev, cur.memory.id]);
    await this.event(cur.memory.id, cur, at, 'approved', { type: 'approved', id: cur.memory.id, at, by: this.caller.principal });
  }

  /** Word statistics, document counts and the change notification: call once, last. */
  async finish(): Promise<void> {
    const scopes: string[] = [];
    const terms: string[] = [];
    const deltas: number[] = [];
    for (const scope of [...this.termDelta.keys()].sort()) {
      const m = this.termDelta.get(scope)!;
      for (const t of [...m.keys()].sort()) {
        if (!m.get(t)) continue;
        scopes.push(scope); terms.push(t); deltas.push(m.get(t)!);
      }
    }
    if (terms.length) {
      await this.q.query(
        `INSERT INTO term_stats (tenant_id, scope, term, df) SELECT $1, s, t, d FROM unnest($2::text[], $3::text[], $4::int[]) AS x(s, t, d)
         ON CONFLICT (tenant_id, scope, term) DO UPDATE SET df = term_stats.df + excluded.df`,
        [this.caller.tenant, scopes, terms, deltas],
      );
      const fell = deltas.map((d, i) => (d < 0 ? i : -1)).filter(i => i >= 0);
      // A word no memory of the scope has any more leaves the table with its last memory (forget removes the text).
      if (fell.length) {
        await this.q.query(
          `DELETE FROM term_stats s USING unnest($2::text[], $3::text[]) AS x(sc, t) WHERE s.tenant_id = $1 AND s.scope = x.sc AND s.term = x.t AND s.df <= 0`,
          [this.caller.tenant, fell.map(i => scopes[i]), fell.map(i => terms[i])],
        );
      }
    }
    const changed = [...this.docDelta].filter(([, d]) => d.docs || d.len).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (changed.length) {
      await this.q.query(
        `INSERT INTO scope_stats (tenant_id, scope, docs, total_len) SELECT $1, s, d, l FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS x(s, d, l)
         ON CONFLICT (tenant_id, scope) DO UPDATE SET docs = scope_stats.docs + excluded.docs, total_len = scope_stats.total_len + excluded.total_len`,
        [this.caller.tenant, changed.map(([k]) => k), changed.map(([, d]) => d.docs), changed.map(([, d]) => d.len)],
      );
    }
    if (this.touched) await this.q.query(`SELECT pg_notify($1, $2)`, [CHANGES_CHANNEL, JSON.stringify({ tenant: this.caller.tenant, rev: this.rev })]);
  }

  private async load(id: string): Promise<StoredMemory | undefined> {
    const r = await this.q.query<RowOut>(`SELECT ${ROW_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [this.caller.tenant, id]);
    return r.rows[0] && stored(r.rows[0]);
  }

  private async insert(m: Memory, meta: RowMeta, ev: MemoryEvent): Promise<void> {
    const d = derive(m);
    const params: unknown[] = [
      this.caller.tenant, m.id, m.kind, meta.visibility, meta.principal, meta.status, m.maturity, m.expiresAt ?? null, m.updatedAt, this.rev,
      JSON.stringify(m), d.sigKeys, d.sigTexts, d.evidence, d.terms, d.tf, d.len,
      this.seq++, ev.at, ev.type, JSON.stringify(ev),
    ];
    const vec = this.vectors ? ', embedding' : '';
    if (this.vectors) params.push(memoryVectorLiteral(m));
    // The row and its `recorded` event in one statement (one round trip per memory). An id taken by a
    // memory this caller cannot see (another principal's private one) inserts nothing: a conflict, not
    // an aborted transaction, so the other items of a batch go on.
    const r = await this.q.query(
      `WITH row AS (
         INSERT INTO memories (tenant_id, id, kind, visibility, principal, status, maturity, expires_at, updated_at, rev, body, sig_keys, sig_texts, evidence, words, terms, tf, len${vec})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::text[], $13::text[], $14::text[], array_to_tsvector($15::text[]), $15::text[], $16::int[], $17${this.vectors ? ', $22::vector' : ''})
         ON CONFLICT (tenant_id, id) DO NOTHING RETURNING id)
       INSERT INTO events (tenant_id, rev, seq, memory_id, visibility, principal, at, type, body) SELECT $1, $10, $18, $2, $4, $5, $19, $20, $21::jsonb FROM row`,
      params,
    );
    if (!r.rowCount) throw new ApiError(409, 'conflict', 'a memory with that id exists; send it without an id or with another one');
    this.touched = true;
    this.countTerms(meta, d.terms, +1);
    this.countDoc(meta, +1, d.len);
  }

  private async update(cur: StoredMemory, next: Memory, ev: MemoryEvent): Promise<void> {
    if (ev.type === 'updated' || ev.type === 'evidence') {
      // The words or the evidence may have changed: every derived column again.
      const before = derive(cur.memory);
      const d = derive(next);
      const params: unknown[] = [this.caller.tenant, next.id, next.maturity, next.expiresAt ?? null, next.updatedAt, this.rev, JSON.stringify(next), d.sigKeys, d.sigTexts, d.evidence, d.terms, d.tf, d.len];
      if (this.vectors) params.push(memoryVectorLiteral(next));
      await this.q.query(
        `UPDATE memories SET maturity = $3, expires_at = $4, updated_at = $5, rev = $6, body = $7::jsonb, sig_keys = $8::text[], sig_texts = $9::text[], evidence = $10::text[],
           words = array_to_tsvector($11::text[]), terms = $11::text[], tf = $12::int[], len = $13${this.vectors ? ', embedding = $14::vector' : ''}
         WHERE tenant_id = $1 AND id = $2`,
        params,
      );
      this.countTerms(cur, before.terms, -1);
      this.countTerms(cur, d.terms, +1);
      this.countDoc(cur, 0, d.len - before.len);
    } else {
      await this.q.query(
        `UPDATE memories SET maturity = $3, expires_at = $4, updated_at = $5, rev = $6, body = $7::jsonb WHERE tenant_id = $1 AND id = $2`,
        [this.caller.tenant, next.id, next.maturity, next.expiresAt ?? null, next.updatedAt, this.rev, JSON.stringify(next)],
      );
    }
    await this.event(next.id, cur, ev.at, ev.type, ev);
  }

  /**
   * Forget and expiry: the row goes, with every event that carried its text; what stays is a tombstone
   * (id and time, so a late copy of the record is not stored again) and a `deleted` event with no text
   * (the change feed tells other windows to drop their copy).
   */
  private async remove(cur: StoredMemory, at: number): Promise<void> {
    const id = cur.memory.id;
    const d = derive(cur.memory);
    await this.q.query(`DELETE FROM memories WHERE tenant_id = $1 AND id = $2`, [this.caller.tenant, id]);
    await this.q.query(`DELETE FROM events WHERE tenant_id = $1 AND memory_id = $2`, [this.caller.tenant, id]);
    await this.q.query(`INSERT INTO tombstones (tenant_id, id, visibility, principal, at, rev) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, [this.caller.tenant, id, cur.visibility, cur.principal, at, this.rev]);
    this.countTerms(cur, d.terms, -1);
    this.countDoc(cur, -1, -d.len);
    await this.event(id, cur, at, 'deleted', { type: 'deleted', id, at });
  }

  private async event(id: string, meta: RowMeta, at: number, type: string, body: object): Promise<void> {
    await this.q.query(
      `INSERT INTO events (tenant_id, rev, seq, memory_id, visibility, principal, at, type, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
      [this.caller.tenant, this.rev, this.seq++, id, meta.visibility, meta.principal, at, type, JSON.stringify(body)],
    );
    this.touched = true;
  }

  private countTerms(meta: RowMeta, terms: string[], sign: 1 | -1): void {
    const scope = statsScope(meta);
    let m = this.termDelta.get(scope);
    if (!m) { m = new Map(); this.termDelta.set(scope, m); }
    for (const t of terms) m.set(t, (m.get(t) ?? 0) + sign);
  }

  private countDoc(meta: RowMeta, docs: number, len: number): void {
    const scope = statsScope(meta);
    const d = this.docDelta.get(scope) ?? { docs: 0, len: 0 };
    d.docs += docs;
    d.len += len;
    this.docDelta.set(scope, d);
  }
}

/** Whose word statistics a memory counts in: the team's (''), or its principal's when it is private. */
export function statsScope(meta: Pick<RowMeta, 'visibility' | 'principal'>): string {
  return meta.visibility === 'team' ? '' : meta.principal;
}

/**
 * The StoreView a write plan reads, over the memories prefetched for it (those sharing a new lesson's
 * signature, facts sharing its words, the evidence of a memory given feedback): the plan's questions are
 * always about those, so nothing else of the tenant needs reading. `cache` is also what TenantWrite.apply
 * updates, so later items of one batch see the earlier ones.
 */
export class PlanView implements StoreView {
  readonly cache = new Map<string, StoredMemory>();
  private readonly bySig = new Map<string, Set<string>>();
  constructor(rows: Iterable<StoredMemory>, private readonly tombstoned: Set<string>) {
    for (const r of rows) this.cache.set(r.memory.id, r);
    this.reindex(this.cache.keys());
  }
  get(id: string): Memory | undefined { return this.cache.get(id)?.memory; }
  has(id: string): boolean { return this.cache.has(id); }
  isTombstoned(id: string): boolean { return this.tombstoned.has(id); }
  all(): Memory[] { return [...this.cache.values()].map(s => s.memory); }
  idsWithSignature(key: string): Iterable<string> { return this.bySig.get(key) ?? []; }
  /** After a write changed these ids in `cache`: the signature index follows (a forgotten id stays filed; get() says it is gone). */
  reindex(ids: Iterable<string>): void {
    for (const id of ids) {
      const s = this.cache.get(id);
      if (!s) { this.tombstoned.add(id); continue; }
      for (const key of memorySignatures(s.memory)) {
        let set = this.bySig.get(key);
        if (!set) { set = new Set(); this.bySig.set(key, set); }
        set.add(id);
      }
    }
  }
}

export function planContext(now: number, workspace: string | undefined): PlanContext {
  return { now, ...(workspace ? { workspace } : {}) };
}
