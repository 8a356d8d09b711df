/**
 * WAL per request over whole checkpoint cycles. After each checkpoint
 * begins (at its redo point), the first change to every page writes the
 * whole page into the WAL (full_page_writes), so the bytes a request costs
 * depend on when it is measured: right after a checkpoint nearly every page
 * a long tail touches is new to the cycle, late in a cycle few are. Over
 * whole cycles, from one redo point to a later one, the average is what a
 * server running that load for good writes per request.
 */

/** The run so far at one moment: its WAL position (bytes) and the requests and seconds behind it. */
export interface RunMark {
  lsn: number;
  requests: number;
  seconds: number;
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
 * them. The requests and seconds at a redo point inside a window are
 * interpolated by the WAL written, which runs steadily under a steady load.
 * Undefined when fewer than two redo points fall within the run.
 */
export function wholeCycles(marks: readonly RunMark[], redoPoints: Iterable<number>): WholeCycles | undefined {
  const first = marks[0];
  const last = marks.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const within = [...new Set(redoPoints)].filter((lsn) => lsn >= first.lsn && lsn <= last.lsn).sort((a, b) => a - b);
  if (within.length < 2) return undefined;
  const from = at(marks, within[0]!);
  const to = at(marks, within.at(-1)!);
  return { cycles: within.length - 1, walBytes: to.lsn - from.lsn, requests: to.requests - from.requests, seconds: to.seconds - from.seconds };
}

/** The run where its WAL reached `lsn`, between the two marks around it. */
function at(marks: readonly RunMark[], lsn: number): RunMark {
  const after = marks.findIndex((mark) => mark.lsn >= lsn);
  const next = marks[after]!;
  const previous = marks[after - 1];
  if (previous === undefined || next.lsn === previous.lsn) return { ...next, lsn };
  const share = (lsn - previous.lsn) / (next.lsn - previous.lsn);
  const between = (a: number, b: number) => a + (b - a) * share;
  return { lsn, requests: between(previous.requests, next.requests), seconds: between(previous.seconds, next.seconds) };
}
