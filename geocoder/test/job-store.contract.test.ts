import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ClaimedPoint, JobKind, JobPointInput, JobStore, PointResult } from "../src/jobs/job-store.ts";
import { pointsRetryAfterSeconds, type JobQuota } from "../src/jobs/job-quota.ts";
import { jobSize, legacyPointBytes, minJobBytes, reserveBytes, resultBytesChange } from "../src/jobs/job-size.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, holdSqliteLock, waitFor } from "@linkgeo/testing";
import postgres from "postgres";
import { deletePointsSql, PostgresJobStore } from "../src/jobs/postgres-job-store.ts";
import { openCacheDatabase } from "../src/cache/sqlite-cache-level.ts";
import { openJobDatabase, SqliteJobStore, waitingPointsSql } from "../src/jobs/sqlite-job-store.ts";
import { jobStoreEngines, roomyQuota } from "./support/job-store-engines.ts";

const ttlMs = 60_000;
const leaseMs = 1_000;

const answered = (provider = "NOMINATIM"): PointResult => ({ data: [], error: null, provider, cache: "MISS" });
const refused = (index: number): PointResult => ({
  data: [],
  error: { code: "invalid_coordinates", message: "latitude must be between -90 and 90", index },
  provider: null,
  cache: null,
});
const point = (i: number, id: JobPointInput["id"] = i): JobPointInput => ({ id, latitude: 48 + i / 1000, longitude: 2 });
const results = (points: readonly ClaimedPoint[], result: PointResult = answered()) => points.map((claimed) => ({ point: claimed, result }));

/**
 * The jobs' store on every engine it runs on: what makes a point answered
 * exactly once over replicas that claim, die and claim again.
 */
