import { describeError, type Logger } from "@linkgeo/shared";
import { granularityMs } from "./visit-range.ts";
import { rollupEdge } from "./visit-rollups.ts";
import type { VisitStore } from "./visit-store.ts";

export interface VisitRetentionOptions {
  store: Pick<VisitStore, "foldHoursBefore" | "rollUpBefore">;
  /** ANALYTICS_HOURLY_DAYS: hourly buckets of days older than this are folded into one per day. */
  hourlyDays: number;
  clock: () => Date;
  log: Logger;
  /** How often to look; default hourly. */
  everyMs?: number;
}

/** What one run did: days summed for the every-link reports, hour buckets folded into days. */
export interface VisitUpkeep {
  summedDays: number;
  foldedHours: number;
}

/**
 * The visit tables' upkeep. Sums each finished UTC day (an hour after its
 * end) into the every-link tables, so the every-link report reads a row per
 * hour or day instead of a row per link. Keeps hourly detail for
 * `hourlyDays`, then one bucket per link and UTC day: the table of buckets
 * grows with days, not hours. No total ever changes (each step is one
 * transaction; on Postgres one replica at a time does it, the others find
 * the lock taken). Runs at once, then every `everyMs`, until `stop()`; a
 * failure is logged and tried again next time.
 */
export function startVisitRetention(options: VisitRetentionOptions): { runOnce(): Promise<VisitUpkeep>; stop(): void } {
  // Each part on its own: a failure is logged and tried again next time, and the other still runs.
  const attempt = async (run: () => Promise<number>, done: (count: number) => void, failed: string): Promise<number> => {
    try {
      const count = await run();
      if (count > 0) done(count);
      return count;
    } catch (error) {
      options.log.warn(failed, { error: describeError(error) });
      return 0;
    }
  };
  const sumFinishedDays = () => {
    const before = rollupEdge(options.clock());
    return attempt(
      () => options.store.rollUpBefore(before),
      (days) => options.log.info("visit days summed for the every-link report", { days, before: before.toISOString() }),
      "summing visit days failed; trying again later",
    );
  };
  const foldOldHours = () => {
    // Whole UTC days only: the cutoff is the midnight `hourlyDays` before today's.
    const today = Math.floor(options.clock().getTime() / granularityMs.day) * granularityMs.day;
    const before = new Date(today - options.hourlyDays * granularityMs.day);
    return attempt(
      () => options.store.foldHoursBefore(before),
      (hours) => options.log.info("visit hours folded into days", { hours, before: before.toISOString() }),
      "folding old visit hours failed; trying again later",
    );
  };
  const runOnce = async (): Promise<VisitUpkeep> => ({ summedDays: await sumFinishedDays(), foldedHours: await foldOldHours() });
  void runOnce();
  const timer = setInterval(() => void runOnce(), options.everyMs ?? granularityMs.hour);
  // The server keeps the process alive; this timer alone must not.
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
