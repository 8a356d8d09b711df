/**
 * Geocoding many points at once: the real geocoder (LOCAL only, Redis as L1,
 * SQLite as L2) behind the real gateway, both as processes, rate limits off.
 *
 *   bun run bench:geocode-batch
 *   BENCH_BATCH_POINTS=20000 BENCH_ROUNDS=5 bun run bench:geocode-batch
 *
 * 1. BENCH_BATCH_POINTS (100,000) distinct points, spread over the land and
 *    sea of the whole world, sent through the gateway as batches of 1,000,
 *    4 in flight: every point a miss answered by LOCAL, then cached.
 * 2. One batch of 1,000 points all in L1 (the first batch again), timed
 *    BENCH_ROUNDS x 7 times, alternating with its baseline: the same 1,000
 *    points as single GET /reverse-geocode requests, 64 in flight, also all
 *    L1 hits. The ratio says what a batch saves over one request a point.
 *
 * 3. A job of BENCH_JOB_POINTS (20,000) new points answered by LOCAL, from
 *    its POST to its last point done (asked every 20 ms), alternating
 *    BENCH_ROUNDS times with its baseline: as many other new points as
 *    batches of 1,000, 4 in flight. The difference per point is what a job
 *    adds beyond the provider call: its store's claims, leases and
 *    results, and the wait for the runner.
 *
 * Targets (issue 26): 100,000 distinct points by LOCAL through the gateway
 * in < 3 s; a batch of 1,000 points all in L1 in < 30 ms; a job's overhead
 * per point < 50 µs beyond the provider call. A report, not a test: it
 * exits 0 either way, 1 on errors (a point without an answer, a non-200).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, freePort, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import { spawnChild, waitForChild, waitForReady } from "./support/children.ts";
import { BenchError, checkNotInterrupted, onCleanup, runBench } from "./support/lifecycle.ts";
import { describeMachine, fmtInt, median, table } from "./support/report.ts";
import { intFromEnv } from "./support/settings.ts";

const targets = { distinctSeconds: 3, l1BatchMs: 30, jobOverheadUs: 50 };
const points = intFromEnv("BENCH_BATCH_POINTS", 100_000, 1_000, 10_000_000);
const jobPoints = intFromEnv("BENCH_JOB_POINTS", 20_000, 1_000, 100_000);
const rounds = intFromEnv("BENCH_ROUNDS", 3, 1, 100);
const batchSize = 1_000;
const batchesInFlight = 4;
const singlesInFlight = 64;
const repeats = 7;

// Each service's own variables are set here, never inherited: a provider key in the caller's environment would change what is measured.
const serviceVariable =
  /^(PORT|HOST|NODE_ENV|REDIS_|LOG_LEVEL|LOG_FORMAT|ACCESS_LOG|GEOCODER_|NOMINATIM_|GEOAPIFY_|HERE_|RATE_LIMIT_|SHORTENER_URL|INTERNAL_SECRET)/;
const inherited = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !serviceVariable.test(name)));

async function startService(name: "geocoder" | "gateway", env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawnChild(name, [process.execPath, "run", "src/main.ts"], {
    cwd: join(import.meta.dir, "..", name),
    env: { ...inherited(), NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ACCESS_LOG: "false", ...env },
  });
  if (name === "geocoder") await waitForReady(child, base);
  // No shortener runs here: the gateway is "degraded" for it, and ready for what is measured once the geocoder answers it.
  else
    await waitForChild(child, `${name}'s /ready to see the geocoder`, async () => {
      const answer = await fetch(`${base}/ready`).catch(() => null);
      const body = (await answer?.json().catch(() => null)) as { checks?: { geocoder?: string } } | null;
      return body?.checks?.geocoder === "ok";
    });
  return base;
}

/** The n-th point: a low-discrepancy walk over latitude -60..75 and every longitude, each distinct at 6 decimals. */
function pointAt(n: number): { latitude: number; longitude: number } {
  const golden = 0.6180339887498949;
  return { latitude: Number((-60 + ((n * golden) % 1) * 135).toFixed(6)), longitude: Number((-180 + ((n * 0.7548776662466927) % 1) * 360).toFixed(6)) };
}

interface BatchAnswer {
  results: Array<{ error: unknown; cache: string | null }>;
}

async function sendBatch(gateway: string, first: number, count: number): Promise<BatchAnswer> {
  const body = JSON.stringify({ points: Array.from({ length: count }, (_, i) => pointAt(first + i)) });
  const response = await fetch(`${gateway}/reverse-geocode/batch`, { method: "POST", headers: { "content-type": "application/json" }, body });
  if (response.status !== 200) throw new BenchError(`a batch answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const answer = (await response.json()) as BatchAnswer;
  const failed = answer.results.filter((result) => result.error !== null);
  if (answer.results.length !== count || failed.length > 0) {
    throw new BenchError(`a batch of ${count} answered ${answer.results.length} results, ${failed.length} with an error: ${JSON.stringify(failed[0])}`);
  }
  return answer;
}

/** Every point from `from` to `from + total`, in batches, `batchesInFlight` at once; seconds taken. */
async function distinctPoints(gateway: string, total: number, from = 0): Promise<number> {
  let next = from;
  const end = from + total;
  const started = performance.now();
  const worker = async () => {
    while (next < end) {
      const first = next;
      next += batchSize;
      await sendBatch(gateway, first, Math.min(batchSize, end - first));
      checkNotInterrupted();
    }
  };
  await Promise.all(Array.from({ length: batchesInFlight }, worker));
  return (performance.now() - started) / 1000;
}

/** A job of `total` new points from `from`, from its creation to its last point done; seconds taken. */
async function jobOfPoints(gateway: string, total: number, from: number): Promise<number> {
  const body = JSON.stringify({ points: Array.from({ length: total }, (_, i) => pointAt(from + i)) });
  const started = performance.now();
  const created = await fetch(`${gateway}/reverse-geocode/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body });
  if (created.status !== 202) throw new BenchError(`a job answered ${created.status}: ${(await created.text()).slice(0, 300)}`);
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    const job = (await (await fetch(`${gateway}/reverse-geocode/jobs/${id}`)).json()) as { status: string; done: number; failed: number };
    if (job.status === "done") {
      if (job.failed > 0) throw new BenchError(`a job of ${total} points had ${job.failed} without an answer`);
      return (performance.now() - started) / 1000;
    }
    checkNotInterrupted();
    await Bun.sleep(20);
  }
}

