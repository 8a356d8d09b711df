import { fixedRateLoad, type FixedRateResult } from "./fixed-rate.ts";
import { checkNotInterrupted } from "./lifecycle.ts";
import { fmtInt, median, table } from "./report.ts";
import type { Settings } from "./settings.ts";

/**
 * Latency at a fixed offered rate (issue 50): each target is offered half
 * and 80 % of a measured maximum (`maxRps`, from the throughput rows of the
 * same run), open loop (fixed-rate.ts: a request's latency counts from when
 * it was due), and its p50, p99 and p99.9 printed. The targets alternate
 * within each rate, round after round (medians). The client's own floor
 * (its 1 ms timer included) is the row of a bare server at the same rates.
 */
export interface LatencyTarget {
  label: string;
  url: string;
  /** A file of paths, one a line, each request taking one at random (uniform over links); else the URL's path. */
  pathsFile?: string;
  headers?: Record<string, string>;
  /** The rate the shares are of, requests a second. */
  maxRps: number;
}

/** The offered rates, as shares of each target's maximum. */
export const offeredShares = [0.5, 0.8] as const;

export interface LatencyRow {
  target: LatencyTarget;
  share: number;
  runs: FixedRateResult[];
}

/**
 * Each row at each offered share, for `settings.rounds` rounds (every other
 * round in reverse order). `beforeEach` runs before every row: a wait for
 * what the row before left behind, so that no row pays for another's.
 */
export async function measureLatencies(
  settings: Settings,
  targets: readonly LatencyTarget[],
  { beforeEach }: { beforeEach?: () => Promise<unknown> } = {},
): Promise<LatencyRow[]> {
  const rows = offeredShares.flatMap((share) => targets.map((target): LatencyRow => ({ target, share, runs: [] })));
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? rows : [...rows].reverse();
    for (const row of order) {
      checkNotInterrupted();
      await beforeEach?.();
      process.stdout.write(`latency round ${round}/${settings.rounds}: ${row.target.label} at ${row.share * 100} %… `);
      const url = new URL(row.target.url);
      const result = await fixedRateLoad({
        host: url.hostname,
        port: Number(url.port),
        path: row.target.pathsFile ? undefined : url.pathname,
        pathsFile: row.target.pathsFile,
        headers: row.target.headers ?? {},
        rate: Math.max(1, Math.round(row.target.maxRps * row.share)),
        seconds: settings.seconds,
        connections: settings.connections,
      });
      row.runs.push(result);
      console.log(`p99 ${result.p99Ms.toFixed(2)} ms`);
    }
  }
  return rows;
}

/** The rows as a table, and each `limits` entry (a target's label: p99 at half its maximum under so many ms) as met or not. */
export function reportLatencies(rows: readonly LatencyRow[], limits: Record<string, number> = {}): void {
  const ms = (row: LatencyRow, of: (run: FixedRateResult) => number) => median(row.runs.map(of)).toFixed(2);
  console.log(
    `\nlatency at a fixed offered rate (open loop, ms from when each request was due; medians of ${rows[0]?.runs.length ?? 0} round(s)):\n` +
      table([
        ["", "offered req/s", "p50", "p99", "p99.9", "max", "answered", "not 2xx/3xx", "client µs/req"],
        ...rows.map((row) => {
          const answered = median(row.runs.map((run) => run.answered / Math.max(1, run.due)));
          const failed = row.runs.reduce((sum, run) => sum + run.non2xx3xx + run.errors, 0);
          return [
            `${row.target.label}, ${row.share * 100} % of max`,
            fmtInt(Math.round(row.target.maxRps * row.share)),
            ms(row, (run) => run.p50Ms),
            ms(row, (run) => run.p99Ms),
            ms(row, (run) => run.p999Ms),
            ms(row, (run) => run.maxMs),
            `${(100 * answered).toFixed(1)} %`,
            fmtInt(failed),
            median(row.runs.map((run) => run.clientMicrosPerRequest)).toFixed(1),
          ];
        }),
      ]),
  );
  for (const [label, limit] of Object.entries(limits)) {
    const row = rows.find((each) => each.target.label === label && each.share === 0.5);
    if (!row) continue;
    const p99 = median(row.runs.map((run) => run.p99Ms));
    console.log(`p99 of ${label} at half its maximum: ${p99.toFixed(2)} ms   target: < ${limit} ms   ${p99 < limit ? "PASS" : "BELOW TARGET"}`);
  }
}
