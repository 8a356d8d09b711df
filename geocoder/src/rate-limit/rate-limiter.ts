/** A slot granted by a rate limiter. */
export interface RateSlot {
  /**
   * When the slot starts, in ms since the epoch on the limiter's own clock
   * (Redis TIME for the shared limiter). Slots of one key are at least the
   * interval apart on that clock.
   */
  at: number;
  /** How long the caller had to wait for the slot, in ms. */
  waitedMs: number;
}

/**
 * Spaces the requests made under one key: each `acquire` takes the next free
 * slot and resolves when it starts, so slots of a key are at least
 * `minIntervalMs` apart, whoever takes them.
 *
 * It never waits without bound: when the next free slot is more than
 * `maxWaitMs` away it rejects at once with RateLimitExceeded and takes
 * nothing. When `signal` aborts during the wait it rejects with the signal's
 * reason; the slot stays taken, which only spaces the next requests wider.
 */
export interface RateLimiter {
  acquire(key: string, minIntervalMs: number, maxWaitMs: number, signal?: AbortSignal): Promise<RateSlot>;
}

/** The next slot of `key` is further away than the caller was willing to wait. */
export class RateLimitExceeded extends Error {
  private constructor(
    readonly key: string,
    /** When the next slot is free, on the limiter's clock. */
    readonly freeAt: Date,
  ) {
    super(`rate limit for ${key}: next slot at ${freeAt.toISOString()}`);
    this.name = "RateLimitExceeded";
  }

  static for(key: string, freeAt: Date): RateLimitExceeded {
    return new RateLimitExceeded(key, freeAt);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function waitForSlot(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  // Rounded up: a timer that fires a fraction early would start the slot early.
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.ceil(ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
