import { describeError, throttledWarning, type LogFields, type Logger } from "@linkgeo/shared";
import type { LinkCache } from "./link-cache.ts";

/**
 * The service keeps working when the cache does not: a failed read is a
 * miss, a failed write is skipped. Warnings are logged at most every 10 s.
 */
export class FailSoftLinkCache implements LinkCache {
  private readonly warn: (fields: LogFields) => void;

  constructor(
    private readonly inner: LinkCache,
    log: Logger,
    /** Told of every read's outcome and every failure (the metrics). */
    private readonly observer?: CacheObserver,
  ) {
    this.warn = throttledWarning(log, "cache unavailable, using the database alone");
  }

  async get(code: string) {
    let failed = false;
    const found = await this.guard(
      "get",
      () => this.inner.get(code),
      undefined,
      () => (failed = true),
    );
    // A known-missing code (null) is a hit too: the database was not asked.
    if (!failed) this.observer?.cacheRead(found === undefined ? "miss" : "hit");
    return found;
  }
  set(code: string, longUrl: string) {
    return this.guard("set", () => this.inner.set(code, longUrl), undefined);
  }
  fill(code: string, longUrl: string) {
    return this.guard("fill", () => this.inner.fill(code, longUrl), undefined);
  }
  markMissing(code: string) {
    return this.guard("markMissing", () => this.inner.markMissing(code), undefined);
  }
  markDeleted(code: string) {
    return this.guard("markDeleted", () => this.inner.markDeleted(code), undefined);
  }
  forget(code: string) {
    return this.guard("forget", () => this.inner.forget(code), undefined);
  }
  ping() {
    return this.inner.ping();
  }

  private async guard<T>(operation: string, run: () => Promise<T>, fallback: T, onFailure?: () => void): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.warn({ operation, error: describeError(error) });
      this.observer?.cacheFailed(operation);
      onFailure?.();
      return fallback;
    }
  }
}

/** What the cache reports: each read's outcome, and each operation that failed (then a miss, or skipped). */
export interface CacheObserver {
  cacheRead(outcome: "hit" | "miss"): void;
  cacheFailed(operation: string): void;
}
