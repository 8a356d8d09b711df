/**
 * The exact-count check of the redirect benchmarks: the link's access_count
 * must grow by exactly the number of redirects wrk received (the shortener
 * commits each one before answering), give or take the requests still in
 * flight when wrk stopped. Used by bench/redirects.ts and
 * bench/gateway-redirects.ts.
 */
import type { Target } from "./compare.ts";
import { fmtInt } from "./report.ts";
import { settledAccessCount } from "./shortener.ts";
import { socketErrorTotal, type WrkResult } from "./wrk.ts";

export interface CountCheck {
  /** Redirects wrk received (requests completed minus non-2xx/3xx answers). */
  redirected: number;
  counted: number;
  socketErrors: number;
  verdict: "exact" | "exact+inflight" | "lost" | "over";
}

/**
 * Every redirect wrk received must have been counted (the shortener commits
 * before answering). A few more may be counted than wrk reports: requests in
 * flight when wrk's timer stopped, or whose connection failed (socket
 * errors), reached the server and were committed, but wrk never read the
 * answer. At most one request per connection is in flight.
 */
export function checkCount(result: WrkResult, counted: number, connections: number): CountCheck {
  const redirected = result.requests - result.non2xx3xx;
  const socketErrors = socketErrorTotal(result);
  const verdict =
    counted === redirected ? "exact" : counted < redirected ? "lost" : counted - redirected <= connections + socketErrors ? "exact+inflight" : "over";
  return { redirected, counted, socketErrors, verdict };
}

export function describeCount(check: CountCheck, connections: number): string {
  const numbers =
    `access_count grew by ${fmtInt(check.counted)}, wrk received ${fmtInt(check.redirected)} redirects` +
    (check.socketErrors > 0 ? ` and reported ${check.socketErrors} socket errors` : "");
  const extra = check.counted - check.redirected;
  switch (check.verdict) {
    case "exact":
      return `EXACT (${numbers})`;
    case "exact+inflight":
      return (
        `EXACT: every redirect wrk received was counted (${numbers}). The ${fmtInt(extra)} extra ` +
        (check.socketErrors > 0
          ? `were in flight when wrk stopped or hit socket errors`
          : `were in flight when wrk's timer stopped (at most one per connection, ${connections})`) +
        `: the shortener served and counted them, wrk dropped the answers`
      );
    case "lost":
      return `NOT EXACT: ${fmtInt(-extra)} redirects were answered but not counted (${numbers})`;
    case "over":
      return `NOT EXACT: ${fmtInt(extra)} more counted than could have been in flight (${numbers})`;
  }
}

/**
 * A `Target.measure` that reads the link's settled access_count (from
 * `statsBase`: the shortener's origin, or the gateway's) before and after
 * each measured run and checks the difference against what wrk received.
 */
export function countingRedirects(statsBase: string, code: string, connections: number) {
  const checks: CountCheck[] = [];
  const measure: NonNullable<Target["measure"]> = async (run) => {
    const before = await settledAccessCount(statsBase, code);
    const result = await run();
    const after = await settledAccessCount(statsBase, code);
    checks.push(checkCount(result, after - before, connections));
    return result;
  };
  return { checks, measure };
}

/** Prints one line per measured run; true when a run lost redirects or counted more than possible. */
export function reportCounts(checks: CountCheck[], connections: number, label = "counting"): boolean {
  for (const [i, check] of checks.entries()) {
    console.log(`${label}${checks.length > 1 ? ` (round ${i + 1})` : ""}: ${describeCount(check, connections)}`);
  }
  return checks.some((c) => c.verdict === "lost" || c.verdict === "over");
}
