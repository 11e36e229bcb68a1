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

/**
 * One TokenBucket per key (a client's address), at most `maxKeys` of them: when more keys come, the
 * one used longest ago is forgotten (and starts full again if it comes back).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly maxKeys = 1024,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Take one token from `key`'s bucket: 0 when allowed, otherwise the seconds until one is available. */
  take(key: string): number {
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    else {
      bucket = new TokenBucket(this.perSecond, this.burst, this.now);
      const oldest = this.buckets.keys().next();
      if (this.buckets.size >= this.maxKeys && !oldest.done) this.buckets.delete(oldest.value);
    }
    // Map order is insertion order: re-inserting keeps the most recently used last.
    this.buckets.set(key, bucket);
    return bucket.take();
  }
}

/**
 * Whom a request's source address stands for when limiting: every loopback address is one client (a
 * local process may send from any of 127.0.0.0/8, so they must not each get a budget of their own),
 * an IPv4 address itself, an IPv6 address its /64 (what one host or site is given).
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const ip = address.replace(/%.*$/, '').replace(/^::ffff:(?=\d+\.)/i, '');
  if (/^127\./.test(ip) || /^(0*:)*:?0*1$/.test(ip)) return 'loopback';
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
