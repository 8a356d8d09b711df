import { describe, expect, test } from "bun:test";
import { barSizesFor, barStart, dayMs, fittingBarSize, nextBarStart, presetStart, seriesBy, type VisitBucket } from "../../src/client/lib/bar-sizes.ts";
import { chosenRange, chosenSpan } from "../../src/client/lib/visits-range.ts";

const at = (iso: string) => Date.parse(iso);
const day = (iso: string, visits: number, humans = visits): VisitBucket => ({ t: `${iso}T00:00:00.000Z`, visits, humans, bots: visits - humans });

describe("the visits chart's bars, fitted to the range", () => {
  test("hours for a day or two, days up to two months, weeks up to a year, months beyond", () => {
    expect([1, 2, 3, 7, 30, 35, 62, 63, 90, 366, 367, 3650].map((days) => fittingBarSize(days * dayMs))).toEqual([
      "hour",
      "hour",
      "day",
      "day",
      "day",
      "day",
      "day",
      "week",
      "week",
      "week",
      "month",
      "month",
    ]);
  });

  test("only the sizes that make a readable chart are offered: never hours over weeks, nor days over years", () => {
    expect(barSizesFor(dayMs)).toEqual(["hour", "day"]);
    expect(barSizesFor(7 * dayMs)).toEqual(["hour", "day"]);
    expect(barSizesFor(35 * dayMs)).toEqual(["day", "week"]);
    expect(barSizesFor(90 * dayMs)).toEqual(["day", "week", "month"]);
    expect(barSizesFor(730 * dayMs)).toEqual(["week", "month"]);
    expect(barSizesFor(3650 * dayMs)).toEqual(["month"]);
    // The size the chart picks is always one it offers.
    for (const days of [0.5, 1, 2, 3, 30, 62, 63, 90, 366, 367, 3650]) expect(barSizesFor(days * dayMs)).toContain(fittingBarSize(days * dayMs));
  });

  test("a bar starts on the hour, at midnight UTC, on Monday, or on the first of the month", () => {
    const wednesday = at("2026-03-04T15:42:10Z");
    expect(new Date(barStart(wednesday, "hour")).toISOString()).toBe("2026-03-04T15:00:00.000Z");
    expect(new Date(barStart(wednesday, "day")).toISOString()).toBe("2026-03-04T00:00:00.000Z");
    expect(new Date(barStart(wednesday, "week")).toISOString()).toBe("2026-03-02T00:00:00.000Z");
    expect(new Date(barStart(at("2026-03-08T23:59:59Z"), "week")).toISOString()).toBe("2026-03-02T00:00:00.000Z");
    expect(new Date(barStart(wednesday, "month")).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(new Date(nextBarStart(at("2026-12-01T00:00:00Z"), "month")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  test("a preset range starts on a bar, as many bars back as fit with the current one", () => {
    const now = at("2026-03-04T15:42:10Z");
    expect(new Date(presetStart(now, 7 * dayMs, "day")).toISOString()).toBe("2026-02-26T00:00:00.000Z");
    expect(new Date(presetStart(now, dayMs, "hour")).toISOString()).toBe("2026-03-03T16:00:00.000Z");
    // 24 hours by day: yesterday and today.
    expect(new Date(presetStart(now, dayMs, "day")).toISOString()).toBe("2026-03-03T00:00:00.000Z");
    // 90 days by week: 13 whole weeks and this one.
    const weeks = presetStart(now, 90 * dayMs, "week");
    expect(new Date(weeks).getUTCDay()).toBe(1);
    expect((barStart(now, "week") - weeks) / (7 * dayMs)).toBe(12);
  });

  test("days are added up into their weeks and months, humans and bots apart; hours and days stay as they are", () => {
    const days = [day("2026-02-27", 1), day("2026-02-28", 0), day("2026-03-01", 2, 1), day("2026-03-02", 4, 3), day("2026-03-08", 1), day("2026-03-09", 5)];
    expect(seriesBy(days, "week")).toEqual([
      { t: "2026-02-23T00:00:00.000Z", visits: 3, humans: 2, bots: 1 },
      { t: "2026-03-02T00:00:00.000Z", visits: 5, humans: 4, bots: 1 },
      { t: "2026-03-09T00:00:00.000Z", visits: 5, humans: 5, bots: 0 },
    ]);
    expect(seriesBy(days, "month")).toEqual([
      { t: "2026-02-01T00:00:00.000Z", visits: 1, humans: 1, bots: 0 },
      { t: "2026-03-01T00:00:00.000Z", visits: 12, humans: 10, bots: 2 },
    ]);
    expect(seriesBy(days, "day")).toEqual(days);
  });

  test("dates chosen are kept whole, the last day up to now; a backwards or too long range is said, not asked", () => {
    const now = at("2026-03-04T15:42:10Z");
    const choice = (first: string, last: string) => ({ preset: "custom", firstDay: new Date(`${first}T00:00:00Z`), lastDay: new Date(`${last}T00:00:00Z`) });
    expect(chosenRange(choice("2026-01-29", "2026-03-04"), "day", now)).toEqual({ from: new Date("2026-01-29T00:00:00Z"), to: new Date(now), live: true });
    expect(chosenRange(choice("2026-01-01", "2026-01-31"), "week", now)).toEqual({
      from: new Date("2026-01-01T00:00:00Z"),
      to: new Date("2026-02-01T00:00:00Z"),
      live: false,
    });
    expect(chosenSpan(choice("2026-01-29", "2026-03-04"), now)).toBe(now - at("2026-01-29T00:00:00Z"));
    expect(chosenRange(choice("2026-03-05", "2026-03-04"), "day", now)).toBe("The first day must come before the last, and not after today.");
    expect(chosenRange(choice("2010-01-01", "2026-03-04"), "month", now)).toBe("A range can be ten years at most.");
    expect(chosenRange({ preset: "custom", firstDay: null, lastDay: null }, "day", now)).toBe("Choose both dates: the first and the last day to show.");
    expect(chosenSpan({ preset: "custom", firstDay: null, lastDay: null }, now)).toBeNull();
    expect(chosenSpan({ preset: "90d", firstDay: null, lastDay: null }, now)).toBe(90 * dayMs);
  });
});
