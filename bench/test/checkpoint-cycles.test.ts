import { describe, expect, test } from "bun:test";
import { wholeCycles, type RunMark } from "../support/checkpoint-cycles.ts";

/** A run of 10 s windows from second 0; each window's WAL and requests as given. */
function run(windows: Array<{ wal: number; requests: number }>, startLsn = 1_000): RunMark[] {
  const marks: RunMark[] = [{ lsn: startLsn, at: 0, requests: 0 }];
  for (const window of windows) {
    const last = marks.at(-1)!;
    marks.push({ lsn: last.lsn + window.wal, at: last.at + 10, requests: last.requests + window.requests });
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
    const redo = [
      { lsn: 1_000, at: 0 },
      { lsn: 15_000, at: 30 },
      { lsn: 29_000, at: 60 },
    ];
    expect(wholeCycles(marks, redo)).toEqual({ cycles: 2, walBytes: 28_000, requests: 6, seconds: 60 });
  });

  test("a redo point inside a window takes the window's requests by its time, not by the WAL, which jumps when a checkpoint begins", () => {
    // 40 requests a window at a steady rate; the second checkpoint begins 2.5 s into the third window, whose WAL then
    // jumps: by the WAL written the redo point would sit at a tenth of the window, by the clock it sits at a quarter.
    const marks = run([
      { wal: 4_000, requests: 40 },
      { wal: 4_000, requests: 40 },
      { wal: 20_000, requests: 40 },
    ]);
    const redo = [
      { lsn: 1_000, at: 0 },
      { lsn: 11_000, at: 22.5 },
    ];
    expect(wholeCycles(marks, redo)).toEqual({ cycles: 1, walBytes: 10_000, requests: 90, seconds: 22.5 });
  });

  test("redo points before the run, after it, or told twice do not count; fewer than two within it make no cycle", () => {
    const marks = run([
      { wal: 1_000, requests: 10 },
      { wal: 1_000, requests: 10 },
    ]);
    const point = (lsn: number, at: number) => ({ lsn, at });
    expect(wholeCycles(marks, [point(500, -5), point(1_000, 0), point(1_000, 0), point(5_000, 40)])).toBeUndefined();
    expect(wholeCycles(marks, [point(3_000, 20), point(500, -5), point(1_000, 0), point(2_000, 10), point(2_000, 10)])).toEqual({
      cycles: 2,
      walBytes: 2_000,
      requests: 20,
      seconds: 20,
    });
    expect(wholeCycles([], [point(1, 0), point(2, 1)])).toBeUndefined();
  });

  test("a span without requests or time (redo points in one second, clocks that disagree) makes no cycle, never a rate of NaN", () => {
    const marks = run([{ wal: 1_000, requests: 10 }]);
    expect(
      wholeCycles(marks, [
        { lsn: 1_000, at: 3 },
        { lsn: 1_500, at: 3 },
      ]),
    ).toBeUndefined();
    expect(
      wholeCycles(marks, [
        { lsn: 1_000, at: 8 },
        { lsn: 1_500, at: 2 },
      ]),
    ).toBeUndefined();
  });

  test("marks at one moment (a window that answered nothing) split nothing", () => {
    const marks: RunMark[] = [
      { lsn: 1_000, at: 0, requests: 0 },
      { lsn: 1_000, at: 0, requests: 0 },
      { lsn: 3_000, at: 10, requests: 20 },
    ];
    expect(
      wholeCycles(marks, [
        { lsn: 1_000, at: 0 },
        { lsn: 3_000, at: 10 },
      ]),
    ).toEqual({ cycles: 1, walBytes: 2_000, requests: 20, seconds: 10 });
  });
});
