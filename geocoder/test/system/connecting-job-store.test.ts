import { describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { createTestDatabase, readJson, startService, waitFor } from "@linkgeo/testing";
import { connectingJobStore } from "../../src/jobs/connecting-job-store.ts";
import { jobPace, startJobRunner } from "../../src/jobs/job-runner.ts";
import { openJobDatabase, SqliteJobStore } from "../../src/jobs/sqlite-job-store.ts";

describe("a jobs' store opened in the background", () => {
  test("answers 503 until it opens, tries again meanwhile, then passes every call on", async () => {
    let attempts = 0;
    const store = connectingJobStore(
      async () => {
        if (++attempts < 3) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        return new SqliteJobStore(openJobDatabase(":memory:"));
      },
      { log: silentLogger, retryMs: 10 },
    );
    expect(await store.find("x").catch((error) => error)).toMatchObject({ status: 503, code: "service_unavailable" });
    await waitFor("the third attempt", () => attempts === 3);
    await waitFor(
      "the store open",
      async () =>
        (await store
          .ping()
          .then(() => true)
          .catch(() => false)) === true,
    );
    expect(await store.find("x")).toBeUndefined();
    await store.close();
  });

  test("a runner waiting for a store that cannot be opened still stops at once", async () => {
    const store = connectingJobStore(() => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")), { log: silentLogger, retryMs: 10 });
    const runner = startJobRunner({
      store,
      storeOpened: store.opened,
      geocoder: { reverseMany: async () => [] },
      forward: { forwardMany: async () => [] },
      pace: jobPace(1_000, 1),
      owner: "test",
      ttlMs: 60_000,
      log: silentLogger,
    });
    const graceMs = 60_000;
    const started = performance.now();
    await runner.stop(graceMs);
    expect(performance.now() - started).toBeLessThan(1_000);
    await store.close();
  });

  test("a geocoder whose jobs' Postgres is down at start serves single queries, says so on /ready, and answers the jobs' routes 503", async () => {
    // Nothing listens on port 9 of loopback.
    await using geocoder = await startService(
      "geocoder",
      { GEOCODER_CACHE_PATH: ":memory:", GEOCODER_JOBS_DATABASE_URL: "postgres://nobody@127.0.0.1:9/jobs" },
      { echo: false },
    );
    expect((await fetch(`${geocoder.url}/reverse-geocode?latitude=48.2&longitude=16.37`)).status).toBe(200);
    const ready = (await readJson(await fetch(`${geocoder.url}/ready`))) as { checks: Record<string, string> };
    expect(ready.checks.jobs).not.toBe("ok");
    const created = await fetch(`${geocoder.url}/reverse-geocode/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ points: [{ latitude: 48.2, longitude: 16.37 }] }),
    });
    expect(created.status).toBe(503);
    expect(created.headers.get("retry-after")).toBe("1");
    expect(geocoder.lines().some((line) => line.includes("the jobs' store cannot be opened"))).toBe(true);
  });

  test("a geocoder whose jobs' Postgres is up at start logs no warning: its runner waits for the store to open", async () => {
    await using database = await createTestDatabase("geocoder_jobs_start");
    await using geocoder = await startService(
      "geocoder",
      { GEOCODER_CACHE_PATH: ":memory:", GEOCODER_JOBS_DATABASE_URL: database.url, LOG_LEVEL: "info", LOG_FORMAT: "json" },
      { echo: false },
    );
    const jobsCheck = async () => ((await readJson(await fetch(`${geocoder.url}/ready`))) as { checks: Record<string, string> }).checks.jobs;
    await waitFor("the jobs' store open", async () => (await jobsCheck()) === "ok");
    const created = await fetch(`${geocoder.url}/reverse-geocode/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ points: [{ latitude: 48.2, longitude: 16.37 }] }),
    });
    expect(created.status).toBe(202);
    const { id } = (await readJson(created)) as { id: string };
    await waitFor(
      "the job answered",
      async () => ((await readJson(await fetch(`${geocoder.url}/reverse-geocode/jobs/${id}`))) as { status: string }).status === "done",
    );
    const logged = geocoder.lines().map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(logged.filter((line) => line.level !== "info")).toEqual([]);
  });
});
