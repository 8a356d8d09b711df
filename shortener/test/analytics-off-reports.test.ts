import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readJson } from "@linkgeo/testing";
import { openDatabase, type Database } from "../src/storage/open-database.ts";
import { LinkVisits } from "../src/visits/link-visits.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startShortener, type ShortenerProcess } from "./support/shortener-process.ts";
import { startTestShortener } from "./support/test-shortener.ts";

const password = "correct horse";

// A real process, so what is tested is main.ts's reading of ANALYTICS too, not a test's wiring of it.
describe("the visits reports of a shortener started with ANALYTICS=off", () => {
  const folder = mkdtempSync(join(tmpdir(), "shortener-analytics-off-"));
  const path = join(folder, "shortener.db");
  let shortener: ShortenerProcess;
  let database: Database;
  let adminToken: string;
  let link: { short_url: string; manage_token: string };
  let redirectedAt: number;

  const get = (route: string, token: string) => fetch(`${shortener.url}${route}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    shortener = await startShortener({ DATABASE_URL: `sqlite:///${path}`, ANALYTICS: "off" });
    // The same SQLite file, beside the process (WAL).
    database = await openDatabase({ engine: "sqlite", path });
    await database.admins.insert({
      username: "alice",
      passwordHash: await Bun.password.hash(password, { algorithm: "bcrypt", cost: 4 }),
      createdAt: new Date(),
    });
    const login = await fetch(`${shortener.url}/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "alice", password }),
    });
    adminToken = (await readJson(login)).token;
    const created = await fetch(`${shortener.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: "https://example.com/counted" }),
    });
    link = await readJson(created);

    // 4 visits recorded while analytics were on (by a replica with them on, or before a restart)...
    const visits = new LinkVisits();
    for (let i = 0; i < 4; i++) visits.add({ bot: false, referrer: "news.example", country: "DE", browser: "Firefox", os: "Linux", device: "desktop" });
    await database.links.recordVisits(new Map([[link.short_url, visits]]), new Date(Date.now() - 3_600_000));
    // ...then 3 redirects with them off, and one to a code no link has.
    redirectedAt = Date.now();
    for (let i = 0; i < 3; i++) expect((await fetch(`${shortener.url}/${link.short_url}/`, { redirect: "manual" })).status).toBe(302);
    expect((await fetch(`${shortener.url}/NoSuchCode/`, { redirect: "manual" })).status).toBe(404);
  }, 20_000);
  afterAll(async () => {
    await database?.close();
    await shortener?.[Symbol.asyncDispose]();
    rmSync(folder, { recursive: true, force: true });
  });

  const query = { from: expect.any(String), to: expect.any(String), granularity: "day", visitors: "all", filter: null };
  const noNumbers = { analytics: "off", totals: null, series: null, top: null };

  test("a link's report says analytics are off and gives no numbers, while access_count and last_accessed_at count every visit", async () => {
    const stats = await readJson(await fetch(`${shortener.url}/shorten/${link.short_url}/stats/`));
    expect(stats.access_count).toBe(7);
    expect(Date.parse(stats.last_accessed_at)).toBeGreaterThanOrEqual(redirectedAt);

    for (const token of [link.manage_token, adminToken]) {
      const response = await get(`/shorten/${link.short_url}/visits/`, token);
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual({ short_url: link.short_url, ...query, ...noNumbers });
    }
  });

  test("so do the reports across every link: all visits, per day for the listing's sparklines, and visits that led nowhere", async () => {
    expect(await readJson(await get("/admin/visits/?granularity=hour", adminToken))).toEqual({ ...query, granularity: "hour", ...noNumbers });
    expect(await readJson(await get(`/admin/visits/daily/?codes=${link.short_url}&days=2`, adminToken))).toEqual({
      from: expect.any(String),
      to: expect.any(String),
      days: 2,
      analytics: "off",
      links: null,
    });
    const orphans = await readJson(await get("/admin/visits/orphans/", adminToken));
    expect(orphans).toEqual({ from: expect.any(String), to: expect.any(String), granularity: "day", ...noNumbers });
  });

  test("the CSV export says analytics,off after the query's rows, and has no row of numbers", async () => {
    const response = await get(`/shorten/${link.short_url}/visits/export?format=csv&visitors=humans`, link.manage_token);
    expect(response.status).toBe(200);
    const rows = (await response.text()).split("\r\n");
    expect(rows).toEqual([
      "section,value,visits,humans,bots",
      expect.stringMatching(/^from,[-0-9T:.]+Z,,,$/),
      expect.stringMatching(/^to,[-0-9T:.]+Z,,,$/),
      "granularity,day,,,",
      "visitors,humans,,,",
      "filter,,,,",
      "analytics,off,,,",
      "",
    ]);
  });

  test("what was recorded while they were on is kept: a shortener with them on reports it, and not the visits counted while off", async () => {
    await using on = await startTestShortener({ database, visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
    const report = await readJson(await on.request("GET", `/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } }));
    expect(report).toMatchObject({ analytics: "on", totals: { visits: 4, humans: 4, bots: 0 } });
    expect(report.top.referrers).toEqual([{ value: "news.example", visits: 4, humans: 4, bots: 0 }]);
  });
});
