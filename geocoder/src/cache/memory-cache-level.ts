import { BoundedMap } from "@linkgeo/shared";
import type { CachedAnswer, CacheEntry, CacheLevel } from "./cached-answer.ts";

interface Entry {
  // Kept as JSON, like Redis and SQLite keep it: a caller that changes the
  // object it got or gave cannot change what the cache holds.
  json: string;
  expiresAt: number;
}

export interface MemoryCacheLevelOptions {
  /** The most entries held; the oldest written goes first. Default 10,000 (about 10 MB of answers). */
  maxEntries?: number;
  /** Milliseconds since the epoch; tests pass a clock they move. */
  now?: () => number;
}

/** L1 of a single instance without Redis: bounded, oldest entry out first. */
export class MemoryCacheLevel implements CacheLevel {
  private readonly entries: BoundedMap<string, Entry>;
  private readonly now: () => number;

  constructor(options: MemoryCacheLevelOptions = {}) {
    this.entries = new BoundedMap(options.maxEntries ?? 10_000);
    this.now = options.now ?? Date.now;
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return JSON.parse(entry.json) as CachedAnswer;
  }

  async getMany(keys: readonly string[]): Promise<Map<string, CachedAnswer>> {
    const found = new Map<string, CachedAnswer>();
    for (const key of keys) {
      const answer = await this.get(key);
      if (answer) found.set(key, answer);
    }
    return found;
  }

  async set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    const ttlMs = Math.floor(ttlSeconds * 1000);
    // A lifetime of nothing stores nothing, and leaves no older value behind.
    if (!(ttlMs > 0)) {
      this.entries.delete(key);
      return;
    }
    // A rewritten key becomes the youngest (BoundedMap.set).
    this.entries.set(key, { json: JSON.stringify(answer), expiresAt: this.now() + ttlMs });
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    for (const { key, answer, ttlSeconds } of entries) await this.set(key, answer, ttlSeconds);
  }

  async ping(): Promise<void> {}

  /** Entries held, expired ones included until read or pushed out. */
  get size(): number {
    return this.entries.size;
  }
}
