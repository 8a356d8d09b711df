/**
 * WAL per redirect over whole checkpoint cycles (issue 50): a long tail of
 * redirects (codes uniform over every link of a scale database, as
 * bench:scale builds it) for minutes on end, measured window by window,
 * then averaged from one checkpoint's start to a later one's.
 *
 *   bun run bench:wal                                            # 1M links, 300 s in 10 s windows
 *   BENCH_PG_SETTINGS=wal_compression=lz4 BENCH_WAL_SECONDS=600 bun run bench:wal
 *
 * Why not bench:scale's WAL rows: after a checkpoint begins, the first
 * change to each page writes the whole page into the WAL, and a long tail
 * touches pages no request touched since. A row of a few seconds measures
 * one moment of the cycle (right after a checkpoint, several times the
 * average); a server that runs such traffic for good writes the average
 * over its cycles, and how long a cycle lasts is the server's own setting
 * (`max_wal_size`, `checkpoint_timeout`): the WAL written starts the next
 * checkpoint, so the more page images, the sooner it comes.
 *
 * The run starts with a CHECKPOINT, so its first cycle starts with it.
 * Each window prints its rate and WAL per redirect and marks where a
 * checkpoint began (its redo point, as `pg_control_checkpoint()` reports
 * it once the checkpoint is done: with checkpoint_completion_target = 0.9
 * most of a cycle later, so a run shows n whole cycles when it lasts about
 * n + 1); then the average over the whole cycles in the run (the WAL
 * between their redo points, the redirects until each point's time), the
 * lowest window (about what the rows themselves write, with few page
 * images) and the first (nearly all page images), and how many requests
 * failed. The server's checkpoint settings are printed, not changed: they
 * are the operator's (docs/scaling.md says which we advise and how they
 * were measured). The database is built for the run and dropped after it;
 * nothing else should write to the cluster meanwhile.
 *
 * Knobs: BENCH_WAL_SECONDS (300: the load's length), BENCH_SECONDS (10: a
 * window), BENCH_SCALE_LINKS (1,000,000), BENCH_WAL_TRAFFIC (uniform, or
 * zipf: codes drawn by Zipf's law with bench:scale's exponent, over every
 * link), BENCH_PG_SETTINGS (the database's own settings, as bench:scale),
 * BENCH_CONNECTIONS and BENCH_THREADS (wrk's). Target (issue 50): under
 * 2 KB of WAL per uniform redirect with the settings we ship; a Zipf run
 * prints its figure without one. A report, not a test: it exits 0 either
 * way.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import postgres from "postgres";
import { walTargetBytes, wholeCycles, type RedoPoint, type RunMark } from "./support/checkpoint-cycles.ts";
import { applyDatabaseSettings, autovacuumWarning } from "./support/database-settings.ts";
import { BenchError, onCleanup, runBench } from "./support/lifecycle.ts";
import { describeMachine, fmtInt, table } from "./support/report.ts";
import { buildPostgres } from "./support/scale-data.ts";
import { intFromEnv, readSettings } from "./support/settings.ts";
import { startShortener, visitorHeaders } from "./support/shortener.ts";
import { uniformScript, zipfExponent, zipfScript } from "./support/wrk-scripts.ts";
import { requireWrk, runWrk, socketErrorTotal } from "./support/wrk.ts";

/** The server's settings that decide how long a cycle is, how big its page images are, and whether vacuum adds WAL of its own. */
const shownSettings = [
  "max_wal_size",
  "checkpoint_timeout",
  "checkpoint_completion_target",
  "wal_compression",
  "full_page_writes",
  "shared_buffers",
  "autovacuum",
];

