/**
 * A token bucket: `burst` requests at once, refilled at `perSecond`. The hub puts one in front of
 * /openspace/* so a runaway poller (or a page hammering the loopback port) cannot starve it.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Take one token: 0 when allowed, otherwise the seconds until one is available. */
  take(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return (1 - this.tokens) / this.perSecond;
  }
}
