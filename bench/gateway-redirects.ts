/**
 * Redirect throughput through the gateway: the real gateway (`bun run
 * src/main.ts`) in front of the real shortener (Postgres + Redis, every
 * redirect counted in the database before it answers), against a bare
 * Bun.serve that sends the same 302 and does nothing else. Both are measured
 * with wrk in the same run, on the same machine, so the ratio gateway/bare
 * says how much of Bun's raw speed a redirect keeps once it crosses the
 * gateway. For context the shortener is measured directly too, on the same
 * link (its row in the table, its ratio to bare, and gateway/shortener: what
 * the extra hop costs). It also checks, through the gateway, that the link's
 * access_count grew by exactly the number of redirects wrk received there.
 *
 *   bun run bench:gateway               # this benchmark only, 10 s per target
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3 bun run bench:gateway
 *   bun run bench                       # every benchmark: bench/redirects.ts, bench/geocoder-l1.ts, then this one
 *
 * Knobs (environment, shared with the other benchmarks, see
 * bench/support/settings.ts): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2),
 * BENCH_CONNECTIONS (64), BENCH_THREADS (1), BENCH_ROUNDS (1; more rounds
 * alternate the order of bare, gateway and shortener and report the median),
 * BENCH_LOG_LEVEL (warn) and BENCH_ACCESS_LOG (false) for the gateway and
 * the shortener alike. TEST_POSTGRES_URL and TEST_REDIS_URL as for the tests;
 * the database is created for the run and dropped afterwards, and the
 * shortener and the gateway keep their Redis keys under prefixes of their own,
 * deleted afterwards.
 *
 * The gateway runs with RATE_LIMIT_CREATE=off and RATE_LIMIT_API=off (the
 * link is created and its stats read through it) and redirects unlimited,
 * its default; GEOCODER_URL names the shortener, which is never asked for a
 * geocode but answers the gateway's readiness check. The gateway's own
 * variables are set here, never inherited from the caller's environment.
 *
 * This is a report, not a test: it exits 0 whether or not the ratio reaches
 * the target, and 1 only on errors (including a count that lost redirects).
 */
