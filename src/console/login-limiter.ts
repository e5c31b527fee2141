// Sign-in attempts per IP address (docs/console-api.md: 20 per 10 minutes): a fixed window per
// address, on the platform clock. In process memory, like the API key limiter: with N API
// processes an address gets N times the attempts; the per-account lockout is in the database.
export class LoginLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly attempts: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  take(key: string): number {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      if (this.windows.size >= 100_000) this.forgetEnded(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count > this.attempts ? Math.ceil((window.startedAt + this.windowMs - now) / 1000) : 0;
  }

  private forgetEnded(now: number) {
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
    }
  }
}
