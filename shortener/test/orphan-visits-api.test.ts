import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import type { OrphanKind } from "../src/visits/orphan-visit-store.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const today = new Date("2026-11-22T10:30:00.000Z");
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const curl = "curl/8.5.0";

const zeroDay = (t: string) => ({ t, visits: 0, humans: 0, bots: 0 });

describe.each(["sqlite", "postgres"] as const)("GET /admin/visits/orphans/ on %s", (engine) => {
  let api: TestShortener;
  let now = today;
  beforeAll(async () => {
    // Analytics on, as main.ts runs it, with no country data (countries are not kept here).
    api = await startTestShortener({ engine, clock: () => now, visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  const asAdmin = (path: string) => api.request("GET", path, { headers: { authorization: `Bearer ${api.adminToken()}` } });

  /** Visits that led nowhere as the redirect path records them, at `when`, then written. */
  async function record(when: string, visits: Array<[OrphanKind, string | null, string | null]>) {
    now = new Date(when);
    for (const [kind, userAgent, referer] of visits) api.orphans.record(kind, 0, { userAgent, referer });
    now = today;
    await api.orphans.drain();
  }

  test("answers the visits report's shape: totals, every day of the range, top referrers and kinds, bots told apart by User-Agent", async () => {
    await record("2026-05-04T08:00:00Z", [
      ["unknown", firefox, "https://news.example/post/1"],
      ["unknown", googlebot, null],
      ["expired", iphone, "https://mail.example/inbox"],
      ["expired", iphone, "https://mail.example/inbox"],
      ["password", firefox, "https://news.example/"],
    ]);
    await record("2026-05-06T23:59:59.999Z", [
      ["exhausted", curl, null],
      ["unknown", null, "android-app://com.example.app/"],
      ["password", firefox, null],
    ]);

    const response = await asAdmin("/admin/visits/orphans/?from=2026-05-03&to=2026-05-07T12:00:00Z");

    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      from: "2026-05-03T00:00:00.000Z",
      to: "2026-05-07T12:00:00.000Z",
      granularity: "day",
      analytics: "on",
      totals: { visits: 8, humans: 5, bots: 3 },
      series: [
        zeroDay("2026-05-03T00:00:00.000Z"),
        { t: "2026-05-04T00:00:00.000Z", visits: 5, humans: 4, bots: 1 },
        zeroDay("2026-05-05T00:00:00.000Z"),
        { t: "2026-05-06T00:00:00.000Z", visits: 3, humans: 1, bots: 2 },
        zeroDay("2026-05-07T00:00:00.000Z"),
      ],
      top: {
        referrers: [
          { value: "direct", visits: 3 },
          { value: "mail.example", visits: 2 },
          { value: "news.example", visits: 2 },
          { value: "unknown", visits: 1 },
        ],
        // Most visits first, then by name.
        kinds: [
          { value: "unknown", visits: 3 },
          { value: "expired", visits: 2 },
          { value: "password", visits: 2 },
          { value: "exhausted", visits: 1 },
        ],
      },
    });
  });

  test("a range counts the UTC days it touches and no other; with and without the trailing slash alike", async () => {
    await record("2026-06-09T23:59:59.999Z", [["unknown", firefox, null]]);
    await record("2026-06-10T00:00:00Z", [["unknown", firefox, null]]);
    await record("2026-06-11T13:00:00Z", [["expired", firefox, null]]);
    await record("2026-06-12T00:00:00Z", [["unknown", firefox, null]]);

    for (const path of ["/admin/visits/orphans/", "/admin/visits/orphans"]) {
      const body = await readJson(await asAdmin(`${path}?from=2026-06-10T06:00:00Z&to=2026-06-11T23:59:59Z&granularity=day`));
      expect({ totals: body.totals, series: body.series, kinds: body.top.kinds }).toEqual({
        totals: { visits: 2, humans: 2, bots: 0 },
        series: [
          { t: "2026-06-10T00:00:00.000Z", visits: 1, humans: 1, bots: 0 },
          { t: "2026-06-11T00:00:00.000Z", visits: 1, humans: 1, bots: 0 },
        ],
        kinds: [
          { value: "expired", visits: 1 },
          { value: "unknown", visits: 1 },
        ],
      });
    }
  });

  test("by default the last 30 days up to now; nothing recorded is all zeros and empty lists", async () => {
    now = new Date("2030-01-31T10:00:00Z");
    const body = await readJson(await asAdmin("/admin/visits/orphans/"));
    now = today;
    expect(body).toEqual({
      from: "2030-01-01T10:00:00.000Z",
      to: "2030-01-31T10:00:00.000Z",
      granularity: "day",
      analytics: "on",
      totals: { visits: 0, humans: 0, bots: 0 },
      series: Array.from({ length: 31 }, (_, i) => zeroDay(new Date(Date.UTC(2030, 0, 1 + i)).toISOString())),
      top: { referrers: [], kinds: [] },
    });
  });

  test("names the 10 referrers with the most visits, then other for the rest and for what a flooded day did not name", async () => {
    const busy = Array.from({ length: 12 }, (_, i) => `busy-${String(i).padStart(2, "0")}.example`);
    const flood = Array.from({ length: 150 }, (_, i) => `flood-${i}.example`);
    await record("2026-07-01T12:00:00Z", [
      ...busy.flatMap((host, i) => Array.from({ length: 20 - i }, (): [OrphanKind, string, string] => ["unknown", firefox, `https://${host}/`])),
      ...flood.map((host): [OrphanKind, string, string] => ["unknown", firefox, `https://${host}/`]),
    ]);

    const body = await readJson(await asAdmin("/admin/visits/orphans/?from=2026-07-01&to=2026-07-01"));

    const total = busy.reduce((sum, _, i) => sum + 20 - i, 0) + flood.length;
    expect(body.totals.visits).toBe(total);
    expect(body.top.referrers).toEqual([
      ...busy.slice(0, 10).map((host, i) => ({ value: host, visits: 20 - i })),
      // busy-10 and busy-11 (10 and 9 visits), and the 150 single visits, named or not.
      { value: "other", visits: 10 + 9 + 150 },
    ]);
  });

  test("a redirect to an unknown code shows up as an unknown visit", async () => {
    now = new Date("2026-08-15T09:00:00Z");
    const response = await api.request("GET", "/NoSuchCode/", { headers: { "user-agent": googlebot, referer: "https://search.example/?q=x" } });
    now = today;
    expect(response.status).toBe(404);
    await api.orphans.drain();

    const body = await readJson(await asAdmin("/admin/visits/orphans/?from=2026-08-15&to=2026-08-15"));
    expect({ totals: body.totals, top: body.top }).toEqual({
      totals: { visits: 1, humans: 0, bots: 1 },
      top: { referrers: [{ value: "search.example", visits: 1 }], kinds: [{ value: "unknown", visits: 1 }] },
    });
  });

  test("admin only: an admin's session cookie works too, a manage token is 403, nothing is 401", async () => {
    const link = await api.createLink();
    await api.db.admins.insert({ username: "alice", passwordHash: await Bun.password.hash("a password", { algorithm: "bcrypt", cost: 4 }), createdAt: today });
    const signIn = await api.request("POST", "/admin/session", { json: { username: "alice", password: "a password" } });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;

    expect((await api.request("GET", "/admin/visits/orphans/", { headers: { cookie } })).status).toBe(200);
    const forbidden = await api.request("GET", "/admin/visits/orphans/", { headers: { authorization: `Bearer ${link.manage_token}` } });
    expect(forbidden.status).toBe(403);
    expect((await readJson(forbidden)).error.code).toBe("forbidden");
    const unauthorized = await api.request("GET", "/admin/visits/orphans/");
    expect(unauthorized.status).toBe(401);
    expect((await readJson(unauthorized)).error.code).toBe("unauthorized");
  });

  test.each([
    ["granularity=hour", "granularity=hour", "granularity must be day"],
    ["another granularity", "granularity=week", "granularity must be hour or day"],
    ["a from that is not a date", "from=yesterday", "from must be an ISO 8601 date"],
    ["a day that does not exist", "to=2026-02-30", "to must be an ISO 8601 date"],
    ["from after to", "from=2026-11-22&to=2026-11-01", "from must not be after to"],
    ["more than ten years of days", "from=2000-01-01&to=2026-01-01", "at most 3660 days"],
  ])("answers 400 invalid_request for %s", async (_, query, mention) => {
    const response = await asAdmin(`/admin/visits/orphans/?${query}`);
    expect(response.status).toBe(400);
    const error = (await readJson(response)).error;
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(mention);
  });
});

// On a real socket: Bun's router, not app.handle, decides which route a path reaches.
describe("GET /admin/visits/orphans/ through Bun's router", () => {
  test("reaches its own route, not the every-link report nor a redirect, and /docs/json describes it", async () => {
    await using api = await startTestShortener({ visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }) });
    api.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const origin = `http://127.0.0.1:${api.app.server!.port}`;
      const headers = { authorization: `Bearer ${api.adminToken()}` };
      for (const path of ["/admin/visits/orphans/", "/admin/visits/orphans"]) {
        const response = await fetch(`${origin}${path}?from=2026-01-01&to=2026-01-02`, { headers });
        expect(response.status).toBe(200);
        const body = await readJson(response);
        expect(Object.keys(body.top)).toEqual(["referrers", "kinds"]);
      }
      const spec = await readJson(await fetch(`${origin}/docs/json`));
      const operation = spec.paths["/admin/visits/orphans"].get;
      expect(operation.tags).toEqual(["visits"]);
      expect(Object.keys(operation.responses).sort()).toEqual(["200", "400", "401", "403"]);
    } finally {
      await api.app.stop(true);
    }
  });
});
