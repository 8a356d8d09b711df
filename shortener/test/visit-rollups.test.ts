import { describe, expect, test } from "bun:test";
import { rollupEdge, splitAtRollups, splitDaysAtRollups, topLinksSources, type Span } from "../src/visits/visit-rollups.ts";

const ms = (iso: string) => Date.parse(iso);
const spans = (list: Span[]) => list.filter((span) => span.from < span.to).map((span) => [new Date(span.from).toISOString(), new Date(span.to).toISOString()]);

/** Each span once, none overlapping, together exactly [from, to). */
function expectExactCover(parts: Span[], whole: Span) {
  const sorted = parts.filter((span) => span.from < span.to).sort((a, b) => a.from - b.from);
  let at = whole.from;
  for (const span of sorted) {
    expect(span.from).toBe(at);
    at = span.to;
  }
  expect(at).toBe(whole.to);
}

describe("where every-link reads come from", () => {
  test("a day counts as finished an hour after its end", () => {
    expect(rollupEdge(new Date("2026-11-25T00:59:59Z")).toISOString()).toBe("2026-11-24T00:00:00.000Z");
    expect(rollupEdge(new Date("2026-11-25T01:00:00Z")).toISOString()).toBe("2026-11-25T00:00:00.000Z");
  });

  test("a range splits at the edge into summed and live parts, either of which may be empty", () => {
    const through = ms("2026-11-25T00:00:00Z");
    const span = { from: ms("2026-11-01T07:00:00Z"), to: ms("2026-11-25T10:00:00Z") };
    const { rolledUp, live } = splitAtRollups(span, through);
    expect(spans([rolledUp, live])).toEqual([
      ["2026-11-01T07:00:00.000Z", "2026-11-25T00:00:00.000Z"],
      ["2026-11-25T00:00:00.000Z", "2026-11-25T10:00:00.000Z"],
    ]);
    expect(splitAtRollups(span, ms("2020-01-01T00:00:00Z")).rolledUp.to).toBe(span.from);
    expect(splitAtRollups(span, ms("2030-01-01T00:00:00Z")).live.from).toBe(span.to);
    expect(splitDaysAtRollups("2026-11-20", "2026-11-25", through)).toEqual({
      rolledUp: { fromDay: "2026-11-20", toDay: "2026-11-25" },
      live: { fromDay: "2026-11-25", toDay: "2026-11-26" },
    });
  });

  test("top links: whole months, then whole days, then hours, each span once", () => {
    const through = ms("2026-11-25T00:00:00Z");
    const year = { from: ms("2025-11-25T13:00:00Z"), to: ms("2026-11-25T13:00:00Z") };
    const sources = topLinksSources(year, through);
    expect(spans([sources.months])).toEqual([["2025-12-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z"]]);
    expect(spans(sources.days)).toEqual([
      ["2025-11-26T00:00:00.000Z", "2025-12-01T00:00:00.000Z"],
      ["2026-11-01T00:00:00.000Z", "2026-11-25T00:00:00.000Z"],
    ]);
    expect(spans(sources.buckets)).toEqual([
      ["2025-11-25T13:00:00.000Z", "2025-11-26T00:00:00.000Z"],
      ["2026-11-25T00:00:00.000Z", "2026-11-25T13:00:00.000Z"],
    ]);
    for (const [from, to, edge] of [
      ["2025-11-25T13:00:00Z", "2026-11-25T13:00:00Z", "2026-11-25T00:00:00Z"],
      ["2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", "2026-11-25T00:00:00Z"],
      ["2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", "2026-02-14T00:00:00Z"],
      ["2026-02-03T05:00:00Z", "2026-02-03T09:00:00Z", "2026-11-25T00:00:00Z"],
      ["2026-02-03T05:00:00Z", "2026-02-05T09:00:00Z", "2026-11-25T00:00:00Z"],
      ["2026-01-31T00:00:00Z", "2026-04-02T00:00:00Z", "2026-04-01T00:00:00Z"],
      ["2026-01-31T00:00:00Z", "2026-04-02T00:00:00Z", "1970-01-01T00:00:00Z"],
    ] as const) {
      const span = { from: ms(from), to: ms(to) };
      const { months, days, buckets } = topLinksSources(span, ms(edge));
      expectExactCover([months, ...days, ...buckets], span);
      // Nothing past the edge comes from the sums.
      for (const summed of [months, ...days]) if (summed.from < summed.to) expect(summed.to).toBeLessThanOrEqual(ms(edge));
    }
    // Within one day: hours only.
    expect(topLinksSources({ from: ms("2026-02-03T05:00:00Z"), to: ms("2026-02-03T09:00:00Z") }, through).days).toEqual([]);
  });
});
