/**
 * Cost as the data grows: the admin listing, its search and its filters (tag, state), redirects over
 * many links, and the visits reports, at 1,000 links and at 1,000,000 (with
 * a year of visits for the newest 10,000), on Postgres and on SQLite, built
 * in throwaway databases (bench/support/scale-data.ts) and measured in the
 * same run, so each figure at a million has its 1,000-link figure beside it.
 *
 *   bun run bench:scale                      # both engines, 1,000 and 1,000,000 links
 *   BENCH_SCALE_LINKS=200000 bun run bench:scale
 *   BENCH_SCALE_ENGINES=postgres bun run bench:scale
 *
 * Reads go through the shortener's own stores (openDatabase: the deadlines
 * and queries a request uses), each the median of 7 after a warm-up.
 * Redirects go through the real shortener process (Redis on, analytics on):
 * wrk on one hot link, on codes drawn uniformly from every link and on codes
 * drawn by Zipf's law (s = 1.1; Lua scripts), and on the commit ceiling
 * (bench/commit-server.ts: the same 302 after a group commit, nothing else,
 * with one and with four commits in flight), alternating for BENCH_ROUNDS
 * rounds of BENCH_SECONDS (5). On Postgres each redirect's WAL bytes too,
 * and for every row the CPU µs per redirect of the server, the Postgres
 * cluster and Redis (/proc); with BENCH_WAL_STATS=1 each row's WAL by record
 * kind (pg_waldump --stats=record: which writes the bytes are).
 * Then latency at a fixed offered rate (half and 80 % of each maximum; p50,
 * p99, p99.9), hot and uniform, direct and through a gateway in front.
 * Then the visit log's catch-up: 100,000 logged visits over every link
 * summed by the shortener's own store, timed (visits per second).
 *
 * BENCH_PG_SETTINGS=wal_compression=lz4 (name=value pairs) sets them on
 * the Postgres scale database before its redirects run, for a second run
 * to compare WAL and rates with.
 *
 * With BENCH_BASE_TREE set to another checkout (its dependencies installed),
 * its shortener runs the hot, uniform and Zipf rows too, on the same data in
 * the same rounds, and the ratios this tree / base tree are printed:
 *
 *   git worktree add /tmp/wt-base <commit> && (cd /tmp/wt-base && bun install)
 *   BENCH_BASE_TREE=/tmp/wt-base BENCH_SCALE_LINKS=1000000 bun run bench:scale
 *
 * Targets (issues 16, 22, 24, 50): at 1M links every listing, search or
 * filter under 50 ms, the visits reports under 100 ms; redirects uniform
 * over 1M at least 0.65 of one hot link on Postgres and 0.35 on SQLite,
 * Zipf at least 0.8, one hot link at least 0.8 of the commit ceiling
 * (Postgres), under 2 KB of WAL per uniform redirect. A row's WAL here is
 * that of a few seconds, right after the rows before it: how much of it is
 * page images depends on when the last checkpoint began, so the WAL target
 * is judged by bench:wal, over whole checkpoint cycles. A report, not a
 * test: it exits 0 either way.
 */
import { Database as SqliteDatabase } from "bun:sqlite";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import postgres from "postgres";
import { linkStates, type LinkState } from "../shortener/src/links/destination.ts";
import type { LinkQuery } from "../shortener/src/links/link-store.ts";
import { openDatabase, type Database } from "../shortener/src/storage/open-database.ts";
import type { DatabaseTarget } from "../shortener/src/storage/database-target.ts";
import { baseTreeFromEnv } from "./support/base-tree.ts";
import { startCommitServer } from "./support/commit-ceiling.ts";
import { BenchError, onCleanup, runBench } from "./support/lifecycle.ts";
import { describeMachine, fmtInt, median, table } from "./support/report.ts";
import {
  brandHost,
  buildPostgres,
  buildSqlite,
  codeOf,
  keyOf,
  newestActiveLink,
  scaleTags,
  type BuiltDatabase,
  type ScaleShape,
} from "./support/scale-data.ts";
import { intFromEnv, readSettings, type Settings } from "./support/settings.ts";
import { startShortener, visitorHeaders } from "./support/shortener.ts";
import { cpuMicros, cpuMicrosOfAll, cpuPerRequest } from "./support/process-cpu.ts";
import { rowBacklog, type RowBacklog } from "./support/row-backlog.ts";
import { describeWalPerRequest, walRecordsBetween } from "./support/wal-records.ts";
import { applyDatabaseSettings, autovacuumWarning, serverSetting } from "./support/database-settings.ts";
import { walTargetBytes } from "./support/checkpoint-cycles.ts";
import { requireWrk, runWrk } from "./support/wrk.ts";
import { uniformScript, zipfExponent, zipfScript } from "./support/wrk-scripts.ts";
import { startGateway } from "./support/gateway.ts";
import { measureLatencies, reportLatencies } from "./support/latency.ts";

