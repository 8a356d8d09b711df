import { BoundedMap } from "@linkgeo/shared";
import { linkTtlSeconds, missingTtlSeconds, type LinkCache } from "./link-cache.ts";

interface Entry {
  value: string | null;
  expiresAt: number;
}

/** The cache of a single instance without Redis: bounded, oldest entry out first. */
export class MemoryLinkCache implements LinkCache {
  private readonly entries: BoundedMap<string, Entry>;

  constructor(
    maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  async get(code: string): Promise<string | null | undefined> {
    const entry = this.entries.get(code);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(code);
      return undefined;
    }
    return entry.value;
  }

  async set(code: string, longUrl: string): Promise<void> {
    this.put(code, longUrl, linkTtlSeconds);
  }

  async fill(code: string, longUrl: string): Promise<void> {
    if ((await this.get(code)) === undefined) this.put(code, longUrl, linkTtlSeconds);
  }

  async markMissing(code: string): Promise<void> {
    if ((await this.get(code)) === undefined) this.put(code, null, missingTtlSeconds);
  }

  async markDeleted(code: string): Promise<void> {
    this.put(code, null, linkTtlSeconds);
  }

  async forget(code: string): Promise<void> {
    this.entries.delete(code);
  }

  async ping(): Promise<void> {}

  private put(code: string, value: string | null, ttlSeconds: number): void {
    this.entries.set(code, { value, expiresAt: this.now() + ttlSeconds * 1000 });
  }
}
