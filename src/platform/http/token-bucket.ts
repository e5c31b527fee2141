// Per-key rate limit as a token bucket: `perSecond` sustained with bursts up to `burst` (interface
// §8: 100 requests/s, bursts up to 200). Kept in process memory: with N API processes a key can
// reach N times the rate, which the docs state.
export interface TakeResult {
  allowed: boolean;
  /** Seconds until a request would be allowed (when refused). */
  retryAfterSeconds: number;
  remaining: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(key: string): TakeResult {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.forgetFullBuckets(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.floor(bucket.tokens) };
    }
    return {
      allowed: false,
      retryAfterSeconds: Math.ceil((1 - bucket.tokens) / this.perSecond),
      remaining: 0,
    };
  }

  /** A bucket that has refilled is the same as no bucket: drop those to bound memory. */
  private forgetFullBuckets(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond >= this.burst)
        this.buckets.delete(key);
    }
  }
}