const targets = {
  listingMs: 50,
  visitsMs: 100,
  uniformOverHot: { postgres: 0.65, sqlite: 0.35 },
  zipfOverHot: 0.8,
  hotOverCeiling: 0.8,
  walBytes: walTargetBytes,
};
const repeats = 7;

type Figures = Map<string, string>;

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;

async function measureReads(database: Database, shape: ScaleShape, figures: Figures, now: Date): Promise<void> {
  const { links, visits } = database;
  const list = async (label: string, search?: string) => {
    let estimate = false;
    const took = await timed(async () => {
      estimate = (await links.list({ offset: 0, limit: 20, search })).countIsEstimate;
    });
    figures.set(label, `${ms(took)}${estimate ? " (est.)" : ""}`);
  };
  await list("listing, page 1, no search");
  await list("listing, q=example (every link)", "example");
  await list("listing, q= no link has it", "zq9zq9");
  await list("listing, q= one code", codeOf(Math.ceil(shape.links / 2)));
  await list("listing, q=ab (2 letters)", "ab");

  // The filters (issue 22): tags and states as scale-data.ts gives them, judged at `now`.
  const filtered = async (name: string, query: Omit<LinkQuery, "offset" | "limit" | "state"> & { state?: LinkState }) => {
    let estimate = false;
    const took = await timed(async () => {
      estimate = (await links.list({ offset: 0, limit: 20, ...query, state: query.state && { is: query.state, at: now } })).countIsEstimate;
    });
    figures.set(`listing, ${name}`, `${ms(took)}${estimate ? " (est.)" : ""}`);
  };
  const { common, rare } = scaleTags;
  await filtered(`tag=${rare} (rare)`, { tag: rare });
  await filtered(`tag=${rare}, most visited`, { tag: rare, order: "most_visited" });
  await filtered(`tag=${common} (a third)`, { tag: common });
  await filtered(`tag=${common}, last visited`, { tag: common, order: "last_visited" });
  for (const state of linkStates) await filtered(`state=${state}`, { state });
  await filtered("state=expired, most visited", { state: "expired", order: "most_visited" });
  await filtered("state=exhausted, last visited", { state: "exhausted", order: "last_visited" });
  await filtered(`tag=${common}&state=expired`, { tag: common, state: "expired" });
  await filtered(`tag=${common}&state=exhausted`, { tag: common, state: "exhausted" });
  await filtered(`tag=${rare}&state=active`, { tag: rare, state: "active" });
  await filtered(`tag=${common}&q=example (every link)`, { tag: common, search: "example" });
  await filtered(`tag=${common}&q= one code`, { tag: common, search: codeOf(3 * Math.ceil(shape.links / 6)) });
  await filtered(`tag=${rare}&q=example`, { tag: rare, search: "example" });
  await filtered(`state=exhausted&q=example`, { state: "exhausted", search: "example" });

  const busy = keyOf(shape.links);
  const day = (date: Date) => date.toISOString().slice(0, 10);
  for (const days of [30, 365]) {
    const from = new Date(now.getTime() - days * 86_400_000);
    const one = await timed(() => Promise.all([visits.buckets({ code: busy }, from, now), visits.facts({ code: busy }, day(from), day(now))]));
    figures.set(`visits of one link, ${days} days`, ms(one));
    const all = await timed(() => Promise.all([visits.buckets({}, from, now), visits.facts({}, day(from), day(now)), visits.topLinks(from, now, 10)]));
    figures.set(`visits of every link (admin), ${days} days`, ms(all));
  }
}

