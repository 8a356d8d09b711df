import { silentLogger, type Logger } from "../core/logger.ts";
import type { RedisClient } from "../storage/redis-client.ts";
import { redisScript, type RedisScript } from "../storage/redis-script.ts";
import { RedisWithFallback } from "../storage/redis-with-fallback.ts";
import type { RateRule } from "./token-bucket.ts";
import { MemoryTokenBuckets } from "./memory-token-buckets.ts";
import { decisionFor, peekDecision, type BucketDecision, type TokenBuckets } from "./token-bucket.ts";

/**
 * One take on a bucket, atomically, the arithmetic of `takeFromBucket` in Lua.
 * Time is Redis TIME, the one clock every replica shares, so their
 * own clocks may disagree without giving anyone extra tokens.
 *
 * KEYS[1]: a hash {tokens, at (ms on the Redis clock)}; missing means full.
 * ARGV[1]: capacity; ARGV[2]: tokens per second; ARGV[3]: tokens to take
 * (1 when absent, as an older replica sends it).
 * Returns {allowed (1|0), tokens left as a string}: Redis would truncate a
 * Lua number in the reply to an integer.
 *
 * A refused take writes nothing. An allowed one sets the key to expire when
 * the bucket would be full again, which is the same as the key being gone:
 * idle clients leave nothing behind.
 *
 * Writing after TIME needs effects replication, the default since Redis 5.
 */
const takeScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local cost = tonumber(ARGV[3]) or 1
local tokens = capacity
local stored = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if stored[1] and stored[2] then
  local elapsed = math.max(0, now - tonumber(stored[2]))
  tokens = math.min(capacity, tonumber(stored[1]) + elapsed * perMs)
end
if tokens < cost then
  return {0, string.format('%.17g', tokens)}
end
tokens = tokens - cost
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], string.format('%d', math.ceil((capacity - tokens) / perMs)))
return {1, string.format('%.17g', tokens)}
`;

/**
 * A look at a bucket, taking nothing: the level the take script would
 * start from, on the same Redis clock. KEYS and ARGV as for the take.
 * Returns the tokens there as a string.
 */
const peekScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local stored = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if stored[1] and stored[2] then
  local elapsed = math.max(0, now - tonumber(stored[2]))
  return string.format('%.17g', math.min(capacity, tonumber(stored[1]) + elapsed * perMs))
end
return string.format('%.17g', capacity)
`;

export interface RedisTokenBucketsOptions {
  /** Namespace of the bucket keys, after the client's own keyPrefix. Default `rate-limit:`. */
  keyPrefix?: string;
  /** Who holds the limits while Redis is away, for the warning: "gateway" (default), "shortener". */
  processName?: string;
  /** How long to wait for Redis before answering from the fallback. Default 250 ms. */
  commandTimeoutMs?: number;
  /** The buckets used while Redis is unreachable. Default: a MemoryTokenBuckets. */
  fallback?: TokenBuckets;
  log?: Logger;
}

/**
 * Token buckets shared by every replica of a service through Redis (the
 * gateway's and the shortener's REDIS_URL):
 * a client gets one budget however the load balancer spreads its requests.
 *
 * While Redis is unreachable, requests are limited by in-process buckets
 * instead: fail-open as far as the shared budget goes (with N replicas a
 * client may get up to N times its limit for the length of the outage),
 * but each replica still limits. Failing closed would turn a Redis outage,
 * for what is only abuse protection, into an outage of the whole API; not
 * limiting at all would leave it open to a flood exactly when it is weakest.
 */
export class RedisTokenBuckets implements TokenBuckets {
  private readonly keyPrefix: string;
  private readonly fallback: TokenBuckets;
  private readonly redisFirst: RedisWithFallback;
  /** EVALSHA on every limited request; ioredis sends the script again after a NOSCRIPT. */
  private readonly takeToken: RedisScript;
  private readonly peekTokens: RedisScript;

  constructor(redis: RedisClient, options: RedisTokenBucketsOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? "rate-limit:";
    this.takeToken = redisScript(redis, "linkgeoTakeToken", takeScript, 1);
    this.peekTokens = redisScript(redis, "linkgeoPeekTokens", peekScript, 1);
    this.fallback = options.fallback ?? new MemoryTokenBuckets();
    this.redisFirst = new RedisWithFallback(redis, {
      log: options.log ?? silentLogger,
      commandTimeoutMs: options.commandTimeoutMs,
      fallbackWarning: `Redis unavailable: rate limits hold per ${options.processName ?? "gateway"} process only`,
      recoveredMessage: "rate limits are shared through Redis again",
    });
  }

  async take(key: string, rule: RateRule, cost = 1): Promise<BucketDecision> {
    return this.redisFirst.run(
      async () => {
        const reply = parseReply(await this.takeToken(this.keyPrefix + key, String(rule.capacity), String(rule.perSecond), String(cost)));
        return decisionFor(rule, reply.allowed, reply.tokensLeft, cost);
      },
      () => this.fallback.take(key, rule, cost),
    );
  }

  async peek(key: string, rule: RateRule): Promise<BucketDecision> {
    return this.redisFirst.run(
      async () => {
        const reply = await this.peekTokens(this.keyPrefix + key, String(rule.capacity), String(rule.perSecond));
        const tokens = typeof reply === "string" ? Number(reply) : Number.NaN;
        if (!Number.isFinite(tokens)) throw new Error("unexpected reply from the token peek script");
        return peekDecision(rule, tokens);
      },
      () => this.fallback.peek(key, rule),
    );
  }
}

function parseReply(reply: unknown): { allowed: boolean; tokensLeft: number } {
  if (Array.isArray(reply) && reply.length === 2 && (reply[0] === 0 || reply[0] === 1) && typeof reply[1] === "string") {
    const tokensLeft = Number(reply[1]);
    if (Number.isFinite(tokensLeft)) return { allowed: reply[0] === 1, tokensLeft };
  }
  throw new Error("unexpected reply from the token bucket script");
}
