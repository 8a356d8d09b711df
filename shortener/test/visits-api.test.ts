import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { loadIpCountries } from "../src/visits/load-ip-countries.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import type { VisitFacts } from "../src/visits/visit-facts.ts";
import { namedValuesPerDay } from "../src/visits/named-values.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const now = new Date("2026-11-22T10:30:00.000Z");

function visitsOf(count: number, facts: VisitFacts): LinkVisits {
  const visits = new LinkVisits();
  for (let i = 0; i < count; i++) visits.add(facts);
  return visits;
}

/** A top list's entry: a value's visits, split. */
const entry = (value: string, humans: number, bots = 0) => ({ value, visits: humans + bots, humans, bots });

const firefox: VisitFacts = { bot: false, referrer: "news.example", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" };
const googlebot: VisitFacts = { bot: true, referrer: "direct", country: "US", browser: "Googlebot", os: "other", device: "bot" };

describe.each(["sqlite", "postgres"] as const)("visits API on %s", (engine) => {
  let api: TestShortener;
  beforeAll(async () => {
    // Analytics on (a visitor's country unknown): the visits below are recorded through the store.
    api = await startTestShortener({ engine, clock: () => now, visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  /** A link with 3 humans at 08:xx and 1 bot at 10:xx today, and 2 humans two days ago. */
  async function linkWithVisits() {
    const link = await api.createLink("https://example.com/visited");
    const record = (count: number, facts: VisitFacts, iso: string) =>
      api.db.links.recordVisits(new Map([[link.short_url, visitsOf(count, facts)]]), new Date(iso));
    await record(2, firefox, "2026-11-20T15:00:00Z");
    await record(3, firefox, "2026-11-22T08:05:00Z");
    await record(1, googlebot, "2026-11-22T10:01:00Z");
    return link;
  }

  /** A link's report with its manage token, and the admin's report: what a range query is asked of. */
  const bothReports = (link: { short_url: string; manage_token: string }) =>
    [
      [`/shorten/${link.short_url}/visits/`, link.manage_token],
      ["/admin/visits/", api.adminToken()],
    ] as const;
  const get = (path: string, token?: string) => api.request("GET", path, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  test("by day (the default, 30 days back): totals, every day of the series, and the top lists", async () => {
    const link = await linkWithVisits();
    const response = await get(`/shorten/${link.short_url}/visits/`, link.manage_token);
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({
      short_url: link.short_url,
      from: "2026-10-23T10:30:00.000Z",
      to: "2026-11-22T10:30:00.000Z",
      granularity: "day",
      analytics: "on",
      totals: { visits: 6, humans: 5, bots: 1 },
      visitors: "all",
      filter: null,
      top: {
        referrers: [entry("news.example", 5), entry("direct", 0, 1)],
        countries: [entry("DE", 5), entry("US", 0, 1)],
        browsers: [entry("Firefox", 5), entry("Googlebot", 0, 1)],
        os: [entry("Linux", 5), entry("other", 0, 1)],
        devices: [entry("desktop", 5), entry("bot", 0, 1)],
        bots: [entry("Googlebot", 0, 1)],
      },
    });
    expect(body.series).toHaveLength(31);
    expect(body.series[0]).toEqual({ t: "2026-10-23T00:00:00.000Z", visits: 0, humans: 0, bots: 0 });
    expect(body.series.slice(-3)).toEqual([
      { t: "2026-11-20T00:00:00.000Z", visits: 2, humans: 2, bots: 0 },
      { t: "2026-11-21T00:00:00.000Z", visits: 0, humans: 0, bots: 0 },
      { t: "2026-11-22T00:00:00.000Z", visits: 4, humans: 3, bots: 1 },
    ]);
    // The totals agree with the count.
    expect((await readJson(await get(`/shorten/${link.short_url}/stats/`))).access_count).toBe(6);
  });

  test("by hour over a range, with an admin token", async () => {
    const link = await linkWithVisits();
    const response = await get(`/shorten/${link.short_url}/visits/?from=2026-11-22T07:00:00Z&to=2026-11-22T10:59:59Z&granularity=hour`, api.adminToken());
    const body = await readJson(response);
    expect(body.series).toEqual([
      { t: "2026-11-22T07:00:00.000Z", visits: 0, humans: 0, bots: 0 },
      { t: "2026-11-22T08:00:00.000Z", visits: 3, humans: 3, bots: 0 },
      { t: "2026-11-22T09:00:00.000Z", visits: 0, humans: 0, bots: 0 },
      { t: "2026-11-22T10:00:00.000Z", visits: 1, humans: 0, bots: 1 },
    ]);
    expect(body.totals).toEqual({ visits: 4, humans: 3, bots: 1 });
  });

  test("the admin report covers every link and names the top links", async () => {
    const [a, b] = [await linkWithVisits(), await linkWithVisits()];
    await api.db.links.recordVisits(new Map([[b.short_url, visitsOf(400, firefox)]]), new Date("2026-11-22T09:00:00Z"));
    const body = await readJson(await get("/admin/visits/?from=2026-11-22&to=2026-11-22T23:00:00Z", api.adminToken()));
    // Other tests' links have visits today too: b leads, a is among the rest.
    expect(body.top.links[0]).toEqual({ value: b.short_url, visits: 404 });
    expect(body.top.links).toContainEqual({ value: a.short_url, visits: 4 });
    expect(body.top.links.reduce((sum: number, entry: { visits: number }) => sum + entry.visits, 0)).toBe(body.totals.visits);
  });

  test("a top list names the 10 values with the most visits, then sums the rest as other", async () => {
    const link = await api.createLink();
    const visits = new LinkVisits();
    // referrer r1 has 1 visit, r2 2, …, r12 12; and one visit from a host really called "other".
    for (let i = 1; i <= 12; i++) for (let n = 0; n < i; n++) visits.add({ ...firefox, referrer: `r${i}.example` });
    visits.add({ ...firefox, referrer: "other" });
    await api.db.links.recordVisits(new Map([[link.short_url, visits]]), new Date("2026-11-22T09:00:00Z"));
    const body = await readJson(await get(`/shorten/${link.short_url}/visits/`, link.manage_token));
    expect(body.top.referrers).toEqual([...[12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => entry(`r${i}.example`, i)), entry("other", 2 + 1 + 1)]);
    expect(body.totals.visits).toBe(79);
  });

  test("a flooded link's top list still names its 10 most visited referrers, and other, however large, comes last", async () => {
    const link = await api.createLink();
    const visits = new LinkVisits();
    // big-0 … big-9 with 20 … 11 visits, then one visit each from more hosts than a day names.
    for (let i = 0; i < 10; i++) for (let n = 0; n < 20 - i; n++) visits.add({ ...firefox, referrer: `big-${i}.example` });
    for (let i = 0; i < namedValuesPerDay + 40; i++) visits.add({ ...firefox, referrer: `tail-${String(i).padStart(3, "0")}.example` });
    await api.db.links.recordVisits(new Map([[link.short_url, visits]]), new Date("2026-11-22T09:00:00Z"));
    const body = await readJson(await get(`/shorten/${link.short_url}/visits/`, link.manage_token));
    expect({ totals: body.totals, referrers: body.top.referrers }).toEqual({
      totals: { visits: 155 + namedValuesPerDay + 40, humans: 155 + namedValuesPerDay + 40, bots: 0 },
      referrers: [
        ...Array.from({ length: 10 }, (_, i) => entry(`big-${i}.example`, 20 - i)),
        // The named tail hosts, and the 50 the day had no name left for.
        entry("other", namedValuesPerDay - 10 + 50),
      ],
    });
  });

  test("visitors=humans ranks the lists by humans and leaves out what only bots visited; the bots keep their own list", async () => {
    const link = await api.createLink();
    const visits = new LinkVisits();
    for (let n = 0; n < 3; n++) visits.add({ ...firefox, referrer: "people.example" });
    for (let n = 0; n < 5; n++) visits.add({ ...googlebot, referrer: "people.example" });
    for (let n = 0; n < 4; n++) visits.add({ ...googlebot, referrer: "crawl.example" });
    visits.add({ ...googlebot, browser: "curl", referrer: "direct" });
    for (let n = 0; n < 2; n++) visits.add({ ...firefox, referrer: "small.example" });
    await api.db.links.recordVisits(new Map([[link.short_url, visits]]), new Date("2026-11-22T09:00:00Z"));
    const path = `/shorten/${link.short_url}/visits/`;

    const everyone = await readJson(await get(path, link.manage_token));
    expect(everyone.top.referrers).toEqual([entry("people.example", 3, 5), entry("crawl.example", 0, 4), entry("small.example", 2), entry("direct", 0, 1)]);
    const humans = await readJson(await get(`${path}?visitors=humans`, link.manage_token));
    expect(humans).toMatchObject({ visitors: "humans", totals: everyone.totals, series: everyone.series });
    expect(humans.top.referrers).toEqual([entry("people.example", 3, 5), entry("small.example", 2)]);
    expect(humans.top.devices).toEqual([entry("desktop", 5)]);
    expect(humans.top.bots).toEqual([entry("Googlebot", 0, 9), entry("curl", 0, 1)]);
    const bots = await readJson(await get(`${path}?visitors=bots`, link.manage_token));
    expect(bots.top.referrers).toEqual([entry("people.example", 3, 5), entry("crawl.example", 0, 4), entry("direct", 0, 1)]);
    expect(bots.top.countries).toEqual([entry("US", 0, 10)]);
  });

  test("breakdown and value: the series and totals of one value, by day, on a link's report and the admin's; the lists stay whole", async () => {
    const link = await linkWithVisits();
    const path = `/shorten/${link.short_url}/visits/?from=2026-11-19&to=2026-11-22T10:30:00Z`;
    const germany = await readJson(await get(`${path}&breakdown=countries&value=DE`, link.manage_token));
    expect(germany).toMatchObject({ granularity: "day", filter: { breakdown: "countries", value: "DE" }, totals: { visits: 5, humans: 5, bots: 0 } });
    expect(germany.series).toEqual([
      { t: "2026-11-19T00:00:00.000Z", visits: 0, humans: 0, bots: 0 },
      { t: "2026-11-20T00:00:00.000Z", visits: 2, humans: 2, bots: 0 },
      { t: "2026-11-21T00:00:00.000Z", visits: 0, humans: 0, bots: 0 },
      { t: "2026-11-22T00:00:00.000Z", visits: 3, humans: 3, bots: 0 },
    ]);
    expect(germany.top.countries).toEqual([entry("DE", 5), entry("US", 0, 1)]);
    const crawled = await readJson(await get(`${path}&breakdown=browsers&value=Googlebot`, link.manage_token));
    expect(crawled.series.map((point: { bots: number }) => point.bots)).toEqual([0, 0, 0, 1]);
    expect(crawled.totals).toEqual({ visits: 1, humans: 0, bots: 1 });
    const nobody = await readJson(await get(`${path}&breakdown=referrers&value=nowhere.example`, link.manage_token));
    expect(nobody.totals).toEqual({ visits: 0, humans: 0, bots: 0 });
    // The admin's report of the same days counts this link's visits with every other link's.
    const admin = await readJson(await get(`/admin/visits/?from=2026-11-22&to=2026-11-22T10:30:00Z&breakdown=devices&value=bot`, api.adminToken()));
    const allBots = await readJson(await get(`/admin/visits/?from=2026-11-22&to=2026-11-22T10:30:00Z`, api.adminToken()));
    expect(admin.totals).toEqual({ visits: allBots.totals.bots, humans: 0, bots: allBots.totals.bots });
    expect(admin.totals.bots).toBeGreaterThan(0);
  });

  test.each([
    ["visitors=robots", "visitors must be all, humans or bots"],
    ["visitors=", "visitors must be all, humans or bots"],
    ["breakdown=countries", "breakdown and value go together"],
    ["value=DE", "breakdown and value go together"],
    ["breakdown=planets&value=mars", "breakdown must be one of referrers, countries, browsers, os, devices"],
    ["breakdown=__proto__&value=x", "breakdown must be one of"],
    ["breakdown=countries&value=", "value must be 1 to 253 characters"],
    [`breakdown=referrers&value=${"a".repeat(254)}`, "value must be 1 to 253 characters"],
    ["breakdown=referrers&value=other", "other is the rest of a list"],
    ["breakdown=countries&value=DE&granularity=hour", "the series of one value is by day"],
  ])("answers 400 invalid_request for the filters %p, on a link's report, the admin's and the CSV", async (query, message) => {
    const link = await api.createLink();
    for (const [path, token] of [...bothReports(link), [`/shorten/${link.short_url}/visits/export`, link.manage_token] as const]) {
      const response = await get(`${path}?${query}`, token);
      expect({ path, status: response.status, error: (await readJson(response)).error }).toEqual({
        path,
        status: 400,
        error: { code: "invalid_request", message: expect.stringContaining(message) },
      });
    }
  });

  test("credentials: 401 without, 403 with another link's token, 404 for an unknown code, 403 for a manage token on the admin report", async () => {
    const [mine, other] = [await api.createLink(), await api.createLink()];
    expect((await get(`/shorten/${mine.short_url}/visits/`)).status).toBe(401);
    expect((await get(`/shorten/${mine.short_url}/visits/`, other.manage_token)).status).toBe(403);
    expect((await get("/shorten/NoSuchCode1/visits/", api.adminToken())).status).toBe(404);
    expect((await get("/admin/visits/", mine.manage_token)).status).toBe(403);
    expect((await get("/admin/visits/")).status).toBe(401);
  });

  test.each([
    ["granularity=week", "granularity must be hour or day"],
    ["from=yesterday", "from must be an ISO 8601"],
    ["to=2026-11-22T10:00:00", "to must be an ISO 8601"],
    ["from=2026-11-22&to=2026-11-01", "from must not be after to"],
    ["from=2025-01-01&to=2026-11-22&granularity=hour", "at most 8784 hours"],
    ["from=2000-01-01&to=2026-11-22", "at most 3660 days"],
    ["from=0000-01-01&to=0000-02-01", "to must be between 1970-01-01 and 9998-12-31"],
    ["from=0000-01-01&to=1970-01-02", "from must be between 1970-01-01 and 9998-12-31"],
    ["from=1969-12-31T23:59:59Z&to=1970-01-02", "from must be between 1970-01-01 and 9998-12-31"],
    ["from=9999-12-01&to=9999-12-31", "to must be between 1970-01-01 and 9998-12-31"],
    ["from=9998-12-01&to=9999-01-01", "to must be between 1970-01-01 and 9998-12-31"],
    ["from=2026-02-30", "from must be an ISO 8601"],
    ["from=2025-02-29", "from must be an ISO 8601"],
    ["to=2026-04-31T10:00:00Z", "to must be an ISO 8601"],
    ["to=2026-11-22T24:00:00Z", "to must be an ISO 8601"],
    ["to=2026-11-22T10:60:00Z", "to must be an ISO 8601"],
    ["to=2026-11-22T10:00:60Z", "to must be an ISO 8601"],
    ["to=2026-11-22T10:00:00+24:00", "to must be an ISO 8601"],
    ["from=2026-13-01", "from must be an ISO 8601"],
    ["from=2026-00-10", "from must be an ISO 8601"],
  ])("answers 400 invalid_request for %p, on a link's report and the admin's", async (query, message) => {
    const link = await api.createLink();
    for (const [path, token] of bothReports(link)) {
      const response = await get(`${path}?${query}`, token);
      expect({ path, status: response.status, error: (await readJson(response)).error }).toEqual({
        path,
        status: 400,
        error: { code: "invalid_request", message: expect.stringContaining(message) },
      });
    }
  });

  test.each([
    ["from=1970-01-01&to=1970-01-31", "1970-01-01T00:00:00.000Z", "1970-01-31T00:00:00.000Z"],
    ["from=9998-12-01&to=9998-12-31T23:59:59.999Z", "9998-12-01T00:00:00.000Z", "9998-12-31T23:59:59.999Z"],
    ["from=2024-02-29&to=2024-03-01T23:30:00-00:30", "2024-02-29T00:00:00.000Z", "2024-03-02T00:00:00.000Z"],
    // The default from (30 days back) stops at the first instant.
    ["to=1970-01-05", "1970-01-01T00:00:00.000Z", "1970-01-05T00:00:00.000Z"],
  ])("answers the edges of what a range may name, %p, with an empty report", async (query, from, to) => {
    const link = await api.createLink();
    for (const [path, token] of bothReports(link)) {
      const response = await get(`${path}?${query}`, token);
      expect(response.status).toBe(200);
      expect(await readJson(response)).toMatchObject({ from, to, totals: { visits: 0, humans: 0, bots: 0 } });
    }
  });
});

describe("redirects feed the analytics (real classifier, real IP data)", () => {
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
  const windowsChrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ engine: "postgres", visitClassifier: new VisitClassifier({ countries: loadIpCountries().countries }) });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const follow = (code: string, headers: Record<string, string>) => api.request("GET", `/${code}/`, { headers });

  test("each GET counts with its facts; HEAD counts nothing; no address and no User-Agent is stored", async () => {
    const link = await api.createLink("https://example.com/analysed");
    // The test plays the gateway on this machine (a trusted proxy): X-Forwarded-For is the visitor.
    const visits: Array<Record<string, string>> = [
      { "x-forwarded-for": "131.111.8.46", "user-agent": iphone, referer: "https://news.ycombinator.com/item?id=1" },
      { "x-forwarded-for": "141.20.5.188", "user-agent": windowsChrome, referer: "https://news.ycombinator.com/" },
      { "x-forwarded-for": "2001:638:700::1", "user-agent": windowsChrome },
      { "x-forwarded-for": "128.32.1.1", "user-agent": googlebot },
    ];
    for (const headers of visits) expect((await follow(link.short_url, headers)).status).toBe(302);
    expect((await api.request("HEAD", `/${link.short_url}/`, { headers: visits[0] })).status).toBe(302);

    const body = await readJson(await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } }));
    expect(body.totals).toEqual({ visits: 4, humans: 3, bots: 1 });
    expect(body.top).toEqual({
      referrers: [entry("direct", 1, 1), entry("news.ycombinator.com", 2)],
      countries: [entry("DE", 2), entry("GB", 1), entry("US", 0, 1)],
      browsers: [entry("Chrome", 2), entry("Googlebot", 0, 1), entry("Safari", 1)],
      os: [entry("Windows", 2), entry("iOS", 1), entry("other", 0, 1)],
      devices: [entry("desktop", 2), entry("bot", 0, 1), entry("mobile", 1)],
      bots: [entry("Googlebot", 0, 1)],
    });
    expect((await api.db.links.find(link.short_url))!.accessCount).toBe(4);

    // Everything stored for the link: no address, no User-Agent, nothing of either.
    const stored = JSON.stringify([
      await api.db.visits.buckets({ code: link.short_url }, new Date(0), new Date("2100-01-01")),
      await api.db.visits.facts({ code: link.short_url }, "2000-01-01", "2100-01-01"),
    ]);
    for (const secret of ["131.111", "141.20", "2001:638", "128.32", "Mozilla", "iPhone OS", "Googlebot/2.1", "item?id"]) expect(stored).not.toContain(secret);
  });

  test("an untrusted peer's X-Forwarded-For is not believed: the country is its own address's", async () => {
    const link = await api.createLink("https://example.com/forged-country");
    await follow(link.short_url, { "x-test-peer": "131.111.8.46", "x-forwarded-for": "133.11.0.1", "user-agent": windowsChrome });
    const body = await readJson(await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } }));
    expect(body.top.countries).toEqual([entry("GB", 1)]);
  });
});
