import { describeError, type Logger } from "@linkgeo/shared";
import type { VisitStore } from "./visit-store.ts";

export interface VisitLogSummingOptions {
  store: Pick<VisitStore, "sumVisitLog">;
  log: Logger;
  /** The pause between two turns; default 250 ms. */
  everyMs?: number;
}

/** Default pause between two summing turns: the log holds about this much traffic when a report is read. */
export const visitLogSummingEveryMs = 250;

/**
 * Keeps the visit log short (visit-log.ts): every `everyMs` this replica
 * sums what the log holds into the buckets and breakdowns, unless another
 * replica is doing it right now. Reads sum the rest themselves, so this
 * only keeps their share small; a turn that fails is logged and the next
 * one tries again. One turn at a time; `stop()` ends the loop.
 */
export function startVisitLogSumming(options: VisitLogSummingOptions): { stop(): void } {
  const everyMs = options.everyMs ?? visitLogSummingEveryMs;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failing = false;
  const turn = async () => {
    try {
      await options.store.sumVisitLog();
      failing = false;
    } catch (error) {
      // Once per outage, not four times a second.
      if (!failing) options.log.warn("summing the visit log failed; trying again", { error: describeError(error) });
      failing = true;
    }
    if (stopped) return;
    timer = setTimeout(turn, everyMs);
    // The server keeps the process alive; this timer alone must not.
    timer.unref();
  };
  void turn();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
