import type { Address } from "../addresses/address.ts";

/** What the cache keeps for one query: the addresses and who answered. */
export interface CachedAnswer {
  addresses: Address[];
  provider: string;
  /** When the provider answered (ms since epoch). */
  storedAt: number;
}

/** A cache level: Redis or in-process for L1, SQLite for L2. Implementations never store an answer past `ttlSeconds`. */
export interface CacheLevel {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void>;
  ping(): Promise<void>;
}
