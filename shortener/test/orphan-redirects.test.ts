import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { batchBody, encodeBatchItem, internalSecretHeader, parseBatchAnswers, redirectBatchMediaType, redirectBatchPath } from "@linkgeo/shared";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { storeEngines } from "./support/store-engines.ts";

const now = new Date("2026-11-22T10:30:00.000Z");
const today = "2026-11-22";
const secret = "internal-secret-for-tests-0123456789abcdef";
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** A redirect to a code no link has, lone or in the gateway's batch, is a visit that led nowhere: `unknown`. */
describe.each(storeEngines.map((e) => e.engine))("redirects to unknown codes on %s", (engine) => {
  let api: TestShortener;
  beforeAll(async () => {
    // Analytics on, as main.ts runs it, with no country data (countries are not kept here).
    api = await startTestShortener({
      engine,
      clock: () => now,
      internalSecret: secret,
      visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }),
    });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("GET of an unknown code counts one unknown visit per request, with the referrer host and the bot split; HEAD and links that exist do not", async () => {
    const link = await api.createLink();
    const get = (path: string, headers: Record<string, string>) => api.request("GET", path, { headers });
    expect((await get("/NoSuchCode/", { "user-agent": firefox, referer: "https://news.example/post/1", accept: browserAccept })).status).toBe(404);
    expect((await get("/NoSuchCode", { "user-agent": firefox, referer: "https://news.example/other" })).status).toBe(404);
    expect((await get("/another-missing/", { "user-agent": googlebot })).status).toBe(404);
    // A path no link could have (too short, a reserved word) is not a visit of a link at all.
    expect((await get("/x/", {})).status).toBe(404);
    expect((await get("/favicon.ico", { "user-agent": firefox })).status).toBe(404);
    expect((await api.request("HEAD", "/NoSuchCode/", { headers: { "user-agent": firefox } })).status).toBe(404);
    expect((await get(`/${link.short_url}/`, { "user-agent": firefox, referer: "https://news.example/" })).status).toBe(302);
    await api.orphans.drain();

    expect(await api.db.orphans.days({ fromDay: today, toDay: today })).toEqual([{ day: today, humans: 2, bots: 1 }]);
    expect(await api.db.orphans.breakdowns({ fromDay: today, toDay: today }, 10)).toEqual({
      kinds: [{ value: "unknown", visits: 3 }],
      referrers: [
        { value: "news.example", visits: 2 },
        { value: "direct", visits: 1 },
      ],
    });
  });

  test("an unknown code in the gateway's batch counts as it does alone", async () => {
    const before = (await api.db.orphans.days({ fromDay: today, toDay: today }))[0] ?? { humans: 0, bots: 0 };
    const items = ["gone-1", "gone-2"].map((code) => ({
      code,
      path: `/${code}/`,
      requestId: `req-${code}`,
      forwardedFor: "131.111.8.46",
      userAgent: firefox,
      referer: "https://batch.example/",
      accept: null,
    }));
    const response = await api.request("POST", redirectBatchPath, {
      body: batchBody(items.map(encodeBatchItem)),
      headers: { "content-type": redirectBatchMediaType, [internalSecretHeader]: secret },
    });
    expect(parseBatchAnswers(await response.text(), 2)?.map((answer) => answer.status)).toEqual([404, 404]);
    await api.orphans.drain();

    expect(await api.db.orphans.days({ fromDay: today, toDay: today })).toEqual([{ day: today, humans: before.humans + 2, bots: before.bots }]);
    expect((await api.db.orphans.breakdowns({ fromDay: today, toDay: today }, 10)).referrers).toContainEqual({ value: "batch.example", visits: 2 });
  });
});

/** Visits that led nowhere are counted on the domain of the host asked, and the report reads one domain or all. */
describe.each(storeEngines.map((e) => e.engine))("visits that led nowhere per domain on %s", (engine) => {
  let api: TestShortener;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  // The gateway's forwarding: the host a client asked, from a trusted peer (the test's, 127.0.0.1).
  const on = (host: string) => ({ "x-forwarded-host": host, "x-forwarded-proto": "https", "user-agent": firefox });
  beforeAll(async () => {
    api = await startTestShortener({
      engine,
      clock: () => now,
      publicBaseUrl: new URL("https://sho.rt"),
      visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }),
    });
    await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin() });
  });
  afterAll(() => api[Symbol.asyncDispose]());
  const report = async (query: string) => {
    const response = await api.request("GET", `/admin/visits/orphans/?from=${today}${query}`, { headers: admin() });
    return { status: response.status, body: await readJson(response) };
  };

  test("each host's misses are its domain's: ?domain= reads one, none reads all, a host never added is a 400", async () => {
    const once = await api.request("POST", "/shorten/", {
      json: { long_url: "https://brand.example/sale", short_url: "was-here", domain: "go.brand.test", max_visits: 1 },
    });
    expect(once.status).toBe(201);
    expect((await api.request("GET", "/was-here/", { headers: on("go.brand.test") })).status).toBe(302);
    for (const path of ["/missing-a/", "/missing-b/"]) expect((await api.request("GET", path, { headers: on("go.brand.test") })).status).toBe(404);
    expect((await api.request("GET", "/was-here/", { headers: on("go.brand.test") })).status).toBe(410);
    expect((await api.request("GET", "/missing-a/", { headers: on("sho.rt") })).status).toBe(404);
    // A host that is no domain is served as the default domain (UNKNOWN_HOSTS=default): its misses are the default domain's.
    expect((await api.request("GET", "/missing-c/", { headers: on("elsewhere.test") })).status).toBe(404);
    await api.orphans.drain();

    const brand = await report("&domain=go.brand.test");
    expect([brand.status, brand.body.totals, brand.body.top.kinds]).toEqual([
      200,
      { visits: 3, humans: 3, bots: 0 },
      [
        { value: "unknown", visits: 2 },
        { value: "exhausted", visits: 1 },
      ],
    ]);
    expect((await report("&domain=sho.rt")).body.totals).toEqual({ visits: 2, humans: 2, bots: 0 });
    expect((await report("")).body.totals).toEqual({ visits: 5, humans: 5, bots: 0 });
    const unknown = await report("&domain=never-added.test");
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "invalid_request"]);
  });
});

describe("with UNKNOWN_HOSTS=404, a host that is no domain", () => {
  test("counts no visit that led nowhere: it was never a host of ours", async () => {
    await using api = await startTestShortener({
      clock: () => now,
      publicBaseUrl: new URL("https://sho.rt"),
      unknownHosts: "404",
      visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }),
    });
    const headers = (host: string) => ({ "x-forwarded-host": host, "user-agent": firefox });
    expect((await api.request("GET", "/missing-a/", { headers: headers("elsewhere.test") })).status).toBe(404);
    expect((await api.request("GET", "/missing-b/", { headers: headers("sho.rt") })).status).toBe(404);
    await api.orphans.drain();
    expect(await api.db.orphans.days({ fromDay: today, toDay: today })).toEqual([{ day: today, humans: 1, bots: 0 }]);
  });
});

describe("redirects to unknown codes with ANALYTICS=off", () => {
  test("count nothing: no visitor is seen, and none is kept", async () => {
    await using api = await startTestShortener({ clock: () => now });
    expect((await api.request("GET", "/NoSuchCode/", { headers: { "user-agent": firefox } })).status).toBe(404);
    await api.orphans.drain();
    expect(await api.db.orphans.days({ fromDay: today, toDay: today })).toEqual([]);
  });
});