import { join } from "node:path";
import { createTestDatabase, deleteKeysWithPrefix, freePort, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/shared/testing";
import { startBareServer } from "./support/bare.ts";
import { spawnChild, waitForReady, type Child } from "./support/children.ts";
import { compareWithBare, non2xx3xxTotal, reportComparison, type Target } from "./support/compare.ts";
import { BenchError, isInterrupted, onCleanup, runBench } from "./support/lifecycle.ts";
import { countingRedirects, reportCounts } from "./support/redirect-count.ts";
import { describeMachine } from "./support/report.ts";
import { readSettings, type Settings } from "./support/settings.ts";
import { createLink, longUrl, probeRedirect, redirectCacheControl, startShortener } from "./support/shortener.ts";
import { requireWrk } from "./support/wrk.ts";

const targetRatio = 0.3;
const gatewayDir = join(import.meta.dir, "..", "gateway");

// ---------------------------------------------------------------------------
// The gateway

// A rate limit, trusted proxy list or timeout in the caller's environment
// would change what is measured (RATE_LIMIT_REDIRECT would limit the very
// requests under test).
const gatewayVariable = /^(PORT|HOST|NODE_ENV|SHORTENER_URL|GEOCODER_URL|UPSTREAM_|REDIS_URL|REDIS_KEY_PREFIX|RATE_LIMIT_|TRUSTED_PROXIES|LOG_LEVEL|LOG_FORMAT|ACCESS_LOG)/;

async function startGateway(settings: Settings, options: { shortenerUrl: string; redisPrefix: string }): Promise<{ base: string; child: Child }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !gatewayVariable.test(name)));
  const child = spawnChild("gateway", [process.execPath, "run", "src/main.ts"], {
    cwd: gatewayDir,
    env: {
      ...inherited,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      SHORTENER_URL: options.shortenerUrl,
      // Not used by redirects; the shortener answers the gateway's /ready check for it.
      GEOCODER_URL: options.shortenerUrl,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: options.redisPrefix,
      RATE_LIMIT_CREATE: "off",
      RATE_LIMIT_API: "off",
      LOG_LEVEL: settings.logLevel,
      LOG_FORMAT: "json",
      ACCESS_LOG: settings.accessLog,
    },
  });
  // "ready": both upstreams (here: the shortener twice) answer its /health.
  await waitForReady(child, base);
  return { base, child };
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  requireWrk();
  const settings = readSettings();

  const database = await createTestDatabase("bench_gateway");
  if (isInterrupted()) {
    await database.drop();
    throw new BenchError("interrupted");
  }
  onCleanup(`drop database ${database.name}`, () => database.drop());
  const shortenerPrefix = uniqueRedisPrefix("bench-gateway-shortener");
  onCleanup(`delete Redis keys ${shortenerPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, shortenerPrefix));
  const gatewayPrefix = uniqueRedisPrefix("bench-gateway");
  onCleanup(`delete Redis keys ${gatewayPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, gatewayPrefix));

  const shortener = await startShortener(settings, database, shortenerPrefix);
  const gateway = await startGateway(settings, { shortenerUrl: shortener.base, redisPrefix: gatewayPrefix });
  // Created through the gateway, as a client would.
  const code = await createLink(gateway.base);
  const gatewayUrl = `${gateway.base}/${code}/`;
  const shortenerUrl = `${shortener.base}/${code}/`;
  const { location } = await probeRedirect(gatewayUrl, longUrl);
  await probeRedirect(shortenerUrl, location);
  const bareServer = await startBareServer({ status: 302, headers: { location, "cache-control": redirectCacheControl }, body: null });

  console.log(
    `wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s --latency, ` +
      `${settings.warmupSeconds} s warm-up each, ${settings.rounds} round(s); ` +
      `gateway and shortener LOG_LEVEL=${settings.logLevel} ACCESS_LOG=${settings.accessLog}, no rate limits; shortener on Postgres + Redis`,
  );
  console.log(`  bare:      ${bareServer.url}`);
  console.log(`  gateway:   ${gatewayUrl}  ->  ${location}  (via ${shortener.base})`);
  console.log(`  shortener: ${shortenerUrl}  (direct, for context)`);
  console.log(`  machine:   ${describeMachine()}\n`);

  // The count is read through the gateway too, and only around the gateway's runs.
  const counting = countingRedirects(gateway.base, code, settings.connections);
  const bare: Target = { label: "bare", title: "bare Bun.serve", url: bareServer.url };
  const subject: Target = { label: "gateway", title: "gateway -> shortener", url: gatewayUrl, measure: counting.measure };
  const direct: Target = { label: "shortener", title: "shortener (direct)", url: shortenerUrl };
  const linesBefore = { gateway: gateway.child.lineCount, shortener: shortener.child.lineCount };
  const comparison = await compareWithBare(settings, bare, subject, [direct]);
  const logged = { gateway: gateway.child.lineCount - linesBefore.gateway, shortener: shortener.child.lineCount - linesBefore.shortener };
  reportComparison(comparison, bare, subject, targetRatio);
  const countFailed = reportCounts(counting.checks, settings.connections, "counting through the gateway");
  console.log(
    `log during the run: ${logged.gateway === 0 && logged.shortener === 0 ? "nothing" : `gateway ${logged.gateway} line(s), shortener ${logged.shortener} line(s), see below`}`,
  );

  let failed = false;
  const showOutput = () => {
    if (gateway.child.output()) console.error(`gateway output (last lines):\n${gateway.child.output()}`);
    if (shortener.child.output()) console.error(`shortener output (last lines):\n${shortener.child.output()}`);
  };
  if (countFailed) {
    console.error("bench: the access count does not match the redirects served through the gateway");
    failed = true;
  }
  const non2xx = non2xx3xxTotal(comparison);
  if (non2xx > 0) {
    console.error(`bench: ${non2xx} answers were not 2xx/3xx; the numbers above are not redirect throughput`);
    failed = true;
  }
  if (failed || logged.gateway > 0 || logged.shortener > 0) showOutput();
  return failed ? 1 : 0;
}

if (import.meta.main) await runBench(main);
