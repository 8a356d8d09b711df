import type { RedisClient } from "./redis-client.ts";
import { withDeadline } from "../core/deadline.ts";
import { describeError, type Logger } from "../core/logger.ts";
import { throttledWarning } from "../core/throttled-warning.ts";

// ioredis states in which a command cannot reach Redis: go straight to the
// fallback instead of waiting for the command to fail or time out.
const disconnected = new Set(["close", "reconnecting", "end"]);

export interface RedisWithFallbackOptions {
  log: Logger;
  /** Logged (throttled) when a command fails and the fallback answers. */
  fallbackWarning: string;
  /** Logged once when Redis answers again after a fallback. */
  recoveredMessage: string;
  /** How long to wait for Redis before using the fallback. Default 250 ms. */
  commandTimeoutMs?: number;
  /**
   * After a failure Redis is asked again only this much later: a Redis that
   * hangs instead of refusing would otherwise cost every request the timeout.
   * Default 1 s.
   */
  retryAfterMs?: number;
}

/**
 * Runs a Redis command that has an in-process fallback (the shared rate
 * limits of the gateway and the geocoder): Redis when it answers in time,
 * the fallback at once while it is down, a throttled warning while falling
 * back and one line when Redis is back.
 */
export class RedisWithFallback {
  private readonly commandTimeoutMs: number;
  private readonly retryAfterMs: number;
  private readonly warn: (fields: Record<string, unknown>) => void;
  private usingFallback = false;
  /** performance.now() before which Redis is not asked (it just failed). */
  private skipRedisUntil = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: RedisWithFallbackOptions,
  ) {
    this.commandTimeoutMs = options.commandTimeoutMs ?? 250;
    this.retryAfterMs = options.retryAfterMs ?? 1_000;
    this.warn = throttledWarning(options.log, options.fallbackWarning);
  }

  /**
   * Whether the next call would ask Redis: false while the connection is
   * down and for `retryAfterMs` after a call Redis failed. A connection can
   * look up while Redis fails every command (a Cluster whose slots are down,
   * a server that hangs): this sees that too.
   */
  redisInUse(): boolean {
    return performance.now() >= this.skipRedisUntil && !disconnected.has(this.redis.status);
  }

  /** `viaRedis` if Redis answers within the timeout (and its reply parses), else `viaFallback`. */
  async run<T>(viaRedis: (redis: RedisClient) => Promise<T>, viaFallback: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await this.withinTimeout(viaRedis);
    } catch (error) {
      this.usingFallback = true;
      const now = performance.now();
      if (now >= this.skipRedisUntil) this.skipRedisUntil = now + this.retryAfterMs;
      this.warn({ error: describeError(error) });
      return viaFallback();
    }
    if (this.usingFallback) {
      this.usingFallback = false;
      this.options.log.info(this.options.recoveredMessage);
    }
    return result;
  }

  private async withinTimeout<T>(viaRedis: (redis: RedisClient) => Promise<T>): Promise<T> {
    if (performance.now() < this.skipRedisUntil) throw new Error("Redis failed less than a second ago");
    if (disconnected.has(this.redis.status)) throw new Error(`Redis connection is ${this.redis.status}`);
    return withDeadline(
      this.commandTimeoutMs,
      () => viaRedis(this.redis),
      () => new Error(`Redis gave no answer within ${this.commandTimeoutMs} ms`),
    );
  }
}
