import { describe, expect, it } from 'vitest';
import { clientKey, TokenBucket, TokenBuckets } from './rate-limit.js';

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

describe('TokenBuckets', () => {
  it('gives each key a bucket of its own', () => {
    const buckets = new TokenBuckets(1, 2, 10, () => 0);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a') > 0]).toEqual([0, 0, true]);
    expect(buckets.take('b')).toBe(0);
  });

  it('keeps at most maxKeys buckets, forgetting the one used longest ago', () => {
    const buckets = new TokenBuckets(1, 1, 2, () => 0);
    buckets.take('a');
    buckets.take('b');
    expect(buckets.take('a')).toBeGreaterThan(0); // a is now the most recently used
    buckets.take('c'); // b goes
    expect(buckets.take('a')).toBeGreaterThan(0);
    expect(buckets.take('b')).toBe(0); // forgotten: full again
  });
});

describe('clientKey', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.45.6.7', 'loopback'], // any of 127.0.0.0/8: a local process cannot get a budget per address
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.2', 'loopback'],
    ['10.1.2.3', '10.1.2.3'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:ffff::2', '2001:db8:0:0::/64'], // the same /64
    ['2001:0DB8:0:1::1%eth0', '2001:db8:0:1::/64'],
    [undefined, 'unknown'],
  ])('%s → %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