describe.each(jobStoreEngines)("job store on $engine", ({ open }) => {
  let store: JobStore;
  let cleanup: () => Promise<void>;
  let seq = 0;
  /** A job id hash no other test uses; jobs are made at `createdAt` so tests order them. */
  const newJob = async (points: JobPointInput[], createdAt: number, extra: { platform?: string; language?: string; kind?: JobKind } = {}) => {
    const idHash = `job-${++seq}-${createdAt}`;
    await store.create(
      { idHash, kind: extra.kind ?? "reverse", platform: extra.platform ?? null, language: extra.language ?? null, points, createdAt, client: "someone" },
      ttlMs,
      roomyQuota,
    );
    return idHash;
  };
  /** Claims and completes everything waiting, so the next test starts from an empty queue. */
  const drain = async (now: number) => {
    for (let claimed = await store.claim("drain", 1000, now, leaseMs); claimed.length > 0; claimed = await store.claim("drain", 1000, now, leaseMs)) {
      await store.complete("drain", results(claimed), now, ttlMs);
    }
  };

  beforeAll(async () => {
    ({ store, cleanup } = await open());
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  test("a job is kept with its points; one whose every point was refused is done at once", async () => {
    const job = await newJob([point(0, "a"), { id: 7, latitude: null, longitude: null, result: refused(1) }, point(2, null)], 1_000, {
      platform: "NOMINATIM",
      language: "de",
    });
    expect(await store.find(job)).toEqual({
      kind: "reverse",
      status: "running",
      platform: "NOMINATIM",
      language: "de",
      total: 3,
      done: 1,
      failed: 1,
      createdAt: 1_000,
      finishedAt: null,
      expiresAt: null,
    });
    expect(await store.points(job, -1, 10)).toEqual([
      { index: 0, id: "a", latitude: 48, longitude: 2, query: null, result: null },
      { index: 1, id: 7, latitude: null, longitude: null, query: null, result: refused(1) },
      { index: 2, id: null, latitude: 48.002, longitude: 2, query: null, result: null },
    ]);
    const hopeless = await newJob([{ id: null, latitude: null, longitude: null, result: refused(0) }], 2_000);
    expect(await store.find(hopeless)).toMatchObject({ status: "done", done: 1, failed: 1, finishedAt: 2_000, expiresAt: 2_000 + ttlMs });
    expect(await store.find("no-such-job")).toBeUndefined();
    await drain(3_000);
  });

  test("a forward job keeps its queries: claimed with them, read back with them, its kind on the record", async () => {
    const zurich = { text: "Zürich", limit: 3, countries: ["CH"], language: "de" };
    const springfield = { text: "Springfield IL", limit: 1, near: { latitude: 39.8, longitude: -89.65 } };
    const job = await newJob(
      [
        { id: "office", latitude: null, longitude: null, query: zurich },
        { id: 2, latitude: null, longitude: null, result: refused(1) },
        { id: null, latitude: null, longitude: null, query: springfield },
      ],
      5_000,
      { kind: "forward", language: "de" },
    );
    expect(await store.find(job)).toMatchObject({ kind: "forward", status: "running", total: 3, done: 1, failed: 1 });
    expect(await store.points(job, -1, 10)).toEqual([
      { index: 0, id: "office", latitude: null, longitude: null, query: zurich, result: null },
      { index: 1, id: 2, latitude: null, longitude: null, query: null, result: refused(1) },
      { index: 2, id: null, latitude: null, longitude: null, query: springfield, result: null },
    ]);
    const taken = await store.claim("one", 10, 6_000, leaseMs);
    expect(taken).toEqual([
      { job, index: 0, kind: "forward", query: zurich, platform: null, language: "de" },
      { job, index: 2, kind: "forward", query: springfield, platform: null, language: "de" },
    ]);
    await store.complete("one", results(taken), 6_000, ttlMs);
    expect(await store.find(job)).toMatchObject({ kind: "forward", status: "done", done: 3 });
    await drain(7_000);
  });

  test("claims take the oldest job's waiting points in order, each under a lease that another claim respects until it runs out", async () => {
    const later = await newJob([point(0), point(1)], 20_000, { language: "fr" });
    const first = await newJob([point(0), point(1), point(2)], 10_000);
    const taken = await store.claim("one", 4, 30_000, leaseMs);
    expect(taken.map((claimed) => [claimed.job, claimed.index])).toEqual([
      [first, 0],
      [first, 1],
      [first, 2],
      [later, 0],
    ]);
    expect(taken[3]).toEqual({ job: later, index: 0, kind: "reverse", latitude: 48, longitude: 2, platform: null, language: "fr" });
    expect((await store.claim("two", 10, 30_000 + leaseMs - 1, leaseMs)).map((claimed) => [claimed.job, claimed.index])).toEqual([[later, 1]]);
    // "one" died: once its lease runs out its points are another's.
    expect((await store.claim("two", 10, 30_000 + leaseMs, leaseMs)).map((claimed) => claimed.index)).toEqual([0, 1, 2, 0]);
    await drain(40_000);
  });

  test("a result is written once, by the lease's holder; the last one finishes the job, which expires a while later", async () => {
    const job = await newJob([point(0), point(1), point(2)], 50_000);
    const mine = await store.claim("one", 3, 50_000, leaseMs);
    // "one" stalls past its lease; "two" takes the first point over and answers it.
    const theirs = await store.claim("two", 1, 50_000 + leaseMs, leaseMs);
    expect(theirs.map((claimed) => claimed.index)).toEqual([0]);
    expect(await store.complete("two", results(theirs, answered("HERE")), 51_500, ttlMs)).toBe(1);
    // "one" wakes up: its first point is no longer its own; its others are.
    expect(await store.complete("one", [...results(mine.slice(0, 1)), { point: mine[1]!, result: refused(1) }, ...results(mine.slice(2))], 52_000, ttlMs)).toBe(
      2,
    );
    expect(await store.complete("one", results(mine), 52_000, ttlMs)).toBe(0);
    expect(await store.find(job)).toMatchObject({ status: "done", done: 3, failed: 1, finishedAt: 52_000, expiresAt: 52_000 + ttlMs });
    expect((await store.points(job, -1, 10)).map((stored) => stored.result?.provider ?? stored.result?.error?.code)).toEqual([
      "HERE",
      "invalid_coordinates",
      "NOMINATIM",
    ]);
    expect(await store.claim("three", 10, 60_000, leaseMs)).toEqual([]);
  });

  test("a renewed lease keeps the points, a released one frees them; a cancelled job gives none out and takes no result", async () => {
    const job = await newJob([point(0), point(1)], 70_000);
    const mine = await store.claim("one", 1, 70_000, leaseMs);
    await store.renew("one", mine, 70_000 + 5 * leaseMs);
    await store.renew("intruder", mine, 70_000);
    expect((await store.claim("two", 10, 70_000 + 2 * leaseMs, leaseMs)).map((claimed) => claimed.index)).toEqual([1]);
    // Given back: another claim takes it at once, its lease not run out; an intruder's release changes nothing.
    await store.release("intruder", mine);
    expect(await store.claim("three", 10, 70_000 + 2 * leaseMs, leaseMs)).toEqual([]);
    await store.release("one", mine);
    const again = await store.claim("three", 10, 70_000 + 2 * leaseMs, leaseMs);
    expect(again.map((claimed) => claimed.index)).toEqual([0]);
    expect(await store.complete("one", results(mine), 70_000 + 2 * leaseMs, ttlMs)).toBe(0);
    await store.release("three", again);

    expect(await store.cancel(job, 73_000, ttlMs)).toMatchObject({ status: "cancelled", done: 0, finishedAt: 73_000, expiresAt: 73_000 + ttlMs });
    expect(await store.complete("one", results(mine), 74_000, ttlMs)).toBe(0);
    expect(await store.claim("three", 10, 100_000, leaseMs)).toEqual([]);
    expect(await store.find(job)).toMatchObject({ status: "cancelled", done: 0 });
    // Cancelling again, or a finished job, changes nothing; an unknown one is not there.
    expect(await store.cancel(job, 75_000, ttlMs)).toMatchObject({ status: "cancelled", finishedAt: 73_000 });
    expect(await store.cancel("no-such-job", 75_000, ttlMs)).toBeUndefined();
  });

  test("points page in order; expired jobs are deleted with their points, the others stay", async () => {
    // The jobs the tests above finished, gone first.
    await store.deleteExpired(200_000);
    const job = await newJob(
      Array.from({ length: 25 }, (_, i) => point(i, i % 2 === 0 ? String(i) : i)),
      200_000,
    );
    const pages = [await store.points(job, -1, 10), await store.points(job, 9, 10), await store.points(job, 19, 10), await store.points(job, 24, 10)];
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5, 0]);
    expect(pages.flat().map((stored) => stored.index)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(pages[1]![0]!.id).toBe("10");
    expect(pages[1]![1]!.id).toBe(11);

    await store.cancel(job, 205_000, ttlMs);
    const done = await newJob([point(0)], 210_000);
    await store.complete("one", results(await store.claim("one", 10, 210_000, leaseMs)), 210_000, ttlMs);
    expect(await store.find(done)).toMatchObject({ status: "done" });
    expect(await store.deleteExpired(205_000 + ttlMs - 1)).toBe(0);
    expect(await store.deleteExpired(205_000 + ttlMs)).toBe(1);
    expect(await store.find(job)).toBeUndefined();
    expect(await store.points(job, -1, 10)).toEqual([]);
    expect(await store.find(done)).toMatchObject({ status: "done" });
    expect(await store.deleteExpired(210_000 + ttlMs)).toBe(1);
    expect(await store.find(done)).toBeUndefined();
  });

  test("an expired job of many thousand points goes whole, a few thousand a step; reads lose it at once", async () => {
    const big = await newJob(
      Array.from({ length: 12_345 }, (_, i) => point(i)),
      400_000,
    );
    await store.cancel(big, 400_000, ttlMs);
    expect(await store.deleteExpired(400_000 + ttlMs)).toBeGreaterThanOrEqual(1);
    expect(await store.find(big)).toBeUndefined();
    expect(await store.points(big, -1, 10)).toEqual([]);
  });

  test("two claims at once never take the same point", async () => {
    const job = await newJob(
      Array.from({ length: 200 }, (_, i) => point(i)),
      300_000,
    );
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claim(`replica-${i}`, 30, 300_000, leaseMs)));
    const taken = claims.flat().map((claimed) => `${claimed.job}/${claimed.index}`);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length).toBe(200);
    expect(claims.flat().every((claimed) => claimed.job === job)).toBe(true);
    const written = await Promise.all(claims.map((claimed, i) => store.complete(`replica-${i}`, results(claimed), 300_001, ttlMs)));
    expect(written.reduce((sum, count) => sum + count, 0)).toBe(200);
    expect(await store.find(job)).toMatchObject({ status: "done", done: 200, failed: 0 });
  });

  // The quotas' cases run last, at instants after every case above: their pruning deletes what those left.
  /** A job of `client`'s, made at `createdAt` under `quota`: its id hash and the refusal, if any. */
  const makeFor = async (client: string, points: JobPointInput[], createdAt: number, quota: JobQuota) => {
    const idHash = `job-${++seq}-${client}`;
    const refusal = await store.create({ idHash, kind: "reverse", platform: null, language: null, points, createdAt, client }, ttlMs, quota);
    return { idHash, refusal };
  };
  const points = (count: number) => Array.from({ length: count }, (_, i) => point(i));

  test("a client's jobs are charged by what they keep: points and ids, answers in place of their reserve, a cancelled job's reserve given back", async () => {
    const at = 1_000_000;
    // What the cases above left, finished and deleted: the store's sum moves by this case's job alone.
    await drain(at - ttlMs);
    await store.deleteExpired(at);
    const before = (await store.usage("dana", at)).storeBytes;
    const sent = points(300);
    const { bytes } = jobSize(sent);
    const { idHash, refusal } = await makeFor("dana", sent, at, roomyQuota);
    expect(refusal).toBeUndefined();
    expect(await store.usage("dana", at)).toEqual({ clientPointsWaiting: 300, clientBytes: bytes, clientNextExpiry: null, storeBytes: before + bytes });
    // Another client's jobs are not dana's.
    expect(await store.usage("erin", at)).toEqual({ clientPointsWaiting: 0, clientBytes: 0, clientNextExpiry: null, storeBytes: before + bytes });

    await store.complete("one", results(await store.claim("one", 40, at, leaseMs)), at, ttlMs);
    const answeredBytes = bytes + 40 * resultBytesChange(null, JSON.stringify(answered()));
    expect(await store.usage("dana", at)).toMatchObject({ clientPointsWaiting: 260, clientBytes: answeredBytes });

    await store.cancel(idHash, at + 1, ttlMs);
    const kept = answeredBytes - 260 * 2 * reserveBytes(null);
    // Above the least a job is charged, so every figure here is the job's own.
    expect(kept).toBeGreaterThan(minJobBytes);
    expect(await store.usage("dana", at + 1)).toEqual({
      clientPointsWaiting: 0,
      clientBytes: kept,
      clientNextExpiry: at + 1 + ttlMs,
      storeBytes: before + kept,
    });
    // Expired: no longer the client's share; still on disk until the pruning deletes it.
    expect(await store.usage("dana", at + 1 + ttlMs)).toEqual({ clientPointsWaiting: 0, clientBytes: 0, clientNextExpiry: null, storeBytes: before + kept });
    await store.deleteExpired(at + 1 + ttlMs);
    expect((await store.usage("dana", at + 1 + ttlMs)).storeBytes).toBe(before);
  });

  test("a forward job's queries are charged with their text and a reserve by their limit, each given back when the job is cancelled", async () => {
    const at = 1_500_000;
    await drain(at);
    const query = (i: number) => ({ text: `Town ${i}`, limit: 1 + (i % 20) });
    const sent = Array.from({ length: 300 }, (_, i): JobPointInput => ({ id: i, latitude: null, longitude: null, query: query(i) }));
    const { bytes } = jobSize(sent);
    // A query of 20 places reserves more than one of 1, which reserves as much as a point.
    expect(reserveBytes(query(19))).toBeGreaterThan(reserveBytes(query(0)));
    expect(reserveBytes(query(0))).toBe(reserveBytes(null));
    expect(bytes).toBeGreaterThan(jobSize(points(300)).bytes);
    const idHash = `job-${++seq}-forward`;
    expect(
      await store.create({ idHash, kind: "forward", platform: null, language: null, points: sent, createdAt: at, client: "lee" }, ttlMs, roomyQuota),
    ).toBeUndefined();
    expect(await store.usage("lee", at)).toMatchObject({ clientPointsWaiting: 300, clientBytes: bytes });
    const taken = await store.claim("one", 40, at, leaseMs);
    await store.complete("one", results(taken), at, ttlMs);
    // Each answer in place of its own query's reserve.
    const answeredBytes = bytes + taken.reduce((sum, point) => sum + resultBytesChange(query(point.index), JSON.stringify(answered())), 0);
    expect(await store.usage("lee", at)).toMatchObject({ clientPointsWaiting: 260, clientBytes: answeredBytes });
    await store.cancel(idHash, at + 1, ttlMs);
    const givenBack = sent.slice(40).reduce((sum, point) => sum + 2 * reserveBytes(point.query), 0);
    expect(await store.usage("lee", at + 1)).toMatchObject({ clientPointsWaiting: 0, clientBytes: answeredBytes - givenBack });
  });

  test("a client's points waiting are bounded: past them a job is refused and nothing of it kept, another client is served; finished or cancelled jobs free them", async () => {
    const at = 2_000_000;
    await drain(at);
    const quota = { ...roomyQuota, clientPoints: 5 };
    const first = await makeFor("fay", points(3), at, quota);
    expect(first.refusal).toBeUndefined();
    const over = await makeFor("fay", points(3), at, quota);
    expect(over.refusal).toEqual({ kind: "points_waiting", waiting: 3, adding: 3, limit: 5, retryAfterSeconds: pointsRetryAfterSeconds });
    expect(await store.find(over.idHash)).toBeUndefined();
    expect(await store.points(over.idHash, -1, 10)).toEqual([]);
    // Refused points wait for nothing: they do not count.
    expect((await makeFor("fay", [point(0), point(1), { id: 2, latitude: null, longitude: null, result: refused(2) }], at, quota)).refusal).toBeUndefined();
    expect((await makeFor("gus", points(5), at, quota)).refusal).toBeUndefined();

    await drain(at + 1);
    expect((await store.usage("fay", at + 1)).clientPointsWaiting).toBe(0);
    const big = await makeFor("fay", points(5), at + 1, quota);
    expect(big.refusal).toBeUndefined();
    expect((await makeFor("fay", points(1), at + 1, quota)).refusal).toMatchObject({ kind: "points_waiting", waiting: 5 });
    await store.cancel(big.idHash, at + 2, ttlMs);
    expect((await makeFor("fay", points(1), at + 2, quota)).refusal).toBeUndefined();
    await drain(at + 3);
  });

  test("a client's bytes count its finished jobs until they expire; Retry-After is when the first one does; a job over the whole quota is refused as such", async () => {
    const at = 3_000_000;
    await drain(at);
    const quota = { ...roomyQuota, clientBytes: 2 * minJobBytes };
    // Small jobs are charged the least a job is: two fit.
    const first = await makeFor("hal", points(2), at, quota);
    expect((await makeFor("hal", points(2), at, quota)).refusal).toBeUndefined();
    expect(first.refusal).toBeUndefined();
    // None finished yet: a share is freed no sooner than a job's lifetime from now.
    expect((await makeFor("hal", points(1), at, quota)).refusal).toEqual({
      kind: "bytes_kept",
      kept: 2 * minJobBytes,
      adding: minJobBytes,
      limit: 2 * minJobBytes,
      retryAfterSeconds: ttlMs / 1000,
    });
    await store.cancel(first.idHash, at + 5_000, ttlMs);
    expect((await makeFor("hal", points(1), at + 10_000, quota)).refusal).toMatchObject({ kind: "bytes_kept", retryAfterSeconds: (ttlMs - 5_000) / 1000 });
    expect((await makeFor("ida", points(1), at + 10_000, quota)).refusal).toBeUndefined();
    // Once the first has expired, its share is free, whether or not the pruning has run.
    expect((await makeFor("hal", points(1), at + 5_000 + ttlMs, quota)).refusal).toBeUndefined();
    expect((await makeFor("hal", points(100), at + 5_000 + ttlMs, { ...quota, clientBytes: minJobBytes })).refusal).toEqual({
      kind: "job_too_large",
      bytes: jobSize(points(100)).bytes,
      limit: minJobBytes,
    });
    await drain(at + 5_000 + ttlMs);
  });

  test("the store's bytes count every job until it is deleted, an expired one too: past them any client is refused", async () => {
    const at = 4_000_000;
    await drain(at);
    await store.deleteExpired(at);
    const quota = { ...roomyQuota, storeBytes: (await store.usage("jay", at)).storeBytes + 2 * minJobBytes };
    const first = await makeFor("jay", points(1), at, quota);
    expect((await makeFor("kim", points(1), at, quota)).refusal).toBeUndefined();
    expect((await makeFor("lou", points(1), at, quota)).refusal).toEqual({ kind: "store_full" });
    await store.cancel(first.idHash, at, ttlMs);
    expect((await makeFor("lou", points(1), at + ttlMs, quota)).refusal).toEqual({ kind: "store_full" });
    await store.deleteExpired(at + ttlMs);
    expect((await makeFor("lou", points(1), at + ttlMs, quota)).refusal).toBeUndefined();
    await drain(at + ttlMs);
  });

  test("jobs made at once never pass a quota together: a client's, or the store's over many clients", async () => {
    const at = 5_000_000;
    await drain(at);
    const attempts = (quota: JobQuota, clientOf: (i: number) => string) =>
      Promise.all(Array.from({ length: 8 }, (_, i) => makeFor(clientOf(i), points(3), at, quota)));
    const own = await attempts({ ...roomyQuota, clientPoints: 10 }, () => "max");
    expect(own.filter(({ refusal }) => refusal === undefined)).toHaveLength(3);
    expect(own.filter(({ refusal }) => refusal?.kind === "points_waiting")).toHaveLength(5);
    expect((await store.usage("max", at)).clientPointsWaiting).toBe(9);

    const storeQuota = { ...roomyQuota, storeBytes: (await store.usage("none", at)).storeBytes + 3 * minJobBytes };
    const many = await attempts(storeQuota, (i) => `client-${i}`);
    expect(many.filter(({ refusal }) => refusal === undefined)).toHaveLength(3);
    expect(many.filter(({ refusal }) => refusal?.kind === "store_full")).toHaveLength(5);
    await drain(at);
  });
});

