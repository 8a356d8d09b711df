import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  deleteKeysWithPrefix,
  readJson,
  reply,
  startFakeProvider,
  startService,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
  type ServiceProcess,
} from "@linkgeo/testing";

const folder = mkdtempSync(join(tmpdir(), "job-replicas-"));
const redisPrefix = uniqueRedisPrefix("job-replicas");
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await deleteKeysWithPrefix(testRedisUrl, redisPrefix);
});

const points = 1_000;
const perSecond = 250;
const spacingMs = 1000 / perSecond;
/**
 * The claims' lease. Renewed every third of it, so a replica loses its claim
 * only when it stalls for two thirds: a whole second's lease was lost on a CI
 * run at load 22 (its points then asked twice, past the bound below), three
 * give it two seconds.
 */
const leaseSeconds = 3;

/**
 * A job answered by two geocoder processes sharing its SQLite file and the
 * provider's spacing through Redis, while one is killed (SIGKILL) and
 * restarted and the other is stopped and restarted: every point is
 * answered exactly once, by the provider, never faster than its spacing.
 */
describe("a job over replicas that die", () => {
  test("two replicas, one killed mid-job and both restarted: every point answered once, at the provider's pace", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const env = (replica: string) => ({
      GEOCODER_CACHE_PATH: join(folder, `cache-${replica}.db`),
      GEOCODER_JOBS_PATH: join(folder, "jobs.db"),
      GEOCODER_LOCAL: "false",
      GEOCODER_JOB_LEASE_SECONDS: String(leaseSeconds),
      NOMINATIM_USER_AGENT: "linkgeo-test/1.0",
      NOMINATIM_URL: nominatim.url().toString(),
      NOMINATIM_RATE_LIMIT: String(perSecond),
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
    });
    const started: ServiceProcess[] = [];
    const start = async (replica: string) => {
      const service = await startService("geocoder", env(replica), { name: `geocoder-${replica}` });
      started.push(service);
      return service;
    };
    try {
      let a = await start("a");
      let b = await start("b");
      const body = { points: Array.from({ length: points }, (_, i) => ({ id: i, latitude: 40 + i / 1000, longitude: 2 })) };
      const posted = performance.now();
      const created = await fetch(`${a.url}/reverse-geocode/jobs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(created.status).toBe(202);
      const { id } = (await readJson(created)) as { id: string };
      const progress = async (service: ServiceProcess) =>
        (await readJson(await fetch(`${service.url}/reverse-geocode/jobs/${id}`))) as { status: string; done: number; failed: number };

      // A quarter done: a dies with its claim in hand; a new a takes its place.
      await waitFor("a quarter done", async () => (await progress(b)).done >= points / 4, 30_000);
      a.kill("SIGKILL");
      await a.exited;
      a = await start("a2");
      // Half done: b is stopped as a deployment stops it, and started again.
      await waitFor("half done", async () => (await progress(a)).done >= points / 2, 30_000);
      b.kill("SIGTERM");
      expect(await b.exited).toBe(0);
      b = await start("b2");

      await waitFor("the job done", async () => (await progress(b)).status === "done", 60_000);
      expect(await progress(a)).toMatchObject({ status: "done", done: points, failed: 0 });
      const lines = (await (await fetch(`${b.url}/reverse-geocode/jobs/${id}/results`)).text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { index: number; id: number; status: string; provider: string });
      expect(lines.map((line) => line.index)).toEqual(Array.from({ length: points }, (_, i) => i));
      expect(lines.every((line, i) => line.id === i && line.status === "done" && line.provider === "NOMINATIM")).toBe(true);

      // Every point asked; again only those a dead replica held unanswered (one claim, 64 at most).
      const arrivals = nominatim.requests.map((request) => request.at).sort((x, y) => x - y);
      expect({ arrivals: arrivals.length, atLeast: arrivals.length >= points, atMost: arrivals.length <= points + 64 }).toMatchObject({
        atLeast: true,
        atMost: true,
      });
      // Never faster than the spacing: every request takes a slot of the one limiter the replicas share, the
      // first no sooner than the job was posted, the next ones a spacing apart each, and leaves no sooner than its
      // slot, so the k-th arrives at least k spacings after the post (less 1 ms: Redis TIME is read in whole ms).
      // Measured from the post, not between two arrivals: the fake may read the first of them late on a loaded
      // machine (a loaded run saw 50 requests in 183 ms, their slots 200 apart).
      const firstTooSoon = arrivals.map((at, k) => ({ k, after: at - posted, slot: k * spacingMs })).find(({ after, slot }) => after < slot - 1);
      expect(firstTooSoon).toBeUndefined();
    } finally {
      for (const service of started) await service[Symbol.asyncDispose]();
    }
  }, 120_000);
});
