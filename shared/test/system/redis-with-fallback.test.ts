import { describe, expect, test } from "bun:test";
import { RedisWithFallback, silentLogger, type Logger } from "@linkgeo/shared";
import { startRedisProcess, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";

/**
 * The outage rules every Redis-first user (the gateway's token buckets, the
 * geocoder's rate limiter and provider health) gets from RedisWithFallback,
 * against a real redis-server killed, restarted, or replaced by a socket that
 * never answers. The users' own suites keep only what is theirs.
 */

const fallbackWarning = "shared state unavailable: holding it per process";
const recoveredMessage = "shared state is in Redis again";

function capture(): { lines: string[]; log: Logger } {
  const lines: string[] = [];
  const log: Logger = { ...silentLogger, warn: (message) => lines.push(`warn ${message}`), info: (message) => lines.push(`info ${message}`) };
  return { lines, log };
}

/** A command that says where it ran: "redis:<PING's answer>" or "fallback". */
async function whereItRan(runner: RedisWithFallback): Promise<string> {
  return runner.run(
    async (redis) => `redis:${await redis.ping()}`,
    async () => "fallback",
  );
}

function spawnRedisServer(port: number): ReturnType<typeof Bun.spawn> {
  return Bun.spawn(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdout: "ignore",
    stderr: "inherit",
  });
}

describe("RedisWithFallback", () => {
  test("asks Redis while it answers, and says nothing", async () => {
    await using server = await startRedisProcess();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      const { lines, log } = capture();
      const runner = new RedisWithFallback(redis, { log, fallbackWarning, recoveredMessage });
      expect([await whereItRan(runner), await whereItRan(runner)]).toEqual(["redis:PONG", "redis:PONG"]);
      expect(lines).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  test("uses the fallback at once when Redis dies, and warns once for many calls", async () => {
    await using server = await startRedisProcess();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => {});
    try {
      const { lines, log } = capture();
      const runner = new RedisWithFallback(redis, { log, fallbackWarning, recoveredMessage });
      expect(await whereItRan(runner)).toBe("redis:PONG");
      await server.kill();

      const started = performance.now();
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await whereItRan(runner));
      expect(answers).toEqual(Array(5).fill("fallback"));
      expect(performance.now() - started).toBeLessThan(500);
      expect(lines).toEqual([`warn ${fallbackWarning}`]);
    } finally {
      redis.disconnect();
    }
  });

  test("goes back to Redis when it returns, and says so once", async () => {
    await using server = await startRedisProcess();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => {});
    let restarted: ReturnType<typeof Bun.spawn> | undefined;
    try {
      const { lines, log } = capture();
      const runner = new RedisWithFallback(redis, { log, fallbackWarning, recoveredMessage, retryAfterMs: 50 });
      await server.kill();
      expect(await whereItRan(runner)).toBe("fallback");

      restarted = spawnRedisServer(server.port);
      await waitFor("the runner back on Redis", async () => (await whereItRan(runner)) === "redis:PONG");
      expect(await whereItRan(runner)).toBe("redis:PONG");
      expect(lines).toEqual([`warn ${fallbackWarning}`, `info ${recoveredMessage}`]);
    } finally {
      redis.disconnect();
      restarted?.kill("SIGKILL");
      await restarted?.exited;
    }
  });

  test("gives up on a Redis that does not answer after commandTimeoutMs, then skips it for retryAfterMs", async () => {
    // Accepts connections and never answers: commands would wait for ever.
    const blackHole = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const redis = new Redis({ host: "127.0.0.1", port: blackHole.port, maxRetriesPerRequest: 1 });
    redis.on("error", () => {});
    let asked = 0;
    const counting = (runner: RedisWithFallback) =>
      runner.run(
        async (client) => {
          asked++;
          return `redis:${await client.ping()}`;
        },
        async () => "fallback",
      );
    try {
      const { lines, log } = capture();
      const runner = new RedisWithFallback(redis, { log, fallbackWarning, recoveredMessage, commandTimeoutMs: 100, retryAfterMs: 60_000 });
      const started = performance.now();
      expect(await counting(runner)).toBe("fallback");
      expect(performance.now() - started).toBeGreaterThanOrEqual(100 - 5);
      expect(performance.now() - started).toBeLessThan(100 + 200);

      // Within retryAfterMs Redis is not asked at all: no call waits for the timeout again.
      const again = performance.now();
      expect([await counting(runner), await counting(runner)]).toEqual(["fallback", "fallback"]);
      expect(performance.now() - again).toBeLessThan(50);
      expect(asked).toBe(1);
      expect(lines).toEqual([`warn ${fallbackWarning}`]);
    } finally {
      redis.disconnect();
      blackHole.stop(true);
    }
  });

  test("a command that fails on a live Redis (its reply does not parse) takes the fallback too", async () => {
    await using server = await startRedisProcess();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      const { lines, log } = capture();
      const runner = new RedisWithFallback(redis, { log, fallbackWarning, recoveredMessage });
      const answer = await runner.run(
        async (client) => {
          const reply = await client.ping();
          throw new Error(`unexpected reply ${reply}`);
        },
        async () => "fallback",
      );
      expect(answer).toBe("fallback");
      expect(lines).toEqual([`warn ${fallbackWarning}`]);
    } finally {
      redis.disconnect();
    }
  });

  test("redisInUse: true while Redis answers, false from a failed call on a connection that still looks up until retryAfterMs has passed", async () => {
    await using server = await startRedisProcess();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      const runner = new RedisWithFallback(redis, { log: silentLogger, fallbackWarning, recoveredMessage, retryAfterMs: 300 });
      expect(await whereItRan(runner)).toBe("redis:PONG");
      expect(runner.redisInUse()).toBe(true);
      // A command Redis fails while the connection stays up (a Cluster's slots down, a reply that does not parse).
      const answer = await runner.run(
        async (client) => String(await client.call("NO-SUCH-COMMAND")),
        async () => "fallback",
      );
      expect(answer).toBe("fallback");
      expect(redis.status).toBe("ready");
      expect(runner.redisInUse()).toBe(false);
      await waitFor("retryAfterMs to pass", () => runner.redisInUse(), 2_000);
      expect(await whereItRan(runner)).toBe("redis:PONG");
      await server.kill();
      await waitFor("the connection seen down", () => redis.status !== "ready");
      expect(runner.redisInUse()).toBe(false);
    } finally {
      redis.disconnect();
    }
  });
});
