// How a change made through one `engram serve` reaches clients waiting on another: every write sends a
// NOTIFY with its tenant and revision at commit (writes.ts); each server LISTENs and wakes the long polls
// of that tenant (GET /v1/changes?wait=…). Where LISTEN is unavailable or its connection broke, the hub
// polls the tenants' revisions instead until it can listen again, so a change is late, never lost (the
// client asks from its own last revision either way). Token revocations come on the same channel
// ({"revoked": id}); whoever caches tokens hears of them, and of every time notifications may have been
// missed (onGap), through the hub.
import type { Logger } from '../core/types';
import type { Db } from './db';
import { CHANGES_CHANNEL } from './writes';

const POLL_MS = 2000;
const RELISTEN_MS = 5000;

interface Waiter { after: number; wake(): void }

export class ChangeHub {
  private readonly latest = new Map<string, number>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private stopListen?: () => Promise<void>;
  private poller?: ReturnType<typeof setInterval>;
  private relisten?: ReturnType<typeof setTimeout>;
  private closed = false;
  /** 'listen' while NOTIFY arrives, 'poll' while the hub reads revisions itself. */
  mode: 'listen' | 'poll' = 'poll';
  private readonly revokedFns: ((tokenId: string) => void)[] = [];
  private readonly gapFns: (() => void)[] = [];

  constructor(private readonly db: Db, private readonly log: Logger) {}

  async start(): Promise<void> {
    await this.listen();
  }

  /** `fn(tokenId)` for each revocation any server makes. */
  onRevoked(fn: (tokenId: string) => void): void { this.revokedFns.push(fn); }
  /** `fn()` whenever notifications may have been missed (listening stopped or started again). */
  onGap(fn: () => void): void { this.gapFns.push(fn); }

  private async listen(): Promise<void> {
    if (this.closed) return;
    try {
      this.stopListen = await this.db.listen(CHANGES_CHANNEL, p => this.notified(p), e => this.lost(e));
      this.mode = 'listen';
      this.stopPolling();
      for (const fn of this.gapFns) fn();
    } catch (e) {
      this.lost(e as Error);
    }
  }

  private lost(e: Error): void {
    if (this.closed) return;
    this.log.warn(`change notifications unavailable (${e.message}); polling every ${POLL_MS / 1000} s`);
    this.stopListen = undefined;
    this.mode = 'poll';
    for (const fn of this.gapFns) fn();
    this.poller ??= setInterval(() => { void this.poll(); }, POLL_MS);
    this.relisten ??= setTimeout(() => { this.relisten = undefined; void this.listen(); }, RELISTEN_MS);
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
  }

  private async poll(): Promise<void> {
    if (!this.waiters.size) return;
    try {
      const r = await this.db.ownerTx(q => q.query<{ tenant_id: string; revision: string }>(`SELECT tenant_id, revision FROM tenants WHERE tenant_id = ANY($1::text[])`, [[...this.waiters.keys()]]));
      for (const row of r.rows) this.advance(row.tenant_id, Number(row.revision));
    } catch { /* the database is away; the next poll tries again */ }
  }

  private notified(payload: string): void {
    try {
      const p = JSON.parse(payload) as { tenant?: unknown; rev?: unknown; revoked?: unknown };
      if (typeof p.tenant === 'string' && typeof p.rev === 'number') this.advance(p.tenant, p.rev);
      if (typeof p.revoked === 'string') for (const fn of this.revokedFns) fn(p.revoked);
    } catch { /* not ours */ }
  }

  private advance(tenant: string, rev: number): void {
    if ((this.latest.get(tenant) ?? 0) < rev) this.latest.set(tenant, rev);
    const set = this.waiters.get(tenant);
    if (!set) return;
    for (const w of [...set]) if (rev > w.after) w.wake();
  }

  /** Resolves when the tenant's revision passes `after` (true) or after `ms` (false). */
  wait(tenant: string, after: number, ms: number): Promise<boolean> {
    if ((this.latest.get(tenant) ?? 0) > after) return Promise.resolve(true);
    return new Promise(resolve => {
      let set = this.waiters.get(tenant);
      if (!set) { set = new Set(); this.waiters.set(tenant, set); }
      const done = (hit: boolean) => {
        clearTimeout(timer);
        set!.delete(w);
        if (!set!.size) this.waiters.delete(tenant);
        resolve(hit);
      };
      const w: Waiter = { after, wake: () => done(true) };
      const timer = setTimeout(() => done(false), ms);
      set.add(w);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopPolling();
    if (this.relisten) clearTimeout(this.relisten);
    for (const set of this.waiters.values()) for (const w of [...set]) w.wake();
    await this.stopListen?.().catch(() => undefined);
  }
}
