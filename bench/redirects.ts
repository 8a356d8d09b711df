/**
 * Redirect throughput: the real shortener (Postgres + Redis, every redirect
 * counted in the database before it answers) against a bare Bun.serve that
 * sends the same 302 and does nothing else. Both are measured with wrk in the
 * same run, on the same machine, so the ratio shortener/bare says how much of
 * Bun's raw speed the shortener keeps. It also checks that the link's
 * access_count grew by exactly the number of redirects wrk received.
 *
 *   bun run bench:redirects             # this benchmark only, 10 s per target
 *   BENCH_SECONDS=5 bun run bench:redirects
 *   bun run bench                       # every benchmark: this one, then bench/geocoder-l1.ts
 *
 * Knobs (environment, shared with the other benchmarks, see
 * bench/support/settings.ts): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2),
 * BENCH_CONNECTIONS (64), BENCH_THREADS (1), BENCH_ROUNDS (1; more rounds
 * alternate bare/shortener and report the median), BENCH_LOG_LEVEL (warn) and
 * BENCH_ACCESS_LOG (false) for the shortener. TEST_POSTGRES_URL and
 * TEST_REDIS_URL as for the tests.
 *
 * This is a report, not a test: it exits 0 whether or not the ratio reaches
 * the target, and 1 only on errors (including a count that lost redirects).
 */
import { join } from "node:path";
import {
  createTestDatabase,
  deleteKeysWithPrefix,
  freePort,
  testRedisUrl,
  uniqueRedisPrefix,
  type TestDatabase,
} from "@linkgeo/shared/testing";
import { startBareServer } from "./support/bare.ts";
import { spawnChild, waitForReady } from "./support/children.ts";
import { compareWithBare, non2xx3xxTotal, reportComparison, type Target } from "./support/compare.ts";
import { BenchError, isInterrupted, onCleanup, runBench } from "./support/lifecycle.ts";
import { describeMachine, fmtInt } from "./support/report.ts";
import { readSettings, type Settings } from "./support/settings.ts";
import { requireWrk, socketErrorTotal, type WrkResult } from "./support/wrk.ts";

const targetRatio = 0.5;
const shortenerDir = join(import.meta.dir, "..", "shortener");
const longUrl = "https://example.com/bench/landing-page";
const cacheControl = "private, max-age=0";

// ---------------------------------------------------------------------------
// The shortener

async function accessCount(base: string, code: string): Promise<number> {
  const response = await fetch(`${base}/shorten/${code}/stats/`);
  if (response.status !== 200) throw new BenchError(`GET /shorten/${code}/stats/ answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { access_count?: unknown };
  if (typeof body.access_count !== "number") throw new BenchError(`stats without a numeric access_count: ${JSON.stringify(body)}`);
  return body.access_count;
}

/**
 * The count once it stops moving: requests wrk abandoned when its timer
 * ran out may still be committing.
 */
async function settledAccessCount(base: string, code: string): Promise<number> {
  let previous = await accessCount(base, code);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await Bun.sleep(150);
    const current = await accessCount(base, code);
    if (current === previous) return current;
    previous = current;
  }
  throw new BenchError("access_count was still changing 10 s after wrk stopped");
}

interface CountCheck {
  /** Redirects wrk received (requests completed minus non-2xx/3xx answers). */
  redirected: number;
  counted: number;
  socketErrors: number;
  verdict: "exact" | "exact+inflight" | "lost" | "over";
}

/**
 * Every redirect wrk received must have been counted (the shortener commits
 * before answering). A few more may be counted than wrk reports: requests in
 * flight when wrk's timer stopped, or whose connection failed (socket
 * errors), reached the server and were committed, but wrk never read the
 * answer. At most one request per connection is in flight.
 */
export function checkCount(result: WrkResult, counted: number, connections: number): CountCheck {
  const redirected = result.requests - result.non2xx3xx;
  const socketErrors = socketErrorTotal(result);
  const verdict =
    counted === redirected ? "exact" : counted < redirected ? "lost" : counted - redirected <= connections + socketErrors ? "exact+inflight" : "over";
  return { redirected, counted, socketErrors, verdict };
}

async function startShortener(settings: Settings, database: TestDatabase, redisPrefix: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawnChild("shortener", [process.execPath, "run", "src/main.ts"], {
    cwd: shortenerDir,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      ELYSIA_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
      LOG_LEVEL: settings.logLevel,
      LOG_FORMAT: "json",
      ACCESS_LOG: settings.accessLog,
    },
  });
  await waitForReady(child, base);
  return { base, child };
}

async function createLink(base: string): Promise<string> {
  const response = await fetch(`${base}/shorten/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ long_url: longUrl }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new BenchError(`POST /shorten/ answered ${response.status}: ${text}`);
  const code = (JSON.parse(text) as { short_url?: unknown }).short_url;
  if (typeof code !== "string") throw new BenchError(`POST /shorten/ answered without short_url: ${text}`);
  return code;
}

