import { describe, expect, test } from "bun:test";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { namedValuesPerDay, otherValue } from "../src/visits/named-values.ts";
import type { VisitFacts } from "../src/visits/visit-facts.ts";
import { boundedFactRows, loggedFacts, parseLoggedFacts, sumLogged, type LoggedVisits } from "../src/visits/visit-log.ts";

const human: VisitFacts = { bot: false, referrer: "news.example", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" };
const at = (iso: string) => Date.parse(iso);

/** A log row of `referrers` visits (one each), as a batch writes it. */
function row(code: string, when: string, referrers: string[]): LoggedVisits {
  const visits = new LinkVisits();
  for (const referrer of referrers) visits.add({ ...human, referrer });
  return { code, at: at(when), humans: visits.humans, bots: visits.bots, facts: parseLoggedFacts(loggedFacts(visits)) };
}

const nothingNamed = () => ({ count: 0, has: () => false });

describe("the visit log's summing", () => {
  test("rows are summed per link and hour, and per link and UTC day", () => {
    const { buckets, days } = sumLogged([
      row("a", "2026-11-20T10:05:00Z", ["x.example"]),
      row("a", "2026-11-20T10:55:00Z", ["x.example", "y.example"]),
      row("a", "2026-11-20T11:00:00Z", ["y.example"]),
      row("b", "2026-11-20T10:30:00Z", ["x.example"]),
    ]);
    expect(buckets).toEqual([
      { code: "a", startsAt: at("2026-11-20T10:00:00Z"), humans: 3, bots: 0 },
      { code: "b", startsAt: at("2026-11-20T10:00:00Z"), humans: 1, bots: 0 },
      { code: "a", startsAt: at("2026-11-20T11:00:00Z"), humans: 1, bots: 0 },
    ]);
    const referrers = boundedFactRows(days, nothingNamed).filter(([, , dimension]) => dimension === "referrers");
    expect(referrers).toEqual([
      ["a", "2026-11-20", "referrers", "x.example", 2, 0],
      ["a", "2026-11-20", "referrers", "y.example", 2, 0],
      ["b", "2026-11-20", "referrers", "x.example", 1, 0],
    ]);
  });

  test("the bound names values batch by batch in the order the batches left, whatever order the rows are read in", () => {
    const early = Array.from({ length: namedValuesPerDay - 1 }, (_, i) => `early-${i}.example`);
    const rows = [
      // Read first, left last: its new host finds the day's names taken.
      row("a", "2026-11-20T12:00:00Z", ["late.example", "late.example"]),
      row("a", "2026-11-20T09:00:00Z", early),
      row("a", "2026-11-20T10:00:00Z", ["second.example"]),
    ];
    const referrers = Object.fromEntries(
      boundedFactRows(sumLogged(rows).days, nothingNamed)
        .filter(([, , dimension]) => dimension === "referrers")
        .map(([, , , value, visits]) => [value, visits]),
    );
    expect(referrers["second.example"]).toBe(1);
    expect(referrers["late.example"]).toBeUndefined();
    expect(referrers[otherValue]).toBe(2);
    expect(Object.keys(referrers).filter((value) => value !== otherValue)).toHaveLength(namedValuesPerDay);
  });

  test("each value keeps its bots apart, and a value the bound turns into other takes its bots along", () => {
    const names = Array.from({ length: namedValuesPerDay }, (_, i) => `name-${i}.example`);
    const crawled = new LinkVisits();
    crawled.add({ ...human, referrer: "name-0.example" });
    crawled.add({ ...human, bot: true, device: "bot", browser: "Googlebot", referrer: "name-0.example" }, 3);
    crawled.add({ ...human, bot: true, device: "bot", browser: "Googlebot", referrer: "past-the-bound.example" }, 2);
    const rows = [
      row("a", "2026-11-20T09:00:00Z", names),
      { code: "a", at: at("2026-11-20T10:00:00Z"), humans: 1, bots: 5, facts: parseLoggedFacts(loggedFacts(crawled)) },
    ];
    const facts = boundedFactRows(sumLogged(rows).days, nothingNamed);
    const of = (dimension: string, value: string) => facts.find(([, , d, v]) => d === dimension && v === value)?.slice(4);
    expect(of("referrers", "name-0.example")).toEqual([5, 3]);
    expect(of("referrers", otherValue)).toEqual([2, 2]);
    expect(of("browsers", "Googlebot")).toEqual([5, 5]);
    expect(of("browsers", "Firefox")).toEqual([namedValuesPerDay + 1, 0]);
    expect(of("devices", "bot")).toEqual([5, 5]);
  });

  test("a row logged without bots (by the version before) counts as humans", () => {
    expect(parseLoggedFacts(JSON.stringify([["referrers", "old.example", 2]]))).toEqual([["referrers", "old.example", 2, 0]]);
  });

  test("facts a summing step cannot read are left out, not thrown: the row still counts in its bucket", () => {
    expect(parseLoggedFacts("not json")).toEqual([]);
    expect(parseLoggedFacts('{"referrers":1}')).toEqual([]);
    expect(
      parseLoggedFacts(
        JSON.stringify([
          ["referrers", "ok.example", 1],
          ["planets", "mars", 1],
          ["countries", 7, 1],
          ["browsers", "Firefox", -1],
          ["os", "Linux", 1.5],
          ["devices", "desktop"],
          ["devices", "bot", 1, 2],
          ["devices", "bot", 2, -1],
          ["devices", "bot", 2, 1, 0],
        ]),
      ),
    ).toEqual([["referrers", "ok.example", 1, 0]]);
    const { buckets, days } = sumLogged([{ code: "a", at: at("2026-11-20T10:00:00Z"), humans: 1, bots: 0, facts: parseLoggedFacts("[[") }]);
    expect(buckets).toEqual([{ code: "a", startsAt: at("2026-11-20T10:00:00Z"), humans: 1, bots: 0 }]);
    expect(boundedFactRows(days, nothingNamed)).toEqual([]);
  });
});