/** What one wrk run measured: its rate, and per request its WAL (Postgres) and the CPU of each process it cost. */
interface RunFigures {
  /** Redirects per second while wrk ran. */
  rps: number;
  /**
   * The same redirects over wrk's time and the time until what they left
   * was cleared (row-backlog.ts). The summing step looks every 250 ms, so
   * up to a quarter second of `clearedMs` is waiting, not work.
   */
  rpsCleared: number;
  /** How long clearing what the run left took, after wrk ended. */
  clearedMs: number;
  /** The share of answers that were no redirect (an expired or used-up link's 410): a row whose links were not found would show it. */
  notRedirected: number;
  walBytes: number;
  /** µs per request: the shortener (with SQLite, the database too), the Postgres cluster, Redis. */
  cpu: { shortener: number; postgres: number; redis: number };
  /** The same until what the run left was cleared (with SQLite, the checkpoint's CPU in the shortener's figure). */
  cpuCleared: { shortener: number; postgres: number; redis: number };
  /** WAL bytes per request until what the run left was cleared (`walBytes`: while wrk ran). */
  walBytesCleared: number;
  /** BENCH_WAL_STATS=1: the run's WAL by record kind, per request. */
  walRecords?: string[];
}

/** What the meter needs of a wrk run. */
type MeteredRun = { rps: number; requests: number; durationSeconds: number; non2xx3xx: number };

/**
 * Around each run: Postgres' WAL position (the bytes a run wrote, divided
 * by its redirects: the cluster's, so nothing else may run meanwhile) and
 * the CPU of the shortener, of every Postgres process and of Redis. With
 * BENCH_WAL_STATS=1, pg_waldump's count of the run's WAL by record kind.
 * Each run starts with what the run before left cleared (its visits summed;
 * on SQLite its WAL checkpointed: row-backlog.ts), so that no row pays for
 * another's, and is measured twice: while wrk ran, and until what it left
 * itself was cleared too. With BENCH_BASE_TREE both shorteners sum the one
 * log, whoever is free: the "with its backlog" CPU of a row may then miss
 * what the other one summed for it.
 */
function runMeter(
  built: Pick<BuiltDatabase, "engine" | "url">,
  backlog: RowBacklog,
): {
  around: (run: () => Promise<MeteredRun>, shortenerPid: number | undefined) => Promise<RunFigures>;
  end: () => Promise<void>;
} {
  const url = built.engine === "postgres" ? built.url : undefined;
  const sql = url === undefined ? undefined : postgres(url, { max: 1, onnotice: () => {} });
  const position = async () => (sql ? (await sql<Array<{ lsn: string }>>`SELECT pg_current_wal_lsn()::text AS lsn`)[0]!.lsn : "0/0");
  const walStats = process.env.BENCH_WAL_STATS === "1";
  const cpuNow = (shortenerPid: number | undefined) => [
    shortenerPid === undefined ? 0 : cpuMicros(shortenerPid),
    cpuMicrosOfAll("postgres"),
    cpuMicrosOfAll("redis-server"),
  ];
  return {
    around: async (run, shortenerPid) => {
      await backlog.cleared();
      const before = await position();
      const cpuBefore = cpuNow(shortenerPid);
      const result = await run();
      const cpuServed = cpuNow(shortenerPid);
      const after = await position();
      const cleared = await backlog.cleared();
      const cpuAfterClearing = cpuNow(shortenerPid);
      cpuAfterClearing[0]! += cleared.databaseCpuMicros;
      const afterClearing = await position();
      const perRequest = (cpuAfter: number[]) => {
        const [shortener, database, redis] = cpuPerRequest(cpuBefore, cpuAfter, result.requests) as [number, number, number];
        return { shortener: shortenerPid === undefined ? Number.NaN : shortener, postgres: sql ? database : Number.NaN, redis };
      };
      const rates = { rps: result.rps, rpsCleared: result.requests / (result.durationSeconds + cleared.ms / 1000), clearedMs: cleared.ms };
      const cpus = { cpu: perRequest(cpuServed), cpuCleared: perRequest(cpuAfterClearing) };
      const notRedirected = result.non2xx3xx / Math.max(1, result.requests);
      if (!sql) return { ...rates, ...cpus, notRedirected, walBytes: Number.NaN, walBytesCleared: Number.NaN };
      const walSince = async (lsn: string) =>
        Number((await sql<Array<{ bytes: string }>>`SELECT pg_wal_lsn_diff(${lsn}::pg_lsn, ${before}::pg_lsn)::text AS bytes`)[0]!.bytes) /
        Math.max(1, result.requests);
      const figures: RunFigures = { ...rates, ...cpus, notRedirected, walBytes: await walSince(after), walBytesCleared: await walSince(afterClearing) };
      if (walStats) {
        const [server] = await sql<Array<{ directory: string; version: string }>>`
          SELECT current_setting('data_directory') AS directory, current_setting('server_version') AS version`;
        figures.walRecords = describeWalPerRequest(walRecordsBetween(server!.directory, server!.version, before, after), Math.max(1, result.requests));
      }
      return figures;
    },
    end: async () => {
      await sql?.end({ timeout: 5 });
    },
  };
}