/** One redirect by hand: checks it is a 302 and returns the Location the bare server must copy. */
async function probeRedirect(url: string): Promise<{ location: string }> {
  const response = await fetch(url, { redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new BenchError(`GET ${url} answered ${response.status}, not a 302 with Location`);
  if (response.headers.get("cache-control") !== cacheControl) throw new BenchError(`GET ${url} answered Cache-Control "${response.headers.get("cache-control")}"`);
  return { location };
}

// ---------------------------------------------------------------------------
// Report

function describeCount(check: CountCheck, connections: number): string {
  const numbers = `access_count grew by ${fmtInt(check.counted)}, wrk received ${fmtInt(check.redirected)} redirects` +
    (check.socketErrors > 0 ? ` and reported ${check.socketErrors} socket errors` : "");
  const extra = check.counted - check.redirected;
  switch (check.verdict) {
    case "exact":
      return `EXACT (${numbers})`;
    case "exact+inflight":
      return (
        `EXACT: every redirect wrk received was counted (${numbers}). The ${fmtInt(extra)} extra ` +
        (check.socketErrors > 0 ? `were in flight when wrk stopped or hit socket errors` : `were in flight when wrk's timer stopped (at most one per connection, ${connections})`) +
        `: the shortener served and counted them, wrk dropped the answers`
      );
    case "lost":
      return `NOT EXACT: ${fmtInt(-extra)} redirects were answered but not counted (${numbers})`;
    case "over":
      return `NOT EXACT: ${fmtInt(extra)} more counted than could have been in flight (${numbers})`;
  }
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  requireWrk();
  const settings = readSettings();

  const database = await createTestDatabase("bench");
  if (isInterrupted()) {
    await database.drop();
    throw new BenchError("interrupted");
  }
  onCleanup(`drop database ${database.name}`, () => database.drop());
  const redisPrefix = uniqueRedisPrefix("bench");
  onCleanup(`delete Redis keys ${redisPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, redisPrefix));

  const shortener = await startShortener(settings, database, redisPrefix);
  const code = await createLink(shortener.base);
  const shortenerUrl = `${shortener.base}/${code}/`;
  const { location } = await probeRedirect(shortenerUrl);
  const bareServer = await startBareServer({ status: 302, headers: { location, "cache-control": cacheControl }, body: null });

  console.log(
    `wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s --latency, ` +
      `${settings.warmupSeconds} s warm-up each, ${settings.rounds} round(s); ` +
      `shortener LOG_LEVEL=${settings.logLevel} ACCESS_LOG=${settings.accessLog}, Postgres + Redis`,
  );
  console.log(`  bare:      ${bareServer.url}`);
  console.log(`  shortener: ${shortenerUrl}  ->  ${location}`);
  console.log(`  machine:   ${describeMachine()}\n`);

  const checks: CountCheck[] = [];
  const bare: Target = { label: "bare", title: "bare Bun.serve", url: bareServer.url };
  const subject: Target = {
    label: "shortener",
    title: "shortener",
    url: shortenerUrl,
    measure: async (run) => {
      const before = await settledAccessCount(shortener.base, code);
      const result = await run();
      const after = await settledAccessCount(shortener.base, code);
      checks.push(checkCount(result, after - before, settings.connections));
      return result;
    },
  };
  const comparison = await compareWithBare(settings, bare, subject);
  reportComparison(comparison, bare, subject, targetRatio);
  for (const [i, check] of checks.entries()) {
    console.log(`counting${checks.length > 1 ? ` (round ${i + 1})` : ""}: ${describeCount(check, settings.connections)}`);
  }

  let failed = false;
  if (checks.some((c) => c.verdict === "lost" || c.verdict === "over")) {
    console.error("bench: the access count does not match the redirects served");
    failed = true;
  }
  const non2xx = non2xx3xxTotal(comparison);
  if (non2xx > 0) {
    console.error(`bench: ${non2xx} answers were not 2xx/3xx; the numbers above are not redirect throughput`);
    if (shortener.child.output()) console.error(`shortener output (last lines):\n${shortener.child.output()}`);
    failed = true;
  }
  return failed ? 1 : 0;
}

if (import.meta.main) await runBench(main);
