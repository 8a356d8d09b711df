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
 * wrk on one hot link, then on codes drawn uniformly from every link (a Lua
 * script), alternating for BENCH_ROUNDS rounds of BENCH_SECONDS (5).
 *
 * Targets (issues 16, 22): at 1M links every listing, search or filter under 50 ms,
 * redirects uniform over 1M at least 0.7 of one hot link, the visits
 * reports under 100 ms. A report, not a test: it exits 0 either way.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import { linkStates, type LinkState } from "../shortener/src/links/destination.ts";
import type { LinkQuery } from "../shortener/src/links/link-store.ts";
import { openDatabase, type Database } from "../shortener/src/storage/open-database.ts";
import { BenchError, onCleanup, runBench } from "./support/lifecycle.ts";
import { describeMachine, fmtInt, median, table } from "./support/report.ts";
import { buildPostgres, buildSqlite, codeOf, scaleTags, type BuiltDatabase, type ScaleShape } from "./support/scale-data.ts";
import { intFromEnv, readSettings, type Settings } from "./support/settings.ts";
import { startShortener, visitorHeaders } from "./support/shortener.ts";
import { requireWrk, runWrk } from "./support/wrk.ts";

const targets = { listingMs: 50, visitsMs: 100, uniformOverHot: 0.7 };
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

  const busy = codeOf(shape.links);
  const day = (date: Date) => date.toISOString().slice(0, 10);
  for (const days of [30, 365]) {
    const from = new Date(now.getTime() - days * 86_400_000);
    const one = await timed(() => Promise.all([visits.buckets({ code: busy }, from, now), visits.facts({ code: busy }, day(from), day(now))]));
    figures.set(`visits of one link, ${days} days`, ms(one));
    const all = await timed(() => Promise.all([visits.buckets({}, from, now), visits.facts({}, day(from), day(now)), visits.topLinks(from, now, 10)]));
    figures.set(`visits of every link (admin), ${days} days`, ms(all));
  }
}

async function measureRedirects(settings: Settings, built: BuiltDatabase, shape: ScaleShape, figures: Figures): Promise<void> {
  const redisPrefix = uniqueRedisPrefix("scale");
  onCleanup(`delete Redis keys ${redisPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, redisPrefix));
  const shortener = await startShortener(settings, built, redisPrefix);
  const script = join(tmpdir(), `linkgeo-scale-${process.pid}.lua`);
  writeFileSync(
    script,
    `math.randomseed(${Date.now() % 100000})\nrequest = function() return wrk.format("GET", string.format("/c%xx/", math.random(1, ${shape.links}))) end\n`,
  );
  const hot: number[] = [];
  const uniform: number[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    hot.push((await runWrk(settings, `${shortener.base}/${codeOf(shape.links)}/`, settings.seconds, visitorHeaders)).rps);
    uniform.push((await runWrk(settings, `${shortener.base}/`, settings.seconds, visitorHeaders, script)).rps);
  }
  await shortener.child.stop();
  figures.set("redirects, one hot link", `${fmtInt(median(hot))} req/s`);
  figures.set("redirects, uniform over every link", `${fmtInt(median(uniform))} req/s`);
  figures.set("redirects, uniform / hot", `${(median(uniform) / median(hot)).toFixed(2)}`);
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
        `${(built.buildMs / 1000).toFixed(1)} s (${fmtInt(built.rows.links)} links, ${fmtInt(built.rows.buckets)} buckets, ${fmtInt(built.rows.facts)} facts)`,
      );
      console.log(`${engine}, ${fmtInt(shape.links)} links: ${figures.get("data built in")}`);
      const database = await openDatabase(engine === "postgres" ? { engine, url: built.url } : { engine, path: built.url.replace(/^sqlite:\/\//, "") });
      try {
        await measureReads(database, shape, figures, now);
      } finally {
        await database.close();
      }
      await measureRedirects(settings, built, shape, figures);
      await built.drop();
      columns.push({ label: `${engine}, ${fmtInt(shape.links)}`, figures });
    }
  }

  const labels = [...columns[0]!.figures.keys()];
  console.log(
    `\n${table([["", ...columns.map((column) => column.label)], ...labels.map((label) => [label, ...columns.map((column) => column.figures.get(label) ?? "")])])}`,
  );
  console.log(
    `\ntargets at ${fmtInt(bigLinks)} links: listing and search < ${targets.listingMs} ms; visits reports < ${targets.visitsMs} ms; ` +
      `redirects uniform / hot >= ${targets.uniformOverHot}. "(est.)": the count was an estimate (past 10,000 matches).`,
  );
  return 0;
}

if (import.meta.main) await runBench(main);