/**
 * Redirects through the real shortener: one hot link, codes uniform over
 * every link, codes by Zipf (s = 1.1) over every link; beside them the
 * commit ceiling (bench/commit-server.ts: the 302 after a group commit and
 * nothing else) with one commit in flight, as the shortener writes, and
 * with four. All alternate round by round; medians. On Postgres, the WAL
 * bytes each redirect wrote.
 */
async function measureRedirects(settings: Settings, built: BuiltDatabase, shape: ScaleShape, figures: Figures): Promise<void> {
  const redisPrefix = uniqueRedisPrefix("scale");
  onCleanup(`delete Redis keys ${redisPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, redisPrefix));
  const databaseSettings = built.engine === "postgres" ? await applyDatabaseSettings(built.url) : undefined;
  if (databaseSettings) figures.set("database settings (BENCH_PG_SETTINGS)", databaseSettings);
  const vacuumWarning = built.engine === "postgres" ? autovacuumWarning(await serverSetting(built.url, "autovacuum")) : undefined;
  if (vacuumWarning) console.log(vacuumWarning);
  // INTERNAL_SECRET: the gateway in front of it (the latency rows) sends its redirects in batches, as `bun run start` does.
  const internalSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const shortener = await startShortener(settings, built, redisPrefix, { INTERNAL_SECRET: internalSecret });
  const script = (name: string) => join(tmpdir(), `linkgeo-scale-${name}-${process.pid}.lua`);
  const scripts = {
    uniform: script("uniform"),
    zipf: script("zipf"),
    uniformDefault: script("uniform-default"),
    uniformBrand: script("uniform-brand"),
    zipfDefault: script("zipf-default"),
  };
  writeFileSync(scripts.uniform, uniformScript(shape.links));
  writeFileSync(scripts.zipf, zipfScript(shape.links, zipfExponent));
  writeFileSync(scripts.uniformDefault, uniformScript(shape.links, "default"));
  writeFileSync(scripts.uniformBrand, uniformScript(shape.links, "brand"));
  writeFileSync(scripts.zipfDefault, zipfScript(shape.links, zipfExponent, "default"));
  onCleanup("remove the wrk scripts", () => {
    for (const path of Object.values(scripts)) rmSync(path, { force: true });
  });
  const ceilingDb = built.engine === "postgres" ? built.url : join(tmpdir(), `linkgeo-ceiling-${process.pid}.db`);
  if (built.engine === "sqlite")
    onCleanup("remove the ceiling's SQLite file", () => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${ceilingDb}${suffix}`, { force: true });
    });
  const ceilings = [
    await startCommitServer(ceilingDb, 1, { location: "https://example.com/" }),
    await startCommitServer(ceilingDb, 4, { location: "https://example.com/" }),
  ];
  // A row's leftovers may take a while to clear after a long row: a minute per second of wrk, five at least.
  const backlog = rowBacklog(built, { deadlineMs: Math.max(300_000, 60 * settings.seconds * 1000) });
  onCleanup("close the rows' backlog watch", () => backlog.end());
  const meter = runMeter(built, backlog);
  const hotPath = `/${codeOf(newestActiveLink(shape.links))}/`;
  // The default domain's links only: what a shortener from before domains serves too (BENCH_BASE_TREE).
  const defaultRuns = (base: string) => ({
    hot: () => runWrk(settings, `${base}${hotPath}`, settings.seconds, visitorHeaders),
    uniformDefault: () => runWrk(settings, `${base}/`, settings.seconds, visitorHeaders, scripts.uniformDefault),
    zipfDefault: () => runWrk(settings, `${base}/`, settings.seconds, visitorHeaders, scripts.zipfDefault),
  });
  // BENCH_BASE_TREE: the same rows from another checkout's shortener, on the same data, in the same rounds.
  const baseTree = baseTreeFromEnv();
  const baseShortener = baseTree && (await startShortener(settings, built, `${redisPrefix}base:`, {}, baseTree.shortenerDir));
  const baseRuns = baseShortener ? defaultRuns(baseShortener.base) : undefined;
  const runs = {
    ...defaultRuns(shortener.base),
    uniform: () => runWrk(settings, `${shortener.base}/`, settings.seconds, visitorHeaders, scripts.uniform),
    zipf: () => runWrk(settings, `${shortener.base}/`, settings.seconds, visitorHeaders, scripts.zipf),
    uniformBrand: () => runWrk(settings, `${shortener.base}/`, settings.seconds, visitorHeaders, scripts.uniformBrand),
    ...(baseRuns && { baseHot: baseRuns.hot, baseUniform: baseRuns.uniformDefault, baseZipf: baseRuns.zipfDefault }),
    ceiling1: () => runWrk(settings, ceilings[0]!.url, settings.seconds),
    ceiling4: () => runWrk(settings, ceilings[1]!.url, settings.seconds),
  };
  type RunName =
    | "hot"
    | "uniform"
    | "zipf"
    | "uniformDefault"
    | "uniformBrand"
    | "zipfDefault"
    | "baseHot"
    | "baseUniform"
    | "baseZipf"
    | "ceiling1"
    | "ceiling4";
  const results = Object.fromEntries(Object.keys(runs).map((name) => [name, [] as RunFigures[]])) as Record<RunName, RunFigures[]>;
  const serverOf = (name: RunName) =>
    name.startsWith("ceiling") ? ceilings[name === "ceiling1" ? 0 : 1]!.child : name.startsWith("base") ? baseShortener!.child : shortener.child;
  for (let round = 0; round < settings.rounds; round++) {
    for (const [name, run] of Object.entries(runs) as Array<[RunName, () => Promise<MeteredRun>]>) {
      results[name].push(await meter.around(run, serverOf(name).proc.pid));
    }
  }
  await meter.end();
  const rps = (name: RunName) => median(results[name].map((result) => result.rps));
  await measureRedirectLatency(
    settings,
    { shortener: shortener.base, internalSecret, redisPrefix, hotPath, links: shape.links, uniformScript: scripts.uniformDefault, backlog },
    {
      hot: rps("hot"),
      uniform: rps("uniformDefault"),
    },
  );
  // Closed before the log's catch-up is measured and the database dropped: its last connection is the catch-up's.
  await backlog.end();
  await shortener.child.stop();
  await baseShortener?.child.stop();
  for (const ceiling of ceilings) await ceiling.child.stop();
  const postgresRun = built.engine === "postgres";
  const walOf = (name: RunName) => {
    if (!postgresRun) return "";
    const of = (kind: "walBytes" | "walBytesCleared") => fmtInt(median(results[name].map((result) => result[kind])));
    return ` (${of("walBytes")} B WAL each; ${of("walBytesCleared")} B with its backlog)`;
  };
  const cpuOf = (name: RunName, kind: "cpu" | "cpuCleared" = "cpu") => {
    const of = (part: keyof RunFigures["cpu"]) => fmtInt(median(results[name].map((result) => result[kind][part])));
    return postgresRun ? `${of("shortener")} / ${of("postgres")} / ${of("redis")}` : `${of("shortener")} / ${of("redis")}`;
  };
  const rpsCleared = (name: RunName) => median(results[name].map((result) => result.rpsCleared));
  const cpuParts = postgresRun ? "server / Postgres / Redis" : "server with SQLite / Redis";
  // The rows also given with their backlog (row-backlog.ts), as their labels read.
  const backlogRows = [
    ["one hot link", "hot"],
    ["uniform", "uniform"],
    ["Zipf", "zipf"],
  ] as const;
  for (const [label, name] of [...backlogRows, ["commit ceiling, 1 in flight", "ceiling1"] as const]) {
    figures.set(`CPU µs per redirect (${cpuParts}), ${label}`, cpuOf(name));
  }
  for (const [label, name] of backlogRows) {
    figures.set(`CPU µs per redirect with its backlog (${cpuParts}), ${label}`, cpuOf(name, "cpuCleared"));
  }
  // BENCH_WAL_STATS=1: where each redirect's WAL goes, by record kind (the last round's runs).
  for (const name of ["hot", "uniform", "zipf"] as const) {
    const records = results[name].at(-1)?.walRecords;
    if (records) console.log(`\n${built.engine}, ${fmtInt(shape.links)} links, ${name}: WAL per redirect by record kind\n  ${records.join("\n  ")}`);
  }
  figures.set("redirects, one hot link", `${fmtInt(rps("hot"))} req/s${walOf("hot")}`);
  figures.set("redirects, uniform over every link", `${fmtInt(rps("uniform"))} req/s${walOf("uniform")}`);
  figures.set(`redirects, Zipf s=${zipfExponent} over every link`, `${fmtInt(rps("zipf"))} req/s${walOf("zipf")}`);
  figures.set("commit ceiling, 1 commit in flight", `${fmtInt(rps("ceiling1"))} req/s`);
  figures.set("commit ceiling, 4 commits in flight", `${fmtInt(rps("ceiling4"))} req/s`);
  // The share of answers that were no redirect: an expired or used-up link's 410 (about 5 %), never a link not found.
  const missed = (name: RunName) => `, ${(100 * median(results[name].map((result) => result.notRedirected))).toFixed(1)} % no redirect`;
  figures.set(
    "redirects, uniform over the default domain's links",
    `${fmtInt(rps("uniformDefault"))} req/s${walOf("uniformDefault")}${missed("uniformDefault")}`,
  );
  figures.set(
    `redirects, uniform over ${brandHost}'s links (its Host)`,
    `${fmtInt(rps("uniformBrand"))} req/s${walOf("uniformBrand")}${missed("uniformBrand")}`,
  );
  figures.set(`redirects, Zipf over the default domain's links`, `${fmtInt(rps("zipfDefault"))} req/s`);
  figures.set(`redirects, ${brandHost} / default domain, uniform`, `${(rps("uniformBrand") / rps("uniformDefault")).toFixed(2)}`);
  figures.set("redirects, uniform / hot", `${(rps("uniform") / rps("hot")).toFixed(2)}`);
  figures.set(`redirects, Zipf / hot`, `${(rps("zipf") / rps("hot")).toFixed(2)}`);
  // Over wrk's time and the time until what each row left was cleared.
  for (const [label, name] of backlogRows) {
    const clearedMs = median(results[name].map((result) => result.clearedMs));
    figures.set(`redirects with their backlog, ${label}`, `${fmtInt(rpsCleared(name))} req/s (${fmtInt(clearedMs)} ms to clear)`);
  }
  figures.set("redirects with their backlog, uniform / hot", `${(rpsCleared("uniform") / rpsCleared("hot")).toFixed(2)}`);
  figures.set("redirects with their backlog, Zipf / hot", `${(rpsCleared("zipf") / rpsCleared("hot")).toFixed(2)}`);
  figures.set("redirects, hot / ceiling (1 in flight)", `${(rps("hot") / rps("ceiling1")).toFixed(2)}`);
  if (baseTree) {
    figures.set(`base tree (${baseTree.commit}): one hot link`, `${fmtInt(rps("baseHot"))} req/s${walOf("baseHot")}`);
    figures.set(`base tree (${baseTree.commit}): uniform, default domain`, `${fmtInt(rps("baseUniform"))} req/s${walOf("baseUniform")}`);
    figures.set(`base tree (${baseTree.commit}): Zipf, default domain`, `${fmtInt(rps("baseZipf"))} req/s${walOf("baseZipf")}`);
    for (const [row, ours, theirs] of [
      ["hot", "hot", "baseHot"],
      ["uniform, default domain", "uniformDefault", "baseUniform"],
      ["Zipf, default domain", "zipfDefault", "baseZipf"],
    ] as const) {
      figures.set(`this tree / base tree, ${row}`, `${(rps(ours) / rps(theirs)).toFixed(2)}`);
    }
  }
}

