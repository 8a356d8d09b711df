import { RateLimitExceeded, type RateLimiter } from "../rate-limit/rate-limiter.ts";
import { ProviderError } from "./provider-error.ts";

/**
 * Our own spacing of the requests to one provider (`minIntervalMs` apart,
 * across replicas when the limiter is Redis): each request takes a slot
 * first, a query's within a short wait, a job's point only when one is
 * spare.
 */
export class ProviderSpacing {
  constructor(
    private readonly name: string,
    private readonly rateLimiter: RateLimiter,
    /** 0: no spacing of ours, every slot free at once. */
    private readonly minIntervalMs: number,
  ) {}

  /** A slot within `maxWaitMs`, or a rate_limited ProviderError; nothing to take without a spacing of our own. */
  async take(maxWaitMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.minIntervalMs <= 0) return;
    try {
      await this.rateLimiter.acquire(this.name, this.minIntervalMs, maxWaitMs, signal);
    } catch (error) {
      if (!(error instanceof RateLimitExceeded)) throw error;
      throw new ProviderError(this.name, "rate_limited", "our own rate limit for it is used up", error.freeAt);
    }
  }

  /**
   * A slot for a patient call (a job's point): taken only when the next
   * free one is at most one interval away, else waited for and asked again,
   * for up to `patientMs`. So a job fills what the spacing leaves spare and
   * never books slots far ahead: a single query or a batch, which books up
   * to 2 s ahead, always finds the queue short and its provider's answer,
   * not LOCAL's, however big the jobs running.
   */
  async takeSpare(patientMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.minIntervalMs <= 0) return;
    const until = performance.now() + patientMs;
    for (;;) {
      try {
        await this.rateLimiter.acquire(this.name, this.minIntervalMs, Math.min(this.minIntervalMs, Math.max(0, until - performance.now())), signal);
        return;
      } catch (error) {
        if (!(error instanceof RateLimitExceeded)) throw error;
        // The limiter's clock may be Redis's: wait at least half an interval, and no longer than the patience left.
        const wait = Math.min(Math.max(this.minIntervalMs / 2, error.freeAt.getTime() - Date.now() - this.minIntervalMs), until - performance.now());
        if (wait <= 0) throw new ProviderError(this.name, "rate_limited", "our own rate limit for it stayed used up", error.freeAt);
        await abortableSleep(wait, signal);
      }
    }
  }
}

/** `ms` of waiting that ends early, with the signal's reason, when `signal` aborts. */
function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}
