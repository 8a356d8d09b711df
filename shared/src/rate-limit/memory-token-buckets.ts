import { BoundedMap } from "../core/bounded-map.ts";
import type { RateRule } from "./token-bucket.ts";
import {
  bucketLevel,
  decisionFor,
  msUntilFull,
  peekDecision,
  takeFromBucket,
  type BucketDecision,
  type BucketState,
  type TokenBuckets,
} from "./token-bucket.ts";

export interface MemoryTokenBucketsOptions {
  /** Milliseconds on a monotonic clock. Default performance.now(): a wall-clock step must not refill or drain buckets. */
  now?: () => number;
  /** Most buckets kept at once. Default 100,000 (a few tens of MB at worst). */
  maxBuckets?: number;
  /** How often full buckets are dropped. Default every minute. */
  sweepEveryMs?: number;
}

interface StoredBucket extends BucketState {
  /** When the bucket will be full again; from then on it is the same as no bucket. */
  fullAtMs: number;
}

/**
 * Token buckets in this process: the limit holds per process. Used
 * without REDIS_URL (one instance) and as the Redis buckets' fallback.
 *
 * Memory stays bounded with one client address per key: a full bucket is
 * the same as a missing one, so full buckets are dropped on a periodic
 * sweep (run by `take` itself, so there is no timer to stop); and past
 * `maxBuckets` the least recently used bucket goes even if not full. That
 * only happens when more clients than that were active within one refill
 * time, a distributed flood a per-address limit cannot stop anyway; the
 * evicted client just gets a fresh burst.
 */
export class MemoryTokenBuckets implements TokenBuckets {
  // Every take writes its key again, so the oldest entry is the least recently used.
  private readonly buckets: BoundedMap<string, StoredBucket>;
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private lastSweepAt: number;

  constructor(options: MemoryTokenBucketsOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.buckets = new BoundedMap(Math.max(1, options.maxBuckets ?? 100_000));
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.lastSweepAt = this.now();
  }

  /** How many buckets are held (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, rule: RateRule, cost = 1): Promise<BucketDecision> {
    const now = this.now();
    if (now - this.lastSweepAt >= this.sweepEveryMs) this.sweep(now);

    const stored = this.buckets.get(key);
    const { allowed, tokensLeft } = takeFromBucket(stored, rule, now, cost);
    // Re-stored even when refused (same level, now refilled to `now`), so a
    // client being refused stays recently used and is not evicted into a fresh burst.
    this.buckets.set(key, { tokens: tokensLeft, atMs: now, fullAtMs: now + msUntilFull(tokensLeft, rule) });
    return decisionFor(rule, allowed, tokensLeft, cost);
  }

  async peek(key: string, rule: RateRule): Promise<BucketDecision> {
    // Stores nothing: a bucket only looked at stays as it was (or missing, which is full).
    return peekDecision(rule, bucketLevel(this.buckets.get(key), rule, this.now()));
  }

  private sweep(now: number) {
    this.lastSweepAt = now;
    for (const [key, bucket] of this.buckets.entries()) {
      if (bucket.fullAtMs <= now) this.buckets.delete(key);
    }
  }
}
