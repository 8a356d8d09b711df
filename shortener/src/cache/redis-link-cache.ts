import { pingRedis, type RedisClient } from "@linkgeo/shared";
import { linkTtlSeconds, missingTtlSeconds, type LinkCache } from "./link-cache.ts";

// A long URL never is a bare "-", so it can stand for "no such link".
const missing = "-";

/** The shared cache of all replicas; the client carries the key prefix and database. */
export class RedisLinkCache implements LinkCache {
  constructor(private readonly redis: RedisClient) {}

  async get(code: string): Promise<string | null | undefined> {
    const value = await this.redis.get(`link:${code}`);
    if (value === null) return undefined;
    return value === missing ? null : value;
  }

  async set(code: string, longUrl: string): Promise<void> {
    await this.redis.set(`link:${code}`, longUrl, "EX", linkTtlSeconds);
  }

  async fill(code: string, longUrl: string): Promise<void> {
    // NX: a writer's newer value, or a deleted link's tombstone, stays.
    await this.redis.set(`link:${code}`, longUrl, "EX", linkTtlSeconds, "NX");
  }

  async markMissing(code: string): Promise<void> {
    // NX: a link created meanwhile has already written its URL; keep it.
    await this.redis.set(`link:${code}`, missing, "EX", missingTtlSeconds, "NX");
  }

  async markDeleted(code: string): Promise<void> {
    // As long as a URL would live: a reader's late fill (at most that late) finds it and stays out.
    await this.redis.set(`link:${code}`, missing, "EX", linkTtlSeconds);
  }

  async forget(code: string): Promise<void> {
    await this.redis.del(`link:${code}`);
  }

  async ping(): Promise<void> {
    await pingRedis(this.redis);
  }
}