describe("deleting an expired job on Postgres", () => {
  test("reads its points as one range of the primary key, even when the statistics have seen only small jobs", async () => {
    const database = await createTestDatabase("jobs-plan");
    const store = await PostgresJobStore.open(database.url, 5_000);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      for (let job = 0; job < 50; job++) {
        await store.create(
          { idHash: `small-${job}`, kind: "reverse", platform: null, language: null, points: [point(0), point(1)], createdAt: job, client: "someone" },
          ttlMs,
          roomyQuota,
        );
      }
      await sql`ANALYZE geocode_job_points`;
      await store.create(
        {
          idHash: "big",
          kind: "reverse",
          platform: null,
          language: null,
          points: Array.from({ length: 12_345 }, (_, i) => point(i)),
          createdAt: 99,
          client: "someone",
        },
        ttlMs,
        roomyQuota,
      );
      await sql.unsafe(`PREPARE delete_points(text, integer) AS ${deletePointsSql}`);
      const plan = (await sql.unsafe<Array<{ "QUERY PLAN": string }>>("EXPLAIN EXECUTE delete_points('big', 10000)"))
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      expect(plan).not.toContain("Nested Loop");
      expect(plan).toMatch(/Index Cond: \(\(job = 'big'::text\) AND \(idx < COALESCE\(\$\d+, 2147483647\)\)\)/);
    } finally {
      await sql.end();
      await store.close();
      await database.drop();
    }
  });
});