async function main(): Promise<number> {
  requireWrk();
  const settings = { ...readSettings(), seconds: intFromEnv("BENCH_SECONDS", 10, 1, 600) };
  const loadSeconds = intFromEnv("BENCH_WAL_SECONDS", 300, settings.seconds, 86_400);
  const links = intFromEnv("BENCH_SCALE_LINKS", 1_000_000, 1_000, 50_000_000);
  const traffic = process.env.BENCH_WAL_TRAFFIC || "uniform";
  if (traffic !== "uniform" && traffic !== "zipf") throw new BenchError(`BENCH_WAL_TRAFFIC must be uniform or zipf (got "${traffic}")`);
  const drawn = traffic === "uniform" ? "uniform" : `Zipf s = ${zipfExponent}`;
  console.log(
    `bench:wal on ${describeMachine()}; wrk -t${settings.threads} -c${settings.connections}, ${drawn} over ${fmtInt(links)} links, ${loadSeconds} s in windows of ${settings.seconds} s\n`,
  );

  const built = await buildPostgres({ links, visitedLinks: Math.min(links, 10_000) }, new Date());
  onCleanup("drop the scale database", () => built.drop());
  const databaseSettings = await applyDatabaseSettings(built.url);
  const redisPrefix = uniqueRedisPrefix("wal");
  onCleanup(`delete Redis keys ${redisPrefix}*`, () => deleteKeysWithPrefix(testRedisUrl, redisPrefix));
  const shortener = await startShortener(settings, { url: built.url }, redisPrefix);
  onCleanup("stop the shortener", () => shortener.child.stop());
  const script = join(tmpdir(), `linkgeo-wal-${traffic}-${process.pid}.lua`);
  writeFileSync(script, traffic === "uniform" ? uniformScript(links) : zipfScript(links, zipfExponent));
  onCleanup("remove the wrk script", () => rmSync(script, { force: true }));
  const sql = postgres(built.url, { max: 1, onnotice: () => {} });
  onCleanup("close the measuring connection", () => sql.end({ timeout: 5 }));

  const shown = await sql<Array<{ name: string; value: string }>>`
    SELECT name, current_setting(name) AS value FROM unnest(${shownSettings}::text[]) AS name`;
  console.log(
    `data built in ${(built.buildMs / 1000).toFixed(1)} s; ${databaseSettings ? `BENCH_PG_SETTINGS ${databaseSettings}; ` : ""}server: ${shown.map((setting) => `${setting.name}=${setting.value}`).join(", ")}\n`,
  );
  const vacuumWarning = autovacuumWarning(shown.find((setting) => setting.name === "autovacuum")!.value);
  if (vacuumWarning) console.log(`${vacuumWarning}\n`);

  // The WAL's position and the server's clock together: a checkpoint's time is the server's too.
  const position = async () => {
    const [now] = await sql<Array<{ lsn: string; at: number }>>`
      SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS lsn, extract(epoch FROM clock_timestamp())::float8 AS at`;
    return { lsn: Number(now!.lsn), at: now!.at };
  };
  // The last finished checkpoint: where it began (its redo point) and when (its time, kept to the whole second: the
  // middle of that second).
  const redoPoint = async (): Promise<RedoPoint> => {
    const [point] = await sql<Array<{ lsn: string; at: number }>>`
      SELECT (redo_lsn - '0/0'::pg_lsn)::text AS lsn, extract(epoch FROM checkpoint_time)::float8 + 0.5 AS at FROM pg_control_checkpoint()`;
    return { lsn: Number(point!.lsn), at: point!.at };
  };
  // The run starts where its CHECKPOINT began: its first cycle is a whole one.
  await sql`CHECKPOINT`;
  const start = await redoPoint();
  const marks: RunMark[] = [{ lsn: start.lsn, at: start.at, requests: 0 }];
  const redoPoints = new Map([[start.lsn, start]]);
  const windows: Array<{ rps: number; bytes: number }> = [];
  let failed = 0;
  for (let elapsed = 0; elapsed < loadSeconds; elapsed += settings.seconds) {
    const result = await runWrk(settings, `${shortener.base}/`, settings.seconds, visitorHeaders, script);
    const last = marks.at(-1)!;
    marks.push({ ...(await position()), requests: last.requests + result.requests });
    const point = await redoPoint();
    redoPoints.set(point.lsn, point);
    windows.push({ rps: result.rps, bytes: (marks.at(-1)!.lsn - last.lsn) / Math.max(1, result.requests) });
    failed += socketErrorTotal(result);
  }

  // Where each checkpoint began: the window whose WAL holds its redo point. A checkpoint is known once it is done,
  // most of a cycle later with checkpoint_completion_target = 0.9: the run's last checkpoints show no start.
  const began = (index: number) => [...redoPoints.keys()].some((lsn) => lsn >= marks[index]!.lsn && lsn < marks[index + 1]!.lsn);
  const second = (index: number) => fmtInt(marks[index]!.at - marks[0]!.at);
  console.log(
    table([
      ["window", "redirects/s", "WAL per redirect", "checkpoint began (once done)"],
      ...windows.map((window, index) => [
        `${second(index)}-${second(index + 1)} s`,
        fmtInt(window.rps),
        `${fmtInt(window.bytes)} B`,
        began(index) ? "yes" : "",
      ]),
    ]),
  );

  const cycles = wholeCycles(marks, redoPoints.values());
  const bytes = windows.map((window) => window.bytes);
  const summary: string[][] = [
    ["first window (after the run's CHECKPOINT)", `${fmtInt(bytes[0]!)} B`],
    ["lowest window", `${fmtInt(Math.min(...bytes))} B`],
    // A failed request wrote nothing: many would make the WAL per redirect look smaller.
    ["requests that failed (socket errors)", fmtInt(failed)],
  ];
  const redirect = traffic === "uniform" ? "uniform redirect" : "Zipf redirect";
  if (cycles) {
    const perRedirect = cycles.walBytes / cycles.requests;
    const target = traffic === "uniform" ? `   target: < ${fmtInt(walTargetBytes)} B   ${perRedirect < walTargetBytes ? "OK" : "NOT MET"}` : "";
    summary.unshift([
      `WAL per ${redirect} over ${cycles.cycles} whole checkpoint cycle${cycles.cycles === 1 ? "" : "s"} (${(cycles.seconds / cycles.cycles).toFixed(0)} s each)`,
      `${fmtInt(perRedirect)} B at ${fmtInt(cycles.requests / cycles.seconds)} redirects/s${target}`,
    ]);
  } else {
    summary.unshift([
      `WAL per ${redirect} over whole checkpoint cycles`,
      "no second checkpoint was done within the run: make BENCH_WAL_SECONDS about two cycles long (a checkpoint is known once done)",
    ]);
  }
  console.log(`\n${table(summary)}`);
  return 0;
}

if (import.meta.main) await runBench(main);
