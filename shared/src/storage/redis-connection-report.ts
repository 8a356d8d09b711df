import type { RedisSource } from "../core/config.ts";
import { describeError, type Logger } from "../core/logger.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * Tells in one line when the service's Redis cannot be reached, naming the
 * variable that points to it and its address (password redacted): what
 * each command fails with meanwhile, ioredis' "Stream isn't writeable and
 * enableOfflineQueue options is false", names neither. The client goes on
 * trying; the line comes once per outage, and one more says when Redis
 * answers again.
 */
export function reportRedisConnection(redis: RedisClient, source: RedisSource, log: Logger): void {
  const fields = { variable: source.variable, address: source.address };
  let unreachable = false;
  redis.on("error", (error: unknown) => {
    if (unreachable) return;
    unreachable = true;
    log.warn(`cannot reach Redis at ${source.variable}: going on without it and trying again`, { ...fields, error: describeError(error) });
  });
  redis.on("ready", () => {
    if (!unreachable) return;
    unreachable = false;
    log.info(`Redis at ${source.variable} answers again`, fields);
  });
}
