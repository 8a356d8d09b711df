import { describeError, throttledWarning, type LogFields, type Logger } from "@linkgeo/shared";
import type { CachedAnswer, CacheEntry, CacheLevel } from "./cached-answer.ts";

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
  private readonly warn: (fields: LogFields) => void;

  constructor(
    private readonly inner: CacheLevel,
    private readonly options: FailSoftCacheLevelOptions,
  ) {
    this.warn = throttledWarning(options.log, "cache level unavailable, answering without it", {
      everyMs: options.warnEveryMs,
      now: options.now,
    });
  }

  get(key: string): Promise<CachedAnswer | undefined> {
    return this.guard("get", () => this.inner.get(key), undefined);
  }

  getMany(keys: readonly string[]): Promise<Map<string, CachedAnswer>> {
    return this.guard("get", () => this.inner.getMany(keys), new Map<string, CachedAnswer>());
  }

  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    return this.guard("set", () => this.inner.set(key, answer, ttlSeconds), undefined);
  }

  setMany(entries: readonly CacheEntry[]): Promise<void> {
    return this.guard("set", () => this.inner.setMany(entries), undefined);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  private async guard<T>(operation: string, run: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.warn({ cache_level: this.options.name, operation, error: describeError(error) });
      return fallback;
    }
  }
}
