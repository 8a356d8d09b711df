import type { RedisClient } from "./redis-client.ts";

/** A Lua script bound to one client: call it with its keys, then its arguments. */
export type RedisScript = (...keysThenArgs: (string | number)[]) => Promise<unknown>;

/**
 * Registers `lua` on the client with ioredis's `defineCommand` and returns it
 * as a function. ioredis sends EVALSHA and, when Redis does not know the
 * script (restarted or flushed: NOSCRIPT), EVAL once; the client's keyPrefix
 * applies to the script's keys as to any command's.
 */
export function redisScript(redis: RedisClient, name: string, lua: string, numberOfKeys: number): RedisScript {
  const commands = redis as unknown as Record<string, RedisScript | undefined>;
  if (typeof commands[name] !== "function") redis.defineCommand(name, { lua, numberOfKeys });
  const command = commands[name]!;
  return (...keysThenArgs) => command.apply(redis, keysThenArgs);
}
