import { RateLimitExceeded, waitForSlot, type RateLimiter, type RateSlot } from "./rate-limiter.ts";

export interface MemoryRateLimiterOptions {
  clock?: () => Date;
}

/**
 * Slot scheduling within one process: the limit holds for this process only.
 * Used when there is no REDIS_URL (a single instance), and as the Redis
 * limiter's fallback while Redis is down.
 */
export class MemoryRateLimiter implements RateLimiter {
  // Next free slot per key, ms since the epoch. One entry per provider, so
  // the map never needs pruning.
  private readonly nextFree = new Map<string, number>();
  private readonly clock: () => Date;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
  }

  async acquire(key: string, minIntervalMs: number, maxWaitMs: number, signal?: AbortSignal): Promise<RateSlot> {
    if (signal?.aborted) throw signal.reason;
    const now = this.clock().getTime();
    const slot = Math.max(now, this.nextFree.get(key) ?? 0);
    const wait = slot - now;
    if (wait > maxWaitMs) throw RateLimitExceeded.for(key, new Date(slot));
    // Taken before waiting, synchronously: callers that arrive meanwhile
    // queue up behind this slot instead of racing for it.
    this.nextFree.set(key, slot + minIntervalMs);
    await waitForSlot(wait, signal);
    return { at: slot, waitedMs: wait };
  }
}
