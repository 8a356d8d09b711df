import { describe, expect, test } from "bun:test";
import { wholeCycles, type RunMark } from "../support/checkpoint-cycles.ts";

/** A run of 10 s windows; each window's WAL and requests as given. */
function run(windows: Array<{ wal: number; requests: number }>, startLsn = 1_000): RunMark[] {
  const marks: RunMark[] = [{ lsn: startLsn, requests: 0, seconds: 0 }];
  for (const window of windows) {
    const last = marks.at(-1)!;
    marks.push({ lsn: last.lsn + window.wal, requests: last.requests + window.requests, seconds: last.seconds + 10 });
  }
  return marks;
}

describe("WAL per request over whole checkpoint cycles (bench/support/checkpoint-cycles.ts)", () => {
  test("from the first redo point to the last: the cycles between them, not the windows around them", () => {
    // Two cycles of three windows each: page images make each cycle's first window dear.
    const cycle = [
      { wal: 9_000, requests: 1 },
      { wal: 3_000, requests: 1 },
      { wal: 2_000, requests: 1 },
    ];
    const marks = run([...cycle, ...cycle, { wal: 9_000, requests: 1 }]);
    expect(wholeCycles(marks, [1_000, 15_000, 29_000])).toEqual({ cycles: 2, walBytes: 28_000, requests: 6, seconds: 60 });
  });

  test("a redo point inside a window splits its requests and seconds by the WAL written on each side", () => {
    const marks = run([
      { wal: 4_000, requests: 40 },
      { wal: 4_000, requests: 40 },
    ]);
    // A quarter into the first window, then three quarters into the second.
    expect(wholeCycles(marks, [2_000, 7_000])).toEqual({ cycles: 1, walBytes: 5_000, requests: 50, seconds: 12.5 });
  });

  test("redo points before the run, after it, or told twice do not count; fewer than two within it make no cycle", () => {
    const marks = run([
      { wal: 1_000, requests: 10 },
      { wal: 1_000, requests: 10 },
    ]);
    expect(wholeCycles(marks, [500, 1_000, 1_000, 5_000])).toBeUndefined();
    expect(wholeCycles(marks, [3_000, 500, 1_000, 2_000, 2_000])).toEqual({ cycles: 2, walBytes: 2_000, requests: 20, seconds: 20 });
    expect(wholeCycles([], [1, 2])).toBeUndefined();
  });
});
