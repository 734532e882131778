// Which caller a Bearer token stands for, remembered for a short while so a request does not spend a
// round trip on the token lookup. A cached token is never trusted alone: every request's first round trip
// also checks that the token is still live (db.ts callerPrelude), so a revocation is refused at once on
// every server. The cache follows revocations besides — `token revoke` sends a notification each server's
// change hub hears (changeHub.ts), and the entry goes — and is emptied whenever notifications were lost.
import type { Caller, Db } from './db';
import { tokenHash, verifyToken } from './tokens';

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export type TokenCaller = Caller & { tokenId: string };

export class TokenCache {
  private readonly byHash = new Map<string, { caller: TokenCaller; until: number }>();
  /** Bumped by every revocation: a lookup that started before one does not fill the cache. */
  private generation = 0;

  constructor(private readonly db: Db, private readonly opts: { ttlMs?: number; now?: () => number } = {}) {}

  async verify(token: string): Promise<TokenCaller | undefined> {
    const now = (this.opts.now ?? Date.now)();
    const hash = tokenHash(token);
    const hit = this.byHash.get(hash);
    if (hit && hit.until > now) return hit.caller;
    if (hit) this.byHash.delete(hash);
    const gen = this.generation;
    const caller = await verifyToken(this.db, token);
    // Unknown tokens are not remembered: a token made a moment ago must work at once.
    if (caller && gen === this.generation) {
      if (this.byHash.size >= MAX_ENTRIES) this.byHash.delete(this.byHash.keys().next().value as string);
      this.byHash.set(hash, { caller, until: now + (this.opts.ttlMs ?? TTL_MS) });
    }
    return caller;
  }

  /** A token was revoked (here or on another server). */
  revoked(tokenId: string): void {
    this.generation++;
    for (const [h, e] of this.byHash) if (e.caller.tokenId === tokenId) this.byHash.delete(h);
  }

  /** Notifications may have been missed: forget everything. */
  clear(): void {
    this.generation++;
    this.byHash.clear();
  }

  has(tokenId: string): boolean {
    for (const e of this.byHash.values()) if (e.caller.tokenId === tokenId) return true;
    return false;
  }
}
