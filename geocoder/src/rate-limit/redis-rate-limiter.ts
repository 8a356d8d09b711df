import { RedisWithFallback, redisScript, silentLogger, type Logger, type RedisClient, type RedisScript } from "@linkgeo/shared";
import { MemoryRateLimiter } from "./memory-rate-limiter.ts";
import { RateLimitExceeded, waitForSlot, type RateLimiter, type RateSlot } from "./rate-limiter.ts";

/**
 * Takes the next free slot of a key, atomically: one script run per caller,
 * so callers from any number of processes queue up spaced by the interval.
 * Time is Redis TIME, the one clock all replicas share, so their own clocks
 * may disagree without breaking the spacing.
 *
 * KEYS[1]: the key's next free slot, ms since the epoch on the Redis clock.
 * ARGV[1]: the minimum interval in ms; ARGV[2]: the longest acceptable wait.
 * Returns {taken (1|0), now, slot}.
 */
const takeSlotScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1])) or 0)
if slot - now > maxWait then
  return {0, now, slot}
end
-- Expires once the slot and its interval are over: an idle key leaves nothing behind.
redis.call('SET', KEYS[1], slot + interval, 'PX', math.max(1, slot - now + interval))
return {1, now, slot}
`;

export interface RedisRateLimiterOptions {
  /** Namespace of the limiter's keys, after the client's own keyPrefix. Default `rate-limit:`. */
  keyPrefix?: string;
  /** How long to wait for Redis before limiting in-process instead. Default 250 ms. */
  commandTimeoutMs?: number;
  /** The limiter used while Redis is unreachable. Default: a MemoryRateLimiter. */
  fallback?: RateLimiter;
  /**
   * While on the fallback, intervals are multiplied by this. 1 (the default)
   * keeps the limit per process; set it to the number of replicas to keep
   * the limit across all of them during an outage, at the cost of throughput.
   */
  fallbackIntervalFactor?: number;
  log?: Logger;
}

/**
 * The rate limit shared by every geocoder replica through Redis (REDIS_URL).
 *
 * When Redis is unreachable it neither fails open (no limit: the public
 * Nominatim would see every replica at full speed, against its usage policy)
 * nor fails closed (every limited provider out of service because a cache is
 * down); it falls back to limiting in this process, so the limit still holds
 * per replica. With N replicas the aggregate may reach N times the limit for
 * the length of the outage, unless `fallbackIntervalFactor` is N.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly keyPrefix: string;
  private readonly fallback: RateLimiter;
  private readonly fallbackIntervalFactor: number;
  private readonly redisFirst: RedisWithFallback;
  private readonly takeSlot: RedisScript;

  constructor(redis: RedisClient, options: RedisRateLimiterOptions = {}) {
    this.takeSlot = redisScript(redis, "linkgeoTakeSlot", takeSlotScript, 1);
    this.keyPrefix = options.keyPrefix ?? "rate-limit:";
    this.fallback = options.fallback ?? new MemoryRateLimiter();
    this.fallbackIntervalFactor = options.fallbackIntervalFactor ?? 1;
    this.redisFirst = new RedisWithFallback(redis, {
      log: options.log ?? silentLogger,
      commandTimeoutMs: options.commandTimeoutMs,
      fallbackWarning: "Redis unavailable: rate limits hold per process only",
      recoveredMessage: "rate limits are shared through Redis again",
    });
  }

  /** Whether slots come from Redis now, shared with every replica (false while the fallback spaces this process alone). */
  sharesSpacing(): boolean {
    return this.redisFirst.redisInUse();
  }

  async acquire(key: string, minIntervalMs: number, maxWaitMs: number, signal?: AbortSignal): Promise<RateSlot> {
    if (signal?.aborted) throw signal.reason;
    const started = performance.now();
    // Redis answers with a slot to wait for (the wait itself must not run
    // against the command timeout); the fallback with a slot already waited.
    const reply = await this.redisFirst.run<[taken: boolean, now: number, slot: number] | RateSlot>(
      async () => parseReply(await this.takeSlot(this.keyPrefix + key, Math.max(0, Math.ceil(minIntervalMs)), Math.max(0, Math.floor(maxWaitMs)))),
      () => {
        // The time spent finding Redis down counts against the caller's wait.
        const left = Math.max(0, maxWaitMs - (performance.now() - started));
        return this.fallback.acquire(key, minIntervalMs * this.fallbackIntervalFactor, left, signal);
      },
    );
    if (!Array.isArray(reply)) return reply;
    const [taken, now, slot] = reply;
    if (!taken) throw RateLimitExceeded.for(key, new Date(slot));
    // Counted from the reply's arrival, which is a little after `now`: the
    // request starts at most one round trip late, never early.
    await waitForSlot(slot - now, signal);
    return { at: slot, waitedMs: slot - now };
  }
}

function parseReply(reply: unknown): [boolean, number, number] {
  if (Array.isArray(reply) && reply.length === 3 && reply.every((value) => typeof value === "number")) {
    const [taken, now, slot] = reply as [number, number, number];
    return [taken === 1, now, slot];
  }
  throw new Error("unexpected reply from the rate limit script");
}
