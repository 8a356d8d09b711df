import type { CachedAnswer, CacheEntry, CacheLevel } from "./cached-answer.ts";

const hour = 60 * 60;
const day = 24 * hour;

/** How long an answer lives in each level, counted from when the provider answered (`storedAt`). */
export interface CacheTtls {
  /** L1, an answer with addresses. 24 hours (docs/configuration.md: "The geocoder"). */
  l1Seconds: number;
  /** L1, an empty answer (nothing there). Shorter: a provider may have been incomplete, or data gets added. */
  l1EmptySeconds: number;
  /** L2, an answer with addresses: kept this many days, then pruned. */
  l2Days: number;
  /** L2, an empty answer. */
  l2EmptySeconds: number;
  /**
   * Both levels, a fallback answer (LOCAL standing in for failed network
   * providers), when shorter than the above: minutes, not a day or a month,
   * so the street-level address comes back soon after the providers do.
   */
  fallbackSeconds: number;
}

export const defaultCacheTtls: CacheTtls = {
  l1Seconds: day,
  l1EmptySeconds: hour,
  l2Days: 30,
  l2EmptySeconds: day,
  fallbackSeconds: 5 * 60,
};

export interface CacheHit {
  answer: CachedAnswer;
  /** Which level answered; the `X-Cache` header. */
  level: "L1" | "L2";
}

export interface TwoLevelCacheOptions {
  /** Redis, or in-process without Redis; wrap it in FailSoftCacheLevel so an outage is a miss. */
  l1: CacheLevel;
  /** SQLite. */
  l2: CacheLevel;
  ttls?: Partial<CacheTtls>;
  /** Milliseconds since the epoch; tests pass a clock they move. */
  now?: () => number;
}

/**
 * L1 in front of L2. A read tries L1, then L2, and copies an L2 hit back into
 * L1. A write goes to both. Failed provider calls never reach `set`: only
 * answers are cached, empty ones for less time. Level errors propagate; the
 * caller decides which levels are fail-soft.
 */
export class TwoLevelCache {
  readonly ttls: Readonly<CacheTtls>;
  private readonly l1: CacheLevel;
  private readonly l2: CacheLevel;
  private readonly now: () => number;

  constructor(options: TwoLevelCacheOptions) {
    this.l1 = options.l1;
    this.l2 = options.l2;
    this.now = options.now ?? Date.now;
    this.ttls = { ...defaultCacheTtls, ...options.ttls };
    for (const [name, value] of Object.entries(this.ttls)) {
      if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`cache TTL ${name} must be a positive number, got ${value}`);
    }
  }

  async get(key: string): Promise<CacheHit | undefined> {
    const fromL1 = await this.l1.get(key);
    if (fromL1) return { answer: fromL1, level: "L1" };
    const fromL2 = await this.l2.get(key);
    if (!fromL2) return undefined;
    // Back into L1 for its usual time, but never past the L2 entry's own end:
    // L1 must not serve an answer L2 has already given up.
    const promoteFor = Math.min(this.l1Ttl(fromL2), this.remaining(fromL2, this.l2Ttl(fromL2)));
    if (promoteFor > 0) await this.l1.set(key, fromL2, promoteFor);
    return { answer: fromL2, level: "L2" };
  }

  /**
   * `get` for many keys at once (a batch of points): one read of L1 for all
   * of them, one of L2 for the rest, L2's hits copied back into L1 as `get`
   * does. A key neither level holds is left out.
   */
  async getMany(keys: readonly string[]): Promise<Map<string, CacheHit>> {
    const hits = new Map<string, CacheHit>();
    for (const [key, answer] of await this.l1.getMany(keys)) hits.set(key, { answer, level: "L1" });
    const fromL2 = await this.l2.getMany(keys.filter((key) => !hits.has(key)));
    const promotions: CacheEntry[] = [];
    for (const [key, answer] of fromL2) {
      hits.set(key, { answer, level: "L2" });
      const promoteFor = Math.min(this.l1Ttl(answer), this.remaining(answer, this.l2Ttl(answer)));
      if (promoteFor > 0) promotions.push({ key, answer, ttlSeconds: promoteFor });
    }
    // One write to L1 for all of them (a pipeline), as a batch's answers are kept.
    await this.l1.setMany(promotions);
    return hits;
  }

  /** Caches a provider's answer in both levels. Never call it for a failure. */
  async set(key: string, answer: CachedAnswer): Promise<void> {
    const l1For = this.remaining(answer, this.l1Ttl(answer));
    const l2For = this.remaining(answer, this.l2Ttl(answer));
    // Both writes start even if one fails.
    await Promise.all([this.l1.set(key, answer, l1For), this.l2.set(key, answer, l2For)]);
  }

  /** `set` for many answers (a batch's), each level written once for all of them. */
  async setMany(answers: ReadonlyMap<string, CachedAnswer>): Promise<void> {
    const entries = [...answers];
    await Promise.all([
      this.l1.setMany(entries.map(([key, answer]) => ({ key, answer, ttlSeconds: this.remaining(answer, this.l1Ttl(answer)) }))),
      this.l2.setMany(entries.map(([key, answer]) => ({ key, answer, ttlSeconds: this.remaining(answer, this.l2Ttl(answer)) }))),
    ]);
  }

  private l1Ttl(answer: CachedAnswer): number {
    return this.shortenedIfFallback(answer, answer.addresses.length === 0 ? this.ttls.l1EmptySeconds : this.ttls.l1Seconds);
  }

  private l2Ttl(answer: CachedAnswer): number {
    return this.shortenedIfFallback(answer, answer.addresses.length === 0 ? this.ttls.l2EmptySeconds : this.ttls.l2Days * day);
  }

  private shortenedIfFallback(answer: CachedAnswer, ttlSeconds: number): number {
    return answer.fallback === true ? Math.min(ttlSeconds, this.ttls.fallbackSeconds) : ttlSeconds;
  }

  /**
   * Seconds left of a lifetime of `ttlSeconds` that began at `storedAt`.
   * Counting from `storedAt` (not from each write) makes L1 and L2 agree on
   * when an answer ends; a `storedAt` in the future (another host's clock)
   * gives no more than the full lifetime.
   */
  private remaining(answer: CachedAnswer, ttlSeconds: number): number {
    const elapsedSeconds = Math.max(0, this.now() - answer.storedAt) / 1000;
    return Math.max(0, ttlSeconds - elapsedSeconds);
  }
}
