import { isCluster, pingRedis, type RedisClient } from "@linkgeo/shared";
import type { CachedAnswer, CacheEntry, CacheLevel } from "./cached-answer.ts";

/**
 * L1 shared by every replica. The client carries the database and key prefix;
 * main.ts makes it fail fast (no offline queue, a command timeout, one retry)
 * so that a dead Redis costs a request milliseconds, not seconds.
 *
 * A batch's keys are read with one MGET and written in one pipeline on a
 * single server. On a Redis Cluster they spread over the slots of every
 * primary, where a command or pipeline may only touch one slot: there each
 * key is its own GET or SET, which the client's auto-pipelining sends as one
 * pipeline per node, and a primary that fails costs only its own keys (a
 * miss, a write skipped): the others' are still read and written.
 */
export class RedisCacheLevel implements CacheLevel {
  constructor(private readonly redis: RedisClient) {}

  async get(key: string): Promise<CachedAnswer | undefined> {
    const json = await this.redis.get(key);
    return json === null ? undefined : (JSON.parse(json) as CachedAnswer);
  }

  async getMany(keys: readonly string[]): Promise<Map<string, CachedAnswer>> {
    const found = new Map<string, CachedAnswer>();
    if (keys.length === 0) return found;
    const values = isCluster(this.redis) ? await eachKey(keys.map((key) => this.redis.get(key))) : await this.redis.mget(...keys);
    for (const [i, json] of values.entries()) if (json !== null) found.set(keys[i]!, JSON.parse(json) as CachedAnswer);
    return found;
  }

  async set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    // PX, not EX: a promoted entry may have only part of a second left, and
    // must not outlive it.
    const ttlMs = Math.floor(ttlSeconds * 1000);
    if (!(ttlMs > 0)) {
      // Redis refuses a zero expiry; an answer with no lifetime left is simply gone.
      await this.redis.del(key);
      return;
    }
    await this.redis.set(key, JSON.stringify(answer), "PX", ttlMs);
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    if (entries.length === 0) return;
    if (isCluster(this.redis)) {
      await eachKey(entries.map(({ key, answer, ttlSeconds }) => this.set(key, answer, ttlSeconds)));
      return;
    }
    const pipeline = this.redis.pipeline();
    for (const { key, answer, ttlSeconds } of entries) {
      const ttlMs = Math.floor(ttlSeconds * 1000);
      if (ttlMs > 0) pipeline.set(key, JSON.stringify(answer), "PX", ttlMs);
      else pipeline.del(key);
    }
    // One round trip; a command that failed fails the whole call, as a failed set does.
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  }

  async ping(): Promise<void> {
    await pingRedis(this.redis);
  }
}

/**
 * A Cluster batch's per-key commands: each one's result, undefined for one
 * that failed; throws only when every one failed (Redis is down, as for one
 * server's MGET), so a failed batch is still seen and logged by the caller.
 */
async function eachKey<T>(commands: Promise<T>[]): Promise<(T | null)[]> {
  const outcomes = await Promise.allSettled(commands);
  const failed = outcomes.find((outcome) => outcome.status === "rejected");
  if (failed && outcomes.every((outcome) => outcome.status === "rejected")) throw failed.reason;
  return outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : null));
}
