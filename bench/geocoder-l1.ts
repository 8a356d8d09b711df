/**
 * Geocoder L1-hit throughput: the real geocoder (`bun run src/main.ts`, Redis
 * as L1, SQLite as L2) answering one reverse query from L1, against a bare
 * Bun.serve that sends the very same JSON body (same bytes, same
 * Content-Type) and does nothing else. Both are measured with wrk in the same
 * run, on the same machine, so the ratio geocoder/bare says how much of Bun's
 * raw speed an L1 hit keeps. The provider is a fake Nominatim in this process
 * answering a recorded payload; it must get exactly one request in the whole
 * run (the first, which fills the cache): every other answer is a cache hit.
 *
 *   bun run bench:geocoder              # this benchmark only, 10 s per target
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3 bun run bench:geocoder
 *   bun run bench                       # every benchmark: bench/redirects.ts, this one, bench/gateway-redirects.ts
 *
 * Knobs (environment, shared with the other benchmarks, see
 * bench/support/settings.ts): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2),
 * BENCH_CONNECTIONS (64), BENCH_THREADS (1), BENCH_ROUNDS (1; more rounds
 * alternate bare/geocoder and report the median), BENCH_LOG_LEVEL (warn) and
 * BENCH_ACCESS_LOG (false) for the geocoder. TEST_REDIS_URL as for the tests
 * (redis://127.0.0.1:6379/1); the keys live under a prefix of their own and
 * are deleted afterwards, as is the SQLite file (in a temporary directory).
 *
 * This is a report, not a test: it exits 0 whether or not the ratio reaches
 * the target, and 1 only on errors (including a provider asked more than once,
 * or L1 failing during the run).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, freePort, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import { reply, startFakeProvider, type FakeProvider } from "@linkgeo/testing";
import { startBareServer } from "./support/bare.ts";
import { spawnChild, waitForReady } from "./support/children.ts";
import { compareWithBare, non2xx3xxTotal, reportComparison, type Target } from "./support/compare.ts";
import { BenchError, checkNotInterrupted, onCleanup, runBench } from "./support/lifecycle.ts";
import { describeMachine, fmtInt } from "./support/report.ts";
import { readSettings, type Settings } from "./support/settings.ts";
import { requireWrk } from "./support/wrk.ts";

const targetRatio = 0.3;
const geocoderDir = join(import.meta.dir, "..", "geocoder");
/** A café in Paris; the query asks for the point the recorded payload describes. */
const fixture = "nominatim-01-paris-rue-quincampoix-fr-jsonv2.json";
const query = { latitude: "48.8604416", longitude: "2.3503543" };

// ---------------------------------------------------------------------------
// The geocoder

// The geocoder's own variables are set here, never inherited: a provider key
// or replica URL in the caller's environment would change what is measured.
const geocoderVariable = /^(PORT|HOST|NODE_ENV|REDIS_|LOG_LEVEL|LOG_FORMAT|ACCESS_LOG|GEOCODER_|NOMINATIM_|GEOAPIFY_|HERE_)/;

async function startGeocoder(settings: Settings, options: { redisPrefix: string; nominatimUrl: string; cachePath: string }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !geocoderVariable.test(name)));
  const child = spawnChild("geocoder", [process.execPath, "run", "src/main.ts"], {
    cwd: geocoderDir,
    env: {
      ...inherited,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: options.redisPrefix,
      NOMINATIM_USER_AGENT: "bench",
      NOMINATIM_URL: options.nominatimUrl,
      GEOCODER_CACHE_PATH: options.cachePath,
      LOG_LEVEL: settings.logLevel,
      LOG_FORMAT: "json",
      ACCESS_LOG: settings.accessLog,
    },
  });
  // "ready", not "degraded": L1 (Redis) must answer, or there is nothing to measure.
  await waitForReady(child, base);
  return { base, child };
}

interface Answer {
  status: number;
  cache: string | null;
  provider: string | null;
  contentType: string | null;
  /** The body exactly as received. */
  body: string;
}

async function reverseGeocode(url: string): Promise<Answer> {
  const response = await fetch(url);
  const bytes = await response.arrayBuffer();
  let body: string;
  try {
    // fatal: the text must encode back to the very same bytes for the bare server.
    body = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new BenchError(`GET ${url} answered a body that is not UTF-8`);
  }
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    provider: response.headers.get("x-geocoder-provider"),
    contentType: response.headers.get("content-type"),
    body,
  };
}

function expectAnswer(answer: Answer, cache: "MISS" | "L1", what: string): void {
  if (answer.status !== 200) throw new BenchError(`${what} answered ${answer.status}: ${answer.body}`);
  if (answer.cache !== cache) throw new BenchError(`${what} answered X-Cache: ${answer.cache}, not ${cache}`);
  const parsed = JSON.parse(answer.body) as { success?: unknown; data?: unknown };
  if (parsed.success !== true || !Array.isArray(parsed.data) || parsed.data.length === 0) {
    throw new BenchError(`${what} answered without addresses: ${answer.body}`);
  }
}

/**
 * Fills the cache with one request (a miss, which asks the fake provider),
 * then checks the next one is an L1 hit and returns it: the body the bare
 * server must send.
 */