async function l1Batch(gateway: string): Promise<number> {
  const started = performance.now();
  const answer = await sendBatch(gateway, 0, batchSize);
  const elapsed = performance.now() - started;
  if (answer.results.some((result) => result.cache !== "L1")) throw new BenchError("the repeated batch was not answered from L1 alone");
  return elapsed;
}

async function l1Singles(gateway: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < batchSize) {
      const { latitude, longitude } = pointAt(next++);
      const response = await fetch(`${gateway}/reverse-geocode?latitude=${latitude}&longitude=${longitude}`);
      await response.arrayBuffer();
      if (response.status !== 200 || response.headers.get("x-cache") !== "L1")
        throw new BenchError(`a single lookup answered ${response.status}, X-Cache ${response.headers.get("x-cache")}`);
    }
  };
  await Promise.all(Array.from({ length: singlesInFlight }, worker));
  return performance.now() - started;
}

async function main(): Promise<number> {
  const tempDir = mkdtempSync(join(tmpdir(), "bench-geocode-batch-"));
  onCleanup(`remove ${tempDir}`, () => rmSync(tempDir, { recursive: true, force: true }));
  const redisPrefix = uniqueRedisPrefix("bench-geocode-batch");
  onCleanup(`delete Redis keys ${redisPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, redisPrefix));

  console.log(`${describeMachine()}\nstarting the geocoder (LOCAL only) and the gateway …`);
  const geocoder = await startService("geocoder", {
    REDIS_URL: testRedisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    GEOCODER_CACHE_PATH: join(tempDir, "cache.db"),
  });
  const gateway = await startService("gateway", {
    GEOCODER_URL: geocoder,
    SHORTENER_URL: "http://127.0.0.1:9",
    RATE_LIMIT_API: "off",
    RATE_LIMIT_GEOCODE_POINTS: "off",
  });

  // A warm-up batch far from the measured points, so the first measured one pays for no cold start.
  await sendBatch(gateway, 50_000_000, batchSize);
  const distinctSeconds = await distinctPoints(gateway, points);

  const batchMs: number[] = [];
  const singlesMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < repeats; i++) {
      batchMs.push(await l1Batch(gateway));
      singlesMs.push(await l1Singles(gateway));
    }
  }
  const batch = median(batchMs);
  const singles = median(singlesMs);

  // New points for every run of either side: each one a miss answered by LOCAL.
  const jobUs: number[] = [];
  const batchesUs: number[] = [];
  let fresh = 100_000_000;
  for (let round = 0; round < rounds; round++) {
    jobUs.push(((await jobOfPoints(gateway, jobPoints, fresh)) * 1e6) / jobPoints);
    fresh += jobPoints;
    batchesUs.push(((await distinctPoints(gateway, jobPoints, fresh)) * 1e6) / jobPoints);
    fresh += jobPoints;
  }
  const perJobPoint = median(jobUs);
  const perBatchPoint = median(batchesUs);

  console.log(
    `\n${fmtInt(points)} distinct points, batches of ${fmtInt(batchSize)}, ${batchesInFlight} in flight; ${rounds} x ${repeats} alternating L1 rounds\n`,
  );
  console.log(
    table([
      ["figure", "measured", "target"],
      [
        `${fmtInt(points)} distinct points by LOCAL`,
        `${distinctSeconds.toFixed(2)} s (${fmtInt(points / distinctSeconds)} points/s)`,
        `< ${targets.distinctSeconds} s for 100,000`,
      ],
      ["1,000 points in L1, one batch (median)", `${batch.toFixed(1)} ms`, `< ${targets.l1BatchMs} ms`],
      ["1,000 points in L1, single GETs, 64 in flight (median)", `${singles.toFixed(1)} ms`, "baseline"],
      ["batch / singles, time for the same 1,000 L1 points", (batch / singles).toFixed(3), ""],
      [`a job of ${fmtInt(jobPoints)} new points by LOCAL, per point (median)`, `${perJobPoint.toFixed(1)} µs`, ""],
      [`the same number as batches, per point (median)`, `${perBatchPoint.toFixed(1)} µs`, "baseline"],
      ["a job's overhead per point (job - batches)", `${(perJobPoint - perBatchPoint).toFixed(1)} µs`, `< ${targets.jobOverheadUs} µs`],
    ]),
  );
  return 0;
}

if (import.meta.main) await runBench(main);
