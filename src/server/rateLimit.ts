// Requests per token: a token bucket per key (the token's id), refilled continuously. Per server
// process: N servers behind a balancer allow up to N times the rate, which bounds a runaway client
// without a shared counter in the database on every request.
export interface RateLimitOptions { perSecond: number; burst: number; now?: () => number }

interface Bucket { tokens: number; at: number }

/** Buckets idle this long are dropped, so a key that stops calling costs nothing. */
const IDLE_MS = 10 * 60_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private sweptAt = 0;

  constructor(private readonly opts: RateLimitOptions) { this.now = opts.now ?? Date.now; }

  /** 0 when the request may go ahead; otherwise the seconds to wait before the next one. */
  take(key: string): number {
    if (this.opts.perSecond <= 0) return 0;
    const now = this.now();
    this.sweep(now);
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, at: now };
    b.tokens = Math.min(this.opts.burst, b.tokens + ((now - b.at) / 1000) * this.opts.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) { b.tokens -= 1; return 0; }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.opts.perSecond));
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < IDLE_MS) return;
    this.sweptAt = now;
    for (const [k, b] of this.buckets) if (now - b.at > IDLE_MS) this.buckets.delete(k);
  }
}