describe("a claim on SQLite", () => {
  test("walks the index of waiting points, not the job's answered ones: its cost stays the same as the job goes on", () => {
    const db = openJobDatabase(":memory:");
    new SqliteJobStore(db);
    const plan = db.query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${waitingPointsSql}`).all();
    expect(plan.map((step) => step.detail)).toEqual(["SEARCH geocode_job_points USING INDEX geocode_job_points_waiting (job=?)"]);
    db.close();
  });
});

describe("a store made on SQLite while another process holds the file's lock", () => {
  test("waits for it, as replicas starting together on one file do", async () => {
    const folder = mkdtempSync(join(tmpdir(), "jobs-start-"));
    const path = join(folder, "jobs.db");
    // Another process makes the file and takes its write lock for 300 ms, before this one made the tables.
    const holder = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(path)}); db.exec("PRAGMA journal_mode = WAL"); db.exec("BEGIN IMMEDIATE"); console.log("held"); await Bun.sleep(300); db.exec("COMMIT");`,
      ],
      { stdout: "pipe" },
    );
    try {
      const reader = holder.stdout.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toStartWith("held");
      const store = new SqliteJobStore(openJobDatabase(path));
      await store.create(
        { idHash: "after", kind: "reverse", platform: null, language: null, points: [point(0)], createdAt: 1_000, client: "someone" },
        ttlMs,
        roomyQuota,
      );
      expect(await store.find("after")).toMatchObject({ status: "running", total: 1 });
      await store.close();
    } finally {
      holder.kill();
      await holder.exited;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("the geocoder's SQLite files opened while another process holds a fresh file's lock", () => {
  // Turning a fresh file to WAL takes its lock: a CI run's two geocoders starting together on one jobs file failed
  // there ("database is locked" before the lock wait was set), and one never listened.
  test.each([
    ["the jobs file", openJobDatabase],
    ["the L2 cache file", openCacheDatabase],
  ])("%s waits for the lock, then is in WAL mode", async (_, open) => {
    const folder = mkdtempSync(join(tmpdir(), "sqlite-open-"));
    const path = join(folder, "shared.db");
    try {
      await using _holder = await holdSqliteLock(path, 300);
      const db = open(path);
      expect(db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      db.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("a claim on SQLite while another process holds the file's lock", () => {
  test("waits without blocking the event loop, and takes its points once the lock is free", async () => {
    const folder = mkdtempSync(join(tmpdir(), "jobs-lock-"));
    const path = join(folder, "jobs.db");
    const store = new SqliteJobStore(openJobDatabase(path));
    const other = openJobDatabase(path);
    try {
      await store.create(
        { idHash: "locked", kind: "reverse", platform: null, language: null, points: [point(0), point(1)], createdAt: 1_000, client: "someone" },
        ttlMs,
        roomyQuota,
      );
      other.exec("BEGIN IMMEDIATE");
      let ticked = false;
      setTimeout(() => (ticked = true), 0);
      const claiming = store.claim("one", 10, 2_000, leaseMs);
      // Were the claim to wait inside SQLite (busy_timeout), this timer could not fire before it gave up.
      await waitFor("the event loop turning while the claim waits", () => ticked);
      other.exec("COMMIT");
      expect((await claiming).map((claimed) => claimed.index)).toEqual([0, 1]);
    } finally {
      other.close();
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("a completion on Postgres", () => {
  test("racing a cancellation, writes either its results and their counts or nothing", async () => {
    const database = await createTestDatabase("jobs_race");
    const store = await PostgresJobStore.open(database.url, 5_000);
    const other = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await store.create(
        { idHash: "raced", kind: "reverse", platform: null, language: null, points: [point(0), point(1)], createdAt: 1_000, client: "someone" },
        ttlMs,
        roomyQuota,
      );
      const claimed = await store.claim("one", 2, 2_000, leaseMs);
      // A cancellation under way, not committed yet, while the completion runs.
      let commit!: () => void;
      const cancelling = other.begin(async (tx) => {
        await tx`UPDATE geocode_jobs SET status = 'cancelled', finished_at = 2500, expires_at = ${2_500 + ttlMs} WHERE id_hash = 'raced' AND status = 'running'`;
        await new Promise<void>((resolve) => (commit = resolve));
      });
      await waitFor("the cancellation holds the job", async () => commit !== undefined);
      const completing = store.complete("one", results(claimed), 3_000, ttlMs);
      const watcher = postgres(database.url, { max: 1, onnotice: () => {} });
      await waitFor("the completion waiting on a lock", async () => {
        const [row] = await watcher<
          { waiting: number }[]
        >`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        return (row?.waiting ?? 0) > 0;
      });
      await watcher.end();
      commit();
      await cancelling;
      expect(await completing).toBe(0);
      expect(await store.find("raced")).toMatchObject({ status: "cancelled", done: 0 });
      expect((await store.points("raced", -1, 10)).map((stored) => stored.result)).toEqual([null, null]);
    } finally {
      await other.end();
      await store.close();
      await database.drop();
    }
  });
});

describe("a job on SQLite", () => {
  test("is refused while it would leave less free than the floor on the file's disk, read from the file's folder", async () => {
    const folder = mkdtempSync(join(tmpdir(), "jobs-disk-"));
    const job = (idHash: string) => ({ idHash, kind: "reverse" as const, platform: null, language: null, points: [point(0)], createdAt: 1_000, client: "c" });
    try {
      const onDisk = new SqliteJobStore(openJobDatabase(join(folder, "jobs.db")));
      const { diskFreeBytes } = await onDisk.usage("c", 1_000);
      expect(diskFreeBytes).toBeGreaterThan(0);
      expect(await onDisk.create(job("too-much"), ttlMs, { ...roomyQuota, diskFloorBytes: 2 * diskFreeBytes! })).toEqual({ kind: "disk_low" });
      expect(await onDisk.find("too-much")).toBeUndefined();
      await onDisk.close();

      let free = 10 * minJobBytes;
      const store = new SqliteJobStore(openJobDatabase(":memory:"), { diskFree: () => free });
      const quota = { ...roomyQuota, diskFloorBytes: 9 * minJobBytes };
      expect(await store.create(job("fits"), ttlMs, quota)).toBeUndefined();
      free = 10 * minJobBytes - 1;
      expect(await store.create(job("would-not"), ttlMs, quota)).toEqual({ kind: "disk_low" });
      await store.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("a job on Postgres whose points cannot be written", () => {
  test("is counted while they are written, read by no one, and gives its share back once they fail", async () => {
    const database = await createTestDatabase("jobs_reserve");
    const store = await PostgresJobStore.open(database.url, 500);
    const locker = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      let release: (() => void) | undefined;
      const holding = locker.begin(async (tx) => {
        await tx`LOCK TABLE geocode_job_points IN EXCLUSIVE MODE`;
        await new Promise<void>((resolve) => (release = resolve));
      });
      await waitFor("the points' table locked", async () => release !== undefined);
      const creating = store.create(
        { idHash: "blocked", kind: "reverse", platform: null, language: null, points: [point(0), point(1)], createdAt: 1_000, client: "c" },
        ttlMs,
        roomyQuota,
      );
      await waitFor("the job's share reserved", async () => (await store.usage("c", 1_000)).clientPointsWaiting === 2);
      expect(await store.find("blocked")).toBeUndefined();
      expect(await store.claim("one", 10, 1_000, leaseMs)).toEqual([]);
      // Its points wait for the lock past the statement timeout.
      expect(
        await creating.then(
          () => "kept",
          (error: Error) => error.message,
        ),
      ).toBe("canceling statement due to statement timeout");
      release!();
      await holding;
      expect(await store.usage("c", 1_000)).toEqual({ clientPointsWaiting: 0, clientBytes: 0, clientNextExpiry: null, storeBytes: 0 });
      expect(await store.find("blocked")).toBeUndefined();
    } finally {
      await locker.end();
      await store.close();
      await database.drop();
    }
  });
});

// The jobs' table as it was before the quotas: a store opened on it adds what they need, and charges its jobs.
const tableBeforeQuotas = `CREATE TABLE geocode_jobs (
  id_hash TEXT PRIMARY KEY, status TEXT NOT NULL, platform TEXT, language TEXT, total INTEGER NOT NULL, done INTEGER NOT NULL,
  failed INTEGER NOT NULL, created_at BIGINT NOT NULL, finished_at BIGINT, expires_at BIGINT)`;
const jobBeforeQuotas = "INSERT INTO geocode_jobs VALUES ('old', 'running', NULL, NULL, 1000, 10, 0, 1, NULL, NULL)";

describe("a store opened on the jobs of a version before the quotas", () => {
  test.each([
    [
      "sqlite",
      async () => {
        const db = openJobDatabase(":memory:");
        db.exec(tableBeforeQuotas);
        db.exec(jobBeforeQuotas);
        return { store: new SqliteJobStore(db) as JobStore, cleanup: async () => {} };
      },
    ],
    [
      "postgres",
      async () => {
        const database = await createTestDatabase("jobs_before");
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        await sql.unsafe(tableBeforeQuotas);
        await sql.unsafe(jobBeforeQuotas);
        await sql.end();
        return { store: (await PostgresJobStore.open(database.url, 5_000)) as JobStore, cleanup: () => database.drop() };
      },
    ],
  ])("on %s keeps them, charged as points without ids waiting for answers, and no client's", async (_, open) => {
    const { store, cleanup } = await open();
    try {
      expect(await store.find("old")).toMatchObject({ status: "running", total: 1000, done: 10 });
      expect(await store.usage("anyone", 2)).toEqual({ clientPointsWaiting: 0, clientBytes: 0, clientNextExpiry: null, storeBytes: 1000 * legacyPointBytes });
      expect(
        await store.create(
          { idHash: "new", kind: "reverse", platform: null, language: null, points: [point(0)], createdAt: 2, client: "anyone" },
          ttlMs,
          roomyQuota,
        ),
      ).toBeUndefined();
      expect((await store.usage("anyone", 2)).clientBytes).toBe(minJobBytes);
    } finally {
      await store.close();
      await cleanup();
    }
  });
});

describe("a store shared with replicas of a version before forward jobs", () => {
  /** How that version's claim listed the jobs to take points from (sqlite-job-store.ts and postgres-job-store.ts, as they were). */
  const oldClaimJobs = "SELECT id_hash FROM geocode_jobs WHERE status = 'running' ORDER BY created_at, id_hash";
  const forwardJob = { idHash: "forward", kind: "forward" as const, platform: null, language: null, createdAt: 1, client: "c" };
  const reverseJob = { ...forwardJob, idHash: "reverse", kind: "reverse" as const };
  const forwardPoints: JobPointInput[] = [{ id: null, latitude: null, longitude: null, query: { text: "Paris", limit: 5 } }];

  test.each([
    [
      "sqlite",
      async () => {
        const db = openJobDatabase(":memory:");
        const store = new SqliteJobStore(db);
        return { store: store as JobStore, oldClaim: async () => db.query<{ id_hash: string }, []>(oldClaimJobs).all(), cleanup: async () => store.close() };
      },
    ],
    [
      "postgres",
      async () => {
        const database = await createTestDatabase("jobs_mixed");
        const store = await PostgresJobStore.open(database.url, 5_000);
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        return {
          store: store as JobStore,
          oldClaim: async () => [...(await sql.unsafe<Array<{ id_hash: string }>>(oldClaimJobs))],
          cleanup: async () => {
            await sql.end();
            await store.close();
            await database.drop();
          },
        };
      },
    ],
  ])("on %s: their claim never takes a forward job's queries (it would ask them as points); it still takes a reverse job's", async (_, open) => {
    const { store, oldClaim, cleanup } = await open();
    try {
      await store.create({ ...forwardJob, points: forwardPoints }, ttlMs, roomyQuota);
      await store.create({ ...reverseJob, points: [point(0)] }, ttlMs, roomyQuota);
      expect(await oldClaim()).toEqual([{ id_hash: "reverse" }]);
      // To this version both run, and both are claimed.
      expect(await store.find("forward")).toMatchObject({ kind: "forward", status: "running" });
      expect((await store.claim("new", 10, 2, leaseMs)).map((claimed) => [claimed.job, claimed.kind])).toEqual([
        ["forward", "forward"],
        ["reverse", "reverse"],
      ]);
    } finally {
      await cleanup();
    }
  });
});

describe("a Postgres store opened while another session reads the jobs", () => {
  test("takes no exclusive lock when its columns are there: it opens at once, with a statement timeout far under the reader's", async () => {
    const database = await createTestDatabase("jobs_busy");
    const reader = postgres(database.url, { max: 1, onnotice: () => {} });
    const observer = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await (await PostgresJobStore.open(database.url, 5_000)).close();
      // A read in an open transaction holds both tables' share locks until it ends; an ALTER (even ADD COLUMN IF NOT
      // EXISTS) would wait for it past the statement timeout.
      const done = Promise.withResolvers<void>();
      const reading = reader.begin(async (tx) => {
        await tx`SELECT count(*) FROM geocode_jobs, geocode_job_points`;
        await done.promise;
      });
      await waitFor("the reader holds its locks", async () => {
        const [row] = await observer<Array<{ held: number }>>`
          SELECT count(*)::int AS held FROM pg_locks WHERE relation = 'geocode_job_points'::regclass AND granted`;
        return row!.held > 0;
      });
      const store = await PostgresJobStore.open(database.url, 1_000).finally(() => done.resolve());
      await store.close();
      await reading;
    } finally {
      await reader.end();
      await observer.end();
      await database.drop();
    }
  });
});