/**
 * Latency at a fixed offered rate (issue 50; bench/support/latency.ts): one
 * hot link and codes uniform over the default domain's links, each offered
 * half and 80 % of its own maximum, direct (the maxima measured above) and
 * through a gateway in front of the same shortener (its maxima measured
 * here with wrk, closed loop). The gateway's rate limits are off, as in
 * bench:gateway.
 */
async function measureRedirectLatency(
  settings: Settings,
  run: { shortener: string; internalSecret: string; redisPrefix: string; hotPath: string; links: number; uniformScript: string; backlog: RowBacklog },
  maxRps: { hot: number; uniform: number },
): Promise<void> {
  const gateway = await startGateway(settings, {
    name: "gateway",
    shortenerUrl: run.shortener,
    redisPrefix: `${run.redisPrefix}gateway:`,
    internalSecret: run.internalSecret,
  });
  const pathsFile = join(tmpdir(), `linkgeo-scale-paths-${process.pid}.txt`);
  onCleanup("remove the uniform paths", () => rmSync(pathsFile, { force: true }));
  // The default domain's links (the odd ones, scale-data.ts): every request goes with the one Host.
  writeFileSync(pathsFile, Array.from({ length: Math.ceil(run.links / 2) }, (_, i) => `/${codeOf(2 * i + 1)}/`).join("\n"));
  try {
    await run.backlog.cleared();
    const gatewayHot = (await runWrk(settings, `${gateway.base}${run.hotPath}`, settings.seconds, visitorHeaders)).rps;
    await run.backlog.cleared();
    const gatewayUniform = (await runWrk(settings, `${gateway.base}/`, settings.seconds, visitorHeaders, run.uniformScript)).rps;
    // Each row starts with what the one before left cleared, as the throughput rows do.
    const rows = await measureLatencies(
      settings,
      [
        { label: "hot, direct", url: `${run.shortener}${run.hotPath}`, headers: visitorHeaders, maxRps: maxRps.hot },
        { label: "uniform, direct", url: `${run.shortener}/`, pathsFile, headers: visitorHeaders, maxRps: maxRps.uniform },
        { label: "hot, gateway", url: `${gateway.base}${run.hotPath}`, headers: visitorHeaders, maxRps: gatewayHot },
        { label: "uniform, gateway", url: `${gateway.base}/`, pathsFile, headers: visitorHeaders, maxRps: gatewayUniform },
      ],
      { beforeEach: run.backlog.cleared },
    );
    reportLatencies(rows, { "hot, direct": 5, "uniform, direct": 5, "hot, gateway": 8, "uniform, gateway": 8 });
  } finally {
    await gateway.child.stop();
  }
}

