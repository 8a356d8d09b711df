import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort, isRunning, startThrowawayServers, useTestServers, waitFor } from "@linkgeo/testing";
import Redis from "ioredis";
import postgres from "postgres";

const runScript = join(import.meta.dir, "..", "fixtures", "throwaway-servers-run.ts");
const started: Array<{ dir: string; pids: readonly number[] }> = [];

afterAll(() => {
  // A failed test must not leave servers behind either.
  for (const { pids } of started) for (const pid of pids.filter(isRunning)) process.kill(pid, "SIGKILL");
});

/** The fixture run with both variables at closed ports; resolves once it printed where its servers are. */
async function startRun() {
  const env = {
    ...process.env,
    TEST_POSTGRES_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
    TEST_REDIS_URL: `redis://127.0.0.1:${await freePort()}/1`,
  };
  const child = Bun.spawn([process.execPath, "run", runScript], { env, stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the run ended before it started its servers: ${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  const servers = JSON.parse(text.slice(0, text.indexOf("\n"))) as { dir: string; pids: number[] };
  started.push(servers);
  return { child, servers };
}

const gone = (servers: { dir: string; pids: readonly number[] }) => !servers.pids.some(isRunning) && !existsSync(servers.dir);

describe("the test kit's throwaway Postgres and Redis", () => {
  test("answer as the suites use them, and stop() leaves no process and no folder", async () => {
    const servers = await startThrowawayServers({ postgres: true, redis: true });
    started.push(servers);
    expect(servers.pids).toHaveLength(2);
    const sql = postgres(servers.postgresUrl!, { max: 1, onnotice: () => {} });
    const redis = new Redis(servers.redisUrl!);
    try {
      await sql.unsafe('CREATE DATABASE "made_by_a_suite"');
      expect(await sql`SELECT datname FROM pg_database WHERE datname = 'made_by_a_suite'`).toHaveLength(1);
      expect(await redis.set("k", "v")).toBe("OK");
    } finally {
      await sql.end();
      redis.disconnect();
    }
    servers.stop();
    expect(gone(servers)).toBe(true);
  });

  test("servers that answer are used as they are: nothing is started", async () => {
    const before = { postgres: process.env.TEST_POSTGRES_URL, redis: process.env.TEST_REDIS_URL };
    expect(await useTestServers()).toBeUndefined();
    expect({ postgres: process.env.TEST_POSTGRES_URL, redis: process.env.TEST_REDIS_URL }).toEqual(before);
  });

  test("where a program is missing and cannot be installed, the run stops at once with one sentence naming what to install", async () => {
    // No PATH: neither redis-server nor apt-get is to be found.
    const env = { ...process.env, PATH: "/nonexistent", TEST_REDIS_URL: `redis://127.0.0.1:${await freePort()}/1` };
    const child = Bun.spawn([process.execPath, "run", runScript], { env, stdout: "pipe", stderr: "pipe" });
    expect(await child.exited).not.toBe(0);
    expect(await new Response(child.stderr).text()).toContain(
      "no Redis answers at TEST_REDIS_URL and its programs are not installed here; install Redis (Debian: apt-get install redis-server) or point TEST_REDIS_URL at a running server.",
    );
  });

  test("a run interrupted with SIGINT stops its servers and removes their folder", async () => {
    const { child, servers } = await startRun();
    expect(servers.pids.every(isRunning)).toBe(true);
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    expect(gone(servers)).toBe(true);
  });

  test("a run killed outright leaves its servers to the watchdog, which stops them and removes their folder", async () => {
    const { child, servers } = await startRun();
    child.kill("SIGKILL");
    await child.exited;
    await waitFor("the watchdog to stop the servers", async () => gone(servers), 10_000);
  });
});
