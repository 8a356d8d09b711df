import type { Address } from "../addresses/address.ts";

/** What the cache keeps for one query: the addresses and who answered. */
export interface CachedAnswer {
  addresses: Address[];
  provider: string;
  /** When the provider answered (ms since epoch). */
  storedAt: number;
  /**
   * An offline provider (LOCAL) answered because the network providers
   * before it did not: kept briefly in both levels, so the real address
   * comes back once they do. Stored with the answer, so an L2 entry promoted
   * into L1 keeps its short life. Absent means false (and in entries written
   * before the flag existed).
   */
  fallback?: boolean;
  /** A forward answer's places beside their addresses (same order): where each is, how sure, the provider's id. */
  places?: Array<{ latitude: number; longitude: number; confidence: number; providerId: string | null }>;
}

/** One answer to keep, for `ttlSeconds`. */
export interface CacheEntry {
  key: string;
  answer: CachedAnswer;
  ttlSeconds: number;
}

/** A cache level: Redis or in-process for L1, SQLite for L2. Implementations never store an answer past `ttlSeconds`. */
export interface CacheLevel {
  get(key: string): Promise<CachedAnswer | undefined>;
  /** The answers kept for any of `keys`, in one round trip (a batch of points); a key without one is left out. */
  getMany(keys: readonly string[]): Promise<Map<string, CachedAnswer>>;
  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void>;
  /** `set` for many at once (a batch's answers), in one round trip or transaction. */
  setMany(entries: readonly CacheEntry[]): Promise<void>;
  ping(): Promise<void>;
}
