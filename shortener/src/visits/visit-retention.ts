import { describeError, type Logger } from "@linkgeo/shared";
import { granularityMs } from "./visit-range.ts";
import type { VisitStore } from "./visit-store.ts";

export interface VisitRetentionOptions {
  store: Pick<VisitStore, "foldHoursBefore">;
  /** ANALYTICS_HOURLY_DAYS: hourly buckets of days older than this are folded into one per day. */
  hourlyDays: number;
  clock: () => Date;
  log: Logger;
  /** How often to look; default hourly. */
  everyMs?: number;
}

/**
 * Keeps hourly detail for `hourlyDays`, then one bucket per link and UTC
 * day: the table of buckets grows with days, not hours, and no total ever
 * changes (each fold is one transaction; on Postgres one replica at a time
 * does it, the others find the lock taken). Runs at once, then every
 * `everyMs`, until `stop()`; a failure is logged and tried again next time.
 */
export function startVisitRetention(options: VisitRetentionOptions): { runOnce(): Promise<number>; stop(): void } {
  const runOnce = async (): Promise<number> => {
    // Whole UTC days only: the cutoff is the midnight `hourlyDays` before today's.
    const today = Math.floor(options.clock().getTime() / granularityMs.day) * granularityMs.day;
    const before = new Date(today - options.hourlyDays * granularityMs.day);
    try {
      const folded = await options.store.foldHoursBefore(before);
      if (folded > 0) options.log.info("visit hours folded into days", { hours: folded, before: before.toISOString() });
      return folded;
    } catch (error) {
      options.log.warn("folding old visit hours failed; trying again later", { error: describeError(error) });
      return 0;
    }
  };
  void runOnce();
  const timer = setInterval(() => void runOnce(), options.everyMs ?? granularityMs.hour);
  // The server keeps the process alive; this timer alone must not.
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
