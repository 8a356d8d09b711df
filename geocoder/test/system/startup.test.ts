import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  defaultTestTimeoutMs,
  deleteKeysWithPrefix,
  freePort,
  readJson,
  startServicesTogether,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
} from "@linkgeo/testing";
import { reply, startFakeProvider } from "@linkgeo/testing";

const geocoderDir = join(import.meta.dir, "../..");

describe("starting the geocoder", () => {
  test("a bad configuration stops it with one line per bad variable", async () => {
    const child = Bun.spawn(["bun", "run", "src/main.ts"], {
      cwd: geocoderDir,
      env: { PATH: process.env.PATH, PORT: "99999", HERE_URL: "ftp://x", GEOCODER_DEFAULT_ORDER: "bing" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(exitCode).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      'geocoder: PORT must be a whole number from 0 to 65535 (got "99999")',
      "geocoder: GEOCODER_DEFAULT_ORDER has unknown entries BING: use REPLICAS, NOMINATIM, GEOAPIFY, HERE, LOCAL",
    ]);
  });

  test(
    "registers providers from the environment and answers through its caches, logging JSON in production",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "geocoder-start-"));
      await using replica = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
      const port = await freePort();
      const child = Bun.spawn(["bun", "run", "src/main.ts"], {
        cwd: geocoderDir,
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          HOST: "127.0.0.1",
          NODE_ENV: "production",
          NOMINATIM_REVERSER_REPLICA_URL_1: replica.url().toString(),
          HERE_API_KEY: "never-shown-key",
          GEOCODER_CACHE_PATH: join(dir, "l2.db"),
        },
        stdout: "pipe",
        stderr: "inherit",
      });
      let answered = false;
      try {
        const base = `http://127.0.0.1:${port}`;
        // Loading LOCAL's data takes seconds, more on a busy machine: the bound is the case's own, and an exit ends the wait at once.
        await waitFor(
          "the geocoder to be ready",
          async () => {
            if (child.exitCode !== null) throw new Error(`the geocoder exited (${child.exitCode}) before it was ready`);
            return (await fetch(`${base}/ready`).catch(() => null))?.ok === true;
          },
          defaultTestTimeoutMs,
        );
        const geocoders = await readJson(await fetch(`${base}/geocoders`));
        expect(geocoders.geocoders.map((g: { name: string }) => g.name)).toEqual(["NOMINATIM_REPLICA_1", "HERE", "LOCAL"]);
        const first = await fetch(`${base}/reverse-geocode?latitude=48.86&longitude=2.35`);
        expect([first.status, first.headers.get("x-cache"), first.headers.get("x-geocoder-provider")]).toEqual([200, "MISS", "NOMINATIM_REPLICA_1"]);
        const second = await fetch(`${base}/reverse-geocode?latitude=48.86&longitude=2.35`);
        expect(second.headers.get("x-cache")).toBe("L1");
        expect(replica.requests).toHaveLength(1);
        answered = true;
      } finally {
        child.kill("SIGTERM");
        // A stop during start-up is not a clean one: checked only when the case got this far, so it never hides why it did not.
        const exitCode = await child.exited;
        const printed = await new Response(child.stdout).text();
        rmSync(dir, { recursive: true, force: true });
        if (answered) {
          expect(exitCode).toBe(0);
          const lines = printed
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line));
          expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(["listening", "shutting down", "stopped"]));
          expect(JSON.stringify(lines)).not.toContain("never-shown-key");
        }
      }
      // Its own bound: the wait for ready may take a whole default test time on a starved machine.
    },
    2 * defaultTestTimeoutMs,
  );

  test("replicas with REDIS_URL share a provider's 429: the second does not call it while it asked us to wait", async () => {
    const dir = mkdtempSync(join(tmpdir(), "geocoder-replicas-"));
    const prefix = uniqueRedisPrefix("geocoder_replicas");
    await using here = startFakeProvider({
      replies: [reply.fixture("here-err-429-rate-limit.json", 429, { "retry-after": "60" })],
      otherwise: reply.fixture("here-01-vienna-at-official-docs.json"),
    });
    await using stack = new AsyncDisposableStack();
    try {
      const env = (n: number) => ({
        REDIS_URL: testRedisUrl,
        REDIS_KEY_PREFIX: prefix,
        HERE_API_KEY: "k",
        HERE_URL: here.url().toString(),
        GEOCODER_LOCAL: "false",
        GEOCODER_CACHE_PATH: join(dir, `l2-${n}.db`),
      });
      const [first, second] = await startServicesTogether(stack, [
        { service: "geocoder", env: env(1) },
        { service: "geocoder", env: env(2) },
      ]);
      // Started is not yet connected: each asks Redis only once its client is up (its /ready says so), or it holds the cooldown for itself.
      for (const replica of [first!, second!]) {
        const redisCheck = async () => ((await readJson(await fetch(`${replica.url}/ready`))) as { checks: Record<string, string> }).checks.l1;
        await waitFor(`${replica.url}'s Redis connected`, async () => (await redisCheck()) === "ok");
      }
      const one = await fetch(`${first!.url}/reverse-geocode?latitude=48.2&longitude=16.4`);
      expect([one.status, (await readJson(one)).error.code]).toEqual([429, "rate_limited"]);
      const two = await fetch(`${second!.url}/reverse-geocode?latitude=48.3&longitude=16.4`);
      expect([two.status, (await readJson(two)).error.providers]).toEqual([429, [{ name: "HERE", reason: "rate_limited" }]]);
      expect(here.requests).toHaveLength(1);
    } finally {
      await deleteKeysWithPrefix(testRedisUrl, prefix);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