async function fillCache(url: string, provider: FakeProvider): Promise<Answer> {
  expectAnswer(await reverseGeocode(url), "MISS", "the first request");
  if (provider.requests.length !== 1) throw new BenchError(`the first request reached the fake provider ${provider.requests.length} times, not once`);
  const hit = await reverseGeocode(url);
  expectAnswer(hit, "L1", "the second request");
  if (!hit.contentType) throw new BenchError("the L1 hit has no Content-Type");
  return hit;
}

// ---------------------------------------------------------------------------
// Report

function describeProviderCalls(provider: FakeProvider, answered: number): string {
  const calls = provider.requests.map((r) => `${r.method} ${r.url.pathname}${r.url.search} (User-Agent: ${r.headers["user-agent"]})`);
  if (calls.length === 1) {
    return (
      `EXACTLY ONE: the fake Nominatim got 1 request, the first, which filled the cache: ${calls[0]}. ` +
      `The other ${fmtInt(answered)} answers received (the L1 checks before and after, the warm-up, the measured rounds) all came from the cache`
    );
  }
  return `NOT ONE: the fake Nominatim got ${calls.length} requests:\n  ${calls.slice(0, 10).join("\n  ")}${calls.length > 10 ? "\n  …" : ""}`;
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  requireWrk();
  const settings = readSettings();

  const tempDir = mkdtempSync(join(tmpdir(), "bench-geocoder-"));
  onCleanup(`remove ${tempDir}`, () => rmSync(tempDir, { recursive: true, force: true }));
  const redisPrefix = uniqueRedisPrefix("bench-geocoder");
  onCleanup(`delete Redis keys ${redisPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, redisPrefix));
  checkNotInterrupted();
  // Every request gets the recorded payload: were the cache to miss, the calls would show in the count.
  const provider = startFakeProvider({ otherwise: reply.fixture(fixture) });
  onCleanup("stop the fake Nominatim", () => provider.close());

  const geocoder = await startGeocoder(settings, {
    redisPrefix,
    nominatimUrl: provider.url("/reverse").toString(),
    cachePath: join(tempDir, "geocoder-cache.db"),
  });
  const geocoderUrl = `${geocoder.base}/reverse-geocode?latitude=${query.latitude}&longitude=${query.longitude}`;
  const hit = await fillCache(geocoderUrl, provider);
  const contentType = hit.contentType!;
  const bodyBytes = Buffer.byteLength(hit.body);
  const bareServer = await startBareServer({ status: 200, headers: { "content-type": contentType }, body: hit.body });

  console.log(
    `wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s --latency, ` +
      `${settings.warmupSeconds} s warm-up each, ${settings.rounds} round(s); ` +
      `geocoder LOG_LEVEL=${settings.logLevel} ACCESS_LOG=${settings.accessLog}, L1 Redis (${testRedisUrl}), L2 SQLite`,
  );
  console.log(`  bare:      ${bareServer.url}  ->  the same ${bodyBytes}-byte body, ${contentType}`);
  console.log(`  geocoder:  ${geocoderUrl}  ->  X-Cache: L1, ${bodyBytes} bytes`);
  console.log(`  provider:  fake Nominatim ${provider.url("/reverse")} answering ${fixture}`);
  console.log(`  machine:   ${describeMachine()}\n`);

  const linesBefore = geocoder.child.lineCount;
  const bare: Target = { label: "bare", title: "bare Bun.serve", url: bareServer.url };
  const subject: Target = { label: "geocoder", title: "geocoder (L1 hit)", url: geocoderUrl };
  const comparison = await compareWithBare(settings, bare, subject);
  const logged = geocoder.child.lineCount - linesBefore;
  reportComparison(comparison, bare, subject, targetRatio);

  // Still an L1 hit, with the same body, after the load.
  const after = await reverseGeocode(geocoderUrl);
  expectAnswer(after, "L1", "the request after the run");
  if (after.body !== hit.body) throw new BenchError(`the request after the run answered another body: ${after.body}`);
  // From the cache: the L1 check before the run, the one after, and every answer wrk received.
  const wrkRuns = comparison.warmup.subject ? [comparison.warmup.subject, ...comparison.subject] : comparison.subject;
  const fromCache = 2 + wrkRuns.reduce((sum, r) => sum + r.requests, 0);
  console.log(`provider calls: ${describeProviderCalls(provider, fromCache)}`);
  console.log(`geocoder log during the run: ${logged === 0 ? "nothing" : `${logged} line(s), see below`}`);

  let failed = false;
  if (logged > 0) {
    console.error(`geocoder output (last lines):\n${geocoder.child.output()}`);
    if (geocoder.child.output().includes("cache level unavailable")) {
      console.error("bench: a cache level failed during the run: the numbers above are not all L1 hits");
      failed = true;
    }
  }
  if (provider.requests.length !== 1) {
    console.error("bench: the provider was asked more than once: some answers did not come from the cache");
    failed = true;
  }
  const non2xx = non2xx3xxTotal(comparison);
  if (non2xx > 0) {
    console.error(`bench: ${non2xx} answers were not 2xx/3xx; the numbers above are not L1-hit throughput`);
    failed = true;
  }
  return failed ? 1 : 0;
}

if (import.meta.main) await runBench(main);
