import { describeError, type Logger } from "@linkgeo/shared";
import type { CachedAnswer, CacheLevel } from "./cached-answer.ts";

export interface FailSoftCacheLevelOptions {
  /** Names the level in the warning: "L1", "L2". */
  name: string;
  log: Logger;
  /** Least time between two warnings. Default 10 s: an outage is one line every 10 s, not one per request. */
  warnEveryMs?: number;
  /** Milliseconds since the epoch; tests pass a clock they move. */
  now?: () => number;
}

/**
 * A cache level that never fails a request: a failed read is a miss, a
 * failed write is skipped, so with Redis down L2 and the providers still
 * answer. `ping` is passed through unchanged, for readiness to see the outage.
 */
export class FailSoftCacheLevel implements CacheLevel {
  private readonly warnEveryMs: number;
  private readonly now: () => number;
  private lastWarning = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly inner: CacheLevel,
    private readonly options: FailSoftCacheLevelOptions,
  ) {
    this.warnEveryMs = options.warnEveryMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get(key: string): Promise<CachedAnswer | undefined> {
    return this.guard("get", () => this.inner.get(key), undefined);
  }

  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    return this.guard("set", () => this.inner.set(key, answer, ttlSeconds), undefined);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  private async guard<T>(operation: string, run: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const now = this.now();
      if (now - this.lastWarning >= this.warnEveryMs) {
        this.lastWarning = now;
        this.options.log.warn("cache level unavailable, answering without it", {
          level: this.options.name,
          operation,
          error: describeError(error),
        });
      }
      return fallback;
    }
  }
}
