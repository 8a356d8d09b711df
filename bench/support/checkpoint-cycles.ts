/**
 * WAL per request over whole checkpoint cycles. After each checkpoint
 * begins (at its redo point), the first change to every page writes the
 * whole page into the WAL (full_page_writes), so the bytes a request costs
 * depend on when it is measured: right after a checkpoint nearly every page
 * a long tail touches is new to the cycle, late in a cycle few are. Over
 * whole cycles, from one redo point to a later one, the average is what a
 * server running that load for good writes per request.
 */

/** Issue 50's target for a redirect spread over a million links, judged over whole cycles (bench:wal). */
export const walTargetBytes = 2_000;

/** The run so far at one moment: its WAL position (bytes), the server's clock (seconds) and the requests behind it. */
export interface RunMark {
  lsn: number;
  at: number;
  requests: number;
}

/** Where a checkpoint began: its redo point, and its time on the server's clock (seconds). */
export interface RedoPoint {
  lsn: number;
  at: number;
}

export interface WholeCycles {
  /** How many cycles lie between the first redo point and the last. */
  cycles: number;
  walBytes: number;
  requests: number;
  seconds: number;
}

/**
 * `marks`: the run at the edges of its windows, in order (the first at its
 * start). `redoPoints`: where checkpoints began, as the server reported
 * them. The WAL between two redo points is exact; the requests up to a redo
 * point inside a window are interpolated by its time, as the load's rate is
 * steady (its WAL is not: it jumps when a checkpoint begins). Undefined
 * when fewer than two redo points fall within the run, or when the span
 * between them holds no request or no time (clocks that disagree).
 */
export function wholeCycles(marks: readonly RunMark[], redoPoints: Iterable<RedoPoint>): WholeCycles | undefined {
  const first = marks[0];
  const last = marks.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const byLsn = new Map<number, RedoPoint>();
  for (const point of redoPoints) if (point.lsn >= first.lsn && point.lsn <= last.lsn) byLsn.set(point.lsn, point);
  const within = [...byLsn.values()].sort((a, b) => a.lsn - b.lsn);
  if (within.length < 2) return undefined;
  const from = within[0]!;
  const to = within.at(-1)!;
  const requests = requestsAt(marks, to.at) - requestsAt(marks, from.at);
  const seconds = to.at - from.at;
  if (!(requests > 0 && seconds > 0)) return undefined;
  return { cycles: within.length - 1, walBytes: to.lsn - from.lsn, requests, seconds };
}

/** The requests the run had answered at time `at`, between the two marks around it (at the run's edges, its first or last). */
function requestsAt(marks: readonly RunMark[], at: number): number {
  const after = marks.findIndex((mark) => mark.at >= at);
  if (after === -1) return marks.at(-1)!.requests;
  const next = marks[after]!;
  const previous = marks[after - 1];
  if (previous === undefined || next.at === previous.at) return next.requests;
  return previous.requests + ((next.requests - previous.requests) * (at - previous.at)) / (next.at - previous.at);
}
