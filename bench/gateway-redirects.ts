/**
 * Redirect throughput through the gateway, against what an operator could
 * put in its place. In one run, in alternating rounds, wrk measures:
 *
 * - bare: a Bun.serve that sends the same 302 and does nothing else (the
 *   baseline every row is a ratio to);
 * - gateway: the real gateway (`bun run src/main.ts`) in front of the real
 *   shortener (Postgres + Redis, visit analytics on, every redirect counted
 *   before it answers), sending redirects in batches (INTERNAL_SECRET set on
 *   both, as compose and `bun run start` do);
 * - gateway, per-request proxy: a second gateway without INTERNAL_SECRET, in
 *   front of the same shortener: what the batches gain;
 * - nginx: Debian's nginx as a reverse proxy in front of the same shortener
 *   (one process serving, upstream keepalive 64, proxy_http_version 1.1; see
 *   bench/support/nginx.ts). Without nginx installed the run says so and
 *   measures the rest;
 * - gateway, metrics on: the batching gateway with METRICS_PORT set, in
 *   front of the same shortener: what recording every request costs;
 * - shortener: the same shortener without anything in front;
 * - gateway, base tree: with BENCH_BASE_TREE set to another checkout (its
 *   dependencies installed), that checkout's batching gateway in front of
 *   the same shortener, so a change to the gateway is measured against the
 *   version before it in the same rounds:
 *
 *     git worktree add /tmp/wt-base <commit> && (cd /tmp/wt-base && bun install)
 *     BENCH_BASE_TREE=/tmp/wt-base BENCH_THREADS=2 BENCH_CONNECTIONS=32 BENCH_SECONDS=5 BENCH_ROUNDS=3 bun run bench:gateway
 *
 * It prints each as a ratio to bare, the gateway as a ratio to nginx, and the
 * CPU µs per redirect of every process on each path (from /proc), and it
 * checks through the gateway and through nginx that the link's access_count
 * grew by exactly the redirects wrk received.
 *
 *   bun run bench:gateway                                 # 10 s per target, 64 connections, 1 round
 *   BENCH_THREADS=2 BENCH_CONNECTIONS=32 BENCH_SECONDS=5 BENCH_ROUNDS=3 bun run bench:gateway
 *
 * The second line is the issue's setting (wrk -t2 -c32, 3 alternating rounds).
 * Targets (reported, not enforced): gateway at least nginx's figure and at
 * least 0.3 x bare; shortener direct at least 0.5 x bare; the gateway with
 * metrics on at least 0.95 of it with them off.
 *
 * Knobs (environment, shared with the other benchmarks, see
 * bench/support/settings.ts): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2),
 * BENCH_CONNECTIONS (64), BENCH_THREADS (1), BENCH_ROUNDS (1; more rounds
 * alternate the order and report the median), BENCH_LOG_LEVEL (warn) and
 * BENCH_ACCESS_LOG (false) for the gateways and the shortener alike.
 * TEST_POSTGRES_URL and TEST_REDIS_URL as for the tests; the database is
 * created for the run and dropped afterwards, and the shortener and the
 * gateways keep their Redis keys under prefixes of their own, deleted
 * afterwards.
 *
 * The gateways run with RATE_LIMIT_CREATE=off and RATE_LIMIT_API=off (the
 * link is created and its stats read through one) and redirects unlimited,
 * their default; GEOCODER_URL names the shortener, which is never asked for a
 * geocode but answers the gateways' readiness check. Their variables are
 * set here, never inherited from the caller's environment.
 *
 * This is a report, not a test: it exits 0 whether or not the targets are
 * met, and 1 only on errors (including a count that lost redirects).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "@linkgeo/testing";
import { startBareServer } from "./support/bare.ts";
import { compareWithBare, reportComparison, reportCpu, reportRedirectRunProblems, type Comparison, type Target } from "./support/compare.ts";
import { BenchError, runBench } from "./support/lifecycle.ts";
import { benchDatabase, benchRedisPrefix } from "./support/bench-storage.ts";
import { countingRedirects, reportCounts } from "./support/redirect-count.ts";
import { startGateway } from "./support/gateway.ts";
import { baseTreeFromEnv } from "./support/base-tree.ts";
import { findNginx, startNginx } from "./support/nginx.ts";
import { describeMachine, median } from "./support/report.ts";
import { readSettings } from "./support/settings.ts";
import { createLink, longUrl, probeRedirect, redirectCacheControl, startShortener } from "./support/shortener.ts";
import { requireWrk } from "./support/wrk.ts";

const targets = { gatewayToBare: 0.3, gatewayToNginx: 1, shortenerToBare: 0.5, metricsOnToOff: 0.95 };

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  requireWrk();
  const settings = readSettings();
  // Checked before anything starts: a checkout without a gateway (older than it) cannot be measured.
  const baseTree = baseTreeFromEnv();
  if (baseTree && !existsSync(join(baseTree.tree, "gateway", "src", "main.ts")))
    throw new BenchError(`BENCH_BASE_TREE=${baseTree.tree} has no gateway/src/main.ts`);

  const database = await benchDatabase("bench_gateway");
  const shortenerPrefix = benchRedisPrefix("bench-gateway-shortener");
  const gatewayPrefix = benchRedisPrefix("bench-gateway");

  // One per run, as `bun run start` makes one: the batching gateway and the shortener share it.
  const internalSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const shortener = await startShortener(settings, database, shortenerPrefix, { INTERNAL_SECRET: internalSecret });
  const gateway = await startGateway(settings, { name: "gateway", shortenerUrl: shortener.base, redisPrefix: gatewayPrefix, internalSecret });
  const proxying = await startGateway(settings, {
    name: "gateway (per-request proxy)",
    shortenerUrl: shortener.base,
    redisPrefix: gatewayPrefix,
    internalSecret: undefined,
  });
  const metered = await startGateway(settings, {
    name: "gateway (metrics on)",
    shortenerUrl: shortener.base,
    redisPrefix: gatewayPrefix,
    internalSecret,
    metricsPort: await freePort(),
  });
  const baseGateway =
    baseTree &&
    (await startGateway(settings, {
      name: "gateway (base tree)",
      shortenerUrl: shortener.base,
      redisPrefix: gatewayPrefix,
      internalSecret,
      dir: join(baseTree.tree, "gateway"),
    }));
  const nginxBinary = findNginx();
  const nginx = nginxBinary ? await startNginx(nginxBinary, new URL(shortener.base)) : undefined;

  // Created through the gateway, as a client would.
  const code = await createLink(gateway.base);
  const { location } = await probeRedirect(`${gateway.base}/${code}/`, longUrl);
  for (const base of [proxying.base, metered.base, shortener.base, ...(nginx ? [nginx.base] : []), ...(baseGateway ? [baseGateway.base] : [])]) {
    await probeRedirect(`${base}/${code}/`, location);
  }
  const bareServer = await startBareServer({ status: 302, headers: { location, "cache-control": redirectCacheControl }, body: null });

  console.log(
    `wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s --latency, ` +
      `${settings.warmupSeconds} s warm-up each, ${settings.rounds} round(s); ` +
      `gateways and shortener LOG_LEVEL=${settings.logLevel} ACCESS_LOG=${settings.accessLog}, no rate limits; shortener on Postgres + Redis, analytics on`,
  );
  console.log(`  bare:      ${bareServer.url}`);
  console.log(`  gateway:   ${gateway.base}/${code}/  ->  ${location}  (batches to ${shortener.base})`);
  console.log(`  proxying:  ${proxying.base}/${code}/  (the same gateway without INTERNAL_SECRET)`);
  console.log(`  metered:   ${metered.base}/${code}/  (the same gateway with METRICS_PORT set)`);
  console.log(`  nginx:     ${nginx ? `${nginx.base}/${code}/  (${nginxBinary})` : "not installed (sudo apt-get install nginx): measured without it"}`);
  console.log(`  shortener: ${shortener.base}/${code}/  (direct)`);
  console.log(
    `  base tree: ${baseGateway && baseTree ? `${baseGateway.base}/${code}/  (the gateway of ${baseTree.tree} at ${baseTree.commit})` : "BENCH_BASE_TREE not set: not measured"}`,
  );
  console.log(`  machine:   ${describeMachine()}\n`);

  const shortenerProcess = { name: "shortener", pid: shortener.child.proc.pid };
  // The count is read through the gateway, around the runs of each path that counts through a proxy.
  const throughGateway = countingRedirects(gateway.base, code, settings.connections);
  const throughNginx = countingRedirects(gateway.base, code, settings.connections);
  const bare: Target = { label: "bare", title: "bare Bun.serve", url: bareServer.url, processes: [{ name: "bare", pid: bareServer.child.proc.pid }] };
  const subject: Target = {
    label: "gateway",
    title: "gateway -> shortener (batches)",
    url: `${gateway.base}/${code}/`,
    measure: throughGateway.measure,
    processes: [{ name: "gateway", pid: gateway.child.proc.pid }, shortenerProcess],
  };
  const perRequest: Target = {
    label: "proxying",
    title: "gateway -> shortener (per request)",
    url: `${proxying.base}/${code}/`,
    processes: [{ name: "gateway", pid: proxying.child.proc.pid }, shortenerProcess],
  };
  const metricsOn: Target = {
    label: "metrics-on",
    title: "gateway -> shortener (batches, metrics on)",
    url: `${metered.base}/${code}/`,
    processes: [{ name: "gateway", pid: metered.child.proc.pid }, shortenerProcess],
  };
  const nginxTarget: Target | undefined = nginx && {
    label: "nginx",
    title: "nginx -> shortener",
    url: `${nginx.base}/${code}/`,
    measure: throughNginx.measure,
    processes: [{ name: "nginx", pid: nginx.child.proc.pid }, shortenerProcess],
  };
  const direct: Target = { label: "shortener", title: "shortener (direct)", url: `${shortener.base}/${code}/`, processes: [shortenerProcess] };
  const baseTarget: Target | undefined = baseGateway && {
    label: "base-tree",
    title: "base tree's gateway -> shortener (batches)",
    url: `${baseGateway.base}/${code}/`,
    processes: [{ name: "gateway", pid: baseGateway.child.proc.pid }, shortenerProcess],
  };
  const children = [gateway.child, proxying.child, metered.child, shortener.child, ...(baseGateway ? [baseGateway.child] : [])];
  const linesBefore = children.map((child) => child.lineCount);
  const context = [...(nginxTarget ? [nginxTarget] : []), perRequest, metricsOn, direct, ...(baseTarget ? [baseTarget] : [])];
  const comparison = await compareWithBare(settings, bare, subject, context);
  const logged = children.map((child, i) => child.lineCount - linesBefore[i]!);

  reportComparison(comparison, bare, subject, targets.gatewayToBare);
  reportTargets(comparison, nginxTarget, direct, metricsOn, baseTarget);
  reportCpu(comparison, { bare, subject });
  console.log();
  const countFailed = [
    reportCounts(throughGateway.checks, settings.connections, "counting through the gateway"),
    nginxTarget ? reportCounts(throughNginx.checks, settings.connections, "counting through nginx") : false,
  ].some(Boolean);
  console.log(`log during the run: ${logged.every((n) => n === 0) ? "nothing" : children.map((child, i) => `${child.name} ${logged[i]} line(s)`).join(", ")}`);

  const failed = reportRedirectRunProblems(countFailed, comparison);
  if (failed || logged.some((n) => n > 0)) {
    for (const child of [...children, ...(nginx ? [nginx.child] : [])])
      if (child.output()) console.error(`${child.name} output (last lines):\n${child.output()}`);
  }
  return failed ? 1 : 0;
}

/** The issue's targets beyond gateway/bare: the gateway against nginx, the shortener against bare. */
function reportTargets(comparison: Comparison, nginx: Target | undefined, direct: Target, metricsOn: Target, baseTree: Target | undefined): void {
  const rps = (runs: { rps: number }[]) => median(runs.map((run) => run.rps));
  const of = (target: Target) => rps(comparison.context.find((entry) => entry.target === target)!.runs);
  const verdict = (ratio: number, target: number) => `target: >= ${target}   ${ratio >= target ? "met" : "below"}`;
  const gateway = rps(comparison.subject);
  if (nginx) console.log(`ratio gateway/nginx: ${(gateway / of(nginx)).toFixed(3)}   ${verdict(gateway / of(nginx), targets.gatewayToNginx)}`);
  else console.log("ratio gateway/nginx: not measured (nginx is not installed)");
  const shortenerToBare = of(direct) / rps(comparison.bare);
  console.log(`ratio shortener/bare: ${shortenerToBare.toFixed(3)}   ${verdict(shortenerToBare, targets.shortenerToBare)}`);
  const metricsRatio = of(metricsOn) / gateway;
  console.log(`ratio gateway metrics on/off: ${metricsRatio.toFixed(3)}   ${verdict(metricsRatio, targets.metricsOnToOff)}`);
  if (baseTree) console.log(`for context: this tree's gateway / the base tree's ${(gateway / of(baseTree)).toFixed(3)}`);
}

if (import.meta.main) await runBench(main);
