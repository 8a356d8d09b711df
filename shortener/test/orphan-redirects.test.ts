import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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

    expect(await api.db.orphans.days(today, today)).toEqual([{ day: today, humans: 2, bots: 1 }]);
    expect(await api.db.orphans.breakdowns(today, today, 10)).toEqual({
      kinds: [{ value: "unknown", visits: 3 }],
      referrers: [
        { value: "news.example", visits: 2 },
        { value: "direct", visits: 1 },
      ],
    });
  });

  test("an unknown code in the gateway's batch counts as it does alone", async () => {
    const before = (await api.db.orphans.days(today, today))[0] ?? { humans: 0, bots: 0 };
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

    expect(await api.db.orphans.days(today, today)).toEqual([{ day: today, humans: before.humans + 2, bots: before.bots }]);
    expect((await api.db.orphans.breakdowns(today, today, 10)).referrers).toContainEqual({ value: "batch.example", visits: 2 });
  });
});

describe("redirects to unknown codes with ANALYTICS=off", () => {
  test("count nothing: no visitor is seen, and none is kept", async () => {
    await using api = await startTestShortener({ clock: () => now });
    expect((await api.request("GET", "/NoSuchCode/", { headers: { "user-agent": firefox } })).status).toBe(404);
    await api.orphans.drain();
    expect(await api.db.orphans.days(today, today)).toEqual([]);
  });
});
