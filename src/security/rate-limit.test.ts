import { describe, expect, it } from 'vitest';
import { TokenBucket } from './rate-limit.js';

describe('TokenBucket', () => {
  it('allows a burst, then refuses with the wait until the next token, and refills over time', () => {
    let t = 0;
    const bucket = new TokenBucket(10, 3, () => t);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([0, 0, 0]);
    expect(bucket.take()).toBeCloseTo(0.1);
    t += 100; // 1 token back
    expect(bucket.take()).toBe(0);
    expect(bucket.take()).toBeGreaterThan(0);
    t += 10_000; // never more than the burst
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take() > 0]).toEqual([0, 0, 0, true]);
  });
});