/**
 * Opening this data as a shortener starting does, with every migration
 * applied: what a restart costs at this size. (The upgrade to domains,
 * issue 47, was timed here by taking its migration back and applying it
 * again: 17.9 ms on Postgres and 2.0 ms on SQLite at 1M links, in
 * docs/measurements.md. Later migrations build on its table, so it can no
 * longer be taken back alone.)
 */
async function measureOpen(built: BuiltDatabase, figures: Figures): Promise<void> {
  const target: DatabaseTarget =
    built.engine === "postgres" ? { engine: "postgres", url: built.url } : { engine: "sqlite", path: built.url.replace(/^sqlite:\/\//, "") };
  const started = performance.now();
  await (await openDatabase(target)).close();
  figures.set("opening the database, nothing to apply", ms(performance.now() - started));
}

/** Visits in the log for one catch-up measurement. */
const backlogVisits = 100_000;

/**
 * How fast the visit log is summed when it has fallen behind (issue 24):
 * `backlogVisits` logged visits of links drawn uniformly, appended as a
 * burst leaves them while no replica sums, then summed through the
 * shortener's own store (what a read or the background turn does), timed.
 * Rows per second: how much traffic spread over many links one summing
 * replica keeps up with.
 */
async function measureLogCatchUp(built: BuiltDatabase, shape: ScaleShape, figures: Figures): Promise<void> {
  const facts = JSON.stringify([
    ["referrers", "direct", 1],
    ["countries", "DE", 1],
    ["browsers", "Firefox", 1],
    ["os", "Linux", 1],
    ["devices", "desktop", 1],
  ]);
  const at = Date.now();
  if (built.engine === "postgres") {
    const sql = postgres(built.url, { max: 1, onnotice: () => {} });
    await sql`
      INSERT INTO link_visit_log (code, at, humans, bots, facts)
      SELECT CASE WHEN n % 2 = 0 THEN '1~' ELSE '' END || 'c' || to_hex(n) || 'x', to_timestamp(${at} / 1000.0), 1, 0, ${facts}
      FROM (SELECT 1 + floor(random() * ${shape.links})::int AS n FROM generate_series(1, ${backlogVisits})) AS drawn`;
    await sql.end({ timeout: 5 });
  } else {
    const sqlite = new SqliteDatabase(built.url.replace(/^sqlite:\/\//, ""));
    sqlite
      .query(
        // Materialized: a flattened draw would call random() once for each use of its link.
        `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?4),
              drawn AS MATERIALIZED (SELECT 1 + abs(random()) % ?1 AS n FROM seq)
         INSERT INTO link_visit_log (code, at, humans, bots, facts)
         SELECT CASE WHEN n % 2 = 0 THEN '1~' ELSE '' END || 'c' || printf('%x', n) || 'x', ?2, 1, 0, ?3 FROM drawn`,
      )
      .run(shape.links, at, facts, backlogVisits);
    sqlite.close();
  }
  const database = await openDatabase(
    built.engine === "postgres" ? { engine: "postgres", url: built.url } : { engine: "sqlite", path: built.url.replace(/^sqlite:\/\//, "") },
  );
  try {
    const started = performance.now();
    const summed = await database.visits.sumVisitLog();
    const seconds = (performance.now() - started) / 1000;
    figures.set(`visit log: ${fmtInt(backlogVisits)} visits summed`, `${seconds.toFixed(1)} s (${fmtInt(summed / seconds)} visits/s)`);
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  requireWrk();
  const settings = { ...readSettings(), seconds: intFromEnv("BENCH_SECONDS", 5, 1, 3600), rounds: intFromEnv("BENCH_ROUNDS", 2, 1, 100) };
  const bigLinks = intFromEnv("BENCH_SCALE_LINKS", 1_000_000, 1_000, 50_000_000);
  const engines = (process.env.BENCH_SCALE_ENGINES ?? "postgres,sqlite").split(",").map((engine) => engine.trim());
  if (!engines.every((engine) => engine === "postgres" || engine === "sqlite")) throw new BenchError("BENCH_SCALE_ENGINES lists postgres and/or sqlite");
  const shapes: ScaleShape[] = [
    { links: 1_000, visitedLinks: 1_000 },
    { links: bigLinks, visitedLinks: Math.min(bigLinks, 10_000) },
  ];
  console.log(`bench:scale on ${describeMachine()}; wrk -t${settings.threads} -c${settings.connections}, ${settings.rounds} rounds of ${settings.seconds} s\n`);

  const columns: Array<{ label: string; figures: Figures }> = [];
  for (const engine of engines) {
    for (const shape of shapes) {
      const now = new Date();
      const built = engine === "postgres" ? await buildPostgres(shape, now) : await buildSqlite(shape, now);
      onCleanup(`drop the ${engine} scale database`, () => built.drop());
      const figures: Figures = new Map();
      figures.set(
        "data built in",
        `${(built.buildMs / 1000).toFixed(1)} s (${fmtInt(built.rows.links)} links, ${fmtInt(built.rows.buckets)} buckets, ${fmtInt(built.rows.facts)} link-days of breakdowns)`,
      );
      console.log(`${engine}, ${fmtInt(shape.links)} links: ${figures.get("data built in")}`);
      const database = await openDatabase(engine === "postgres" ? { engine, url: built.url } : { engine, path: built.url.replace(/^sqlite:\/\//, "") });
      try {
        await measureReads(database, shape, figures, now);
      } finally {
        await database.close();
      }
      await measureOpen(built, figures);
      await measureRedirects(settings, built, shape, figures);
      await measureLogCatchUp(built, shape, figures);
      await built.drop();
      columns.push({ label: `${engine}, ${fmtInt(shape.links)}`, figures });
    }
  }

  // Every column's rows, in the order they were first set (an engine may have rows of its own: its CPU split).
  const labels = [...new Set(columns.flatMap((column) => [...column.figures.keys()]))];
  console.log(
    `\n${table([["", ...columns.map((column) => column.label)], ...labels.map((label) => [label, ...columns.map((column) => column.figures.get(label) ?? "")])])}`,
  );
  console.log(
    `\ntargets at ${fmtInt(bigLinks)} links: listing and search < ${targets.listingMs} ms; visits reports < ${targets.visitsMs} ms; ` +
      `redirects uniform / hot >= ${targets.uniformOverHot.postgres} (Postgres), ${targets.uniformOverHot.sqlite} (SQLite); ` +
      `Zipf / hot >= ${targets.zipfOverHot}; hot / ceiling >= ${targets.hotOverCeiling} (Postgres); ` +
      `WAL per uniform redirect < ${fmtInt(targets.walBytes)} B over whole checkpoint cycles (bench:wal: a row here is one moment of a cycle). ` +
      `"(est.)": the count was an estimate (past 10,000 matches).`,
  );
  return 0;
}

if (import.meta.main) await runBench(main);
