import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  batchBody,
  encodeBatchItem,
  internalSecretHeader,
  maxBatchItems,
  parseBatchAnswers,
  redirectBatchMediaType,
  redirectBatchPath,
  type RedirectBatchAnswer,
  type RedirectBatchItem,
} from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { Database as SqliteDatabase } from "bun:sqlite";
import { openSqliteDatabase } from "../src/storage/open-database.ts";
import { loadIpCountries } from "../src/visits/load-ip-countries.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { storeEngines } from "./support/store-engines.ts";

const secret = "internal-secret-for-tests-0123456789abcdef";
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const windowsChrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

function item(code: string, overrides: Partial<RedirectBatchItem> = {}): RedirectBatchItem {
  return {
    code,
    path: `/${code}/`,
    requestId: `req-${code}-${crypto.randomUUID()}`,
    forwardedFor: "131.111.8.46",
    userAgent: null,
    referer: null,
    accept: null,
    ...overrides,
  };
}

function sendBatch(api: TestShortener, items: RedirectBatchItem[], headers: Record<string, string> = { [internalSecretHeader]: secret }) {
  return api.request("POST", redirectBatchPath, {
    body: batchBody(items.map(encodeBatchItem)),
    headers: { "content-type": redirectBatchMediaType, ...headers },
  });
}

async function answersOf(response: Response, expected: number): Promise<RedirectBatchAnswer[]> {
  expect(response.status).toBe(200);
  const answers = parseBatchAnswers(await response.text(), expected);
  if (!answers) throw new Error("the batch answer is not one answer per item");
  return answers;
}

/** A lone request's answer in the batch's terms, for comparing the two byte for byte. */
async function asAnswer(response: Response): Promise<RedirectBatchAnswer> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: response.body === null ? null : await response.text() };
}

describe.each(storeEngines.map((e) => e.engine))("POST /internal/redirects on %s", (engine) => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ engine, internalSecret: secret });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("each item gets what the same redirect alone gets, and every counted item is counted once", async () => {
    const hot = await api.createLink("https://example.com/hot?x=1");
    const other = await api.createLink("https://example.com/other");
    const items = [
      item(hot.short_url),
      item(other.short_url, { accept: browserAccept }),
      item(hot.short_url, { accept: browserAccept }),
      item("no-such-link"),
      item("no-such-link", { accept: browserAccept }),
      item("x"),
      item(hot.short_url),
    ];
    const answers = await answersOf(await sendBatch(api, items), items.length);

    for (const [index, sent] of items.entries()) {
      const alone = await asAnswer(
        await api.request("GET", `/${sent.code}/`, { headers: { "x-request-id": sent.requestId, ...(sent.accept ? { accept: sent.accept } : {}) } }),
      );
      expect({ index, ...answers[index]! }).toEqual({ index, ...alone });
    }
    expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302, 404, 404, 404, 302]);
    expect(answers[0]!.headers).toEqual({
      location: "https://example.com/hot?x=1",
      "cache-control": "private, max-age=0",
      "x-request-id": items[0]!.requestId,
    });
    // Three in the batch, three alone.
    expect((await api.db.links.find(hot.short_url))!.accessCount).toBe(6);
    expect((await api.db.links.find(other.short_url))!.accessCount).toBe(2);
  });

  test("without the secret, or with another, the batch is refused 401 and nothing is counted", async () => {
    const link = await api.createLink();
    for (const headers of [
      {} as Record<string, string>,
      { [internalSecretHeader]: "wrong" },
      { [internalSecretHeader]: `${secret}x` },
      { authorization: `Bearer ${secret}` },
    ]) {
      const response = await sendBatch(api, [item(link.short_url)], headers);
      expect(response.status).toBe(401);
      expect((await readJson(response)).error.code).toBe("unauthorized");
    }
    expect((await api.db.links.find(link.short_url))!.accessCount).toBe(0);
  });

  test("a body that is not a batch is a 400, a too large one a 413, another media type a 415; nothing is counted", async () => {
    const link = await api.createLink();
    const bodies = [
      "not json",
      "[]",
      '{"items":[]}',
      `{"items":[${JSON.stringify({ ...item(link.short_url), code: 7 })}]}`,
      `{"items":[${JSON.stringify({ ...item(link.short_url), forwardedFor: null })}]}`,
      // The request id becomes the answer's X-Request-Id header: CR LF failed the whole batch with 500.
      `{"items":[${JSON.stringify({ ...item(link.short_url), requestId: "id\r\nSet-Cookie: x=1" })}]}`,
      `{"items":[${JSON.stringify({ ...item(link.short_url), requestId: "" })}]}`,
      `{"items":[${JSON.stringify({ ...item(link.short_url), requestId: "r".repeat(129) })}]}`,
      batchBody(Array.from({ length: maxBatchItems + 1 }, () => encodeBatchItem(item(link.short_url)))),
    ];
    for (const body of bodies) {
      const response = await api.request("POST", redirectBatchPath, {
        body,
        headers: { [internalSecretHeader]: secret, "content-type": redirectBatchMediaType },
      });
      expect({ body: body.slice(0, 40), status: response.status }).toEqual({ body: body.slice(0, 40), status: 400 });
    }
    const huge = await api.request("POST", redirectBatchPath, {
      body: "x".repeat(2 * 1024 * 1024),
      headers: { [internalSecretHeader]: secret, "content-type": redirectBatchMediaType },
    });
    expect(huge.status).toBe(413);
    const plainJson = await api.request("POST", redirectBatchPath, {
      body: batchBody([encodeBatchItem(item(link.short_url))]),
      headers: { [internalSecretHeader]: secret, "content-type": "application/json" },
    });
    expect(plainJson.status).toBe(415);
    expect((await api.db.links.find(link.short_url))!.accessCount).toBe(0);
  });
});

describe("POST /internal/redirects", () => {
  test("does not exist without INTERNAL_SECRET: a 404 like any unknown path, and the API page does not list it", async () => {
    await using api = await startTestShortener();
    const link = await api.createLink();
    const response = await sendBatch(api, [item(link.short_url)]);
    expect(response.status).toBe(404);
    expect((await api.db.links.find(link.short_url))!.accessCount).toBe(0);
    await using withSecret = await startTestShortener({ internalSecret: secret });
    const spec = JSON.stringify(await readJson(await withSecret.request("GET", "/docs/json")));
    expect(spec).not.toContain("/internal");
    expect(spec).not.toContain("redirect-batch");
  });

  test("with ACCESS_LOG on, each item is logged as a lone GET with the client's request id and path", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = { debug() {}, warn() {}, error() {}, info: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, ...fields }) };
    await using api = await startTestShortener({ internalSecret: secret, accessLog: true, log });
    const link = await api.createLink();
    // The host each was asked on, as the gateway sent it, in the one spelling a domain has (and none for an older gateway's item).
    const items = [item(link.short_url, { host: "Sho.RT:443" }), item("no-such-link", { path: "/no-such-link" })];
    await answersOf(await sendBatch(api, items), 2);
    const logged = lines
      .filter((line) => line.msg === "request" && line.method === "GET")
      .map(({ request_id, path, status, host }) => ({ request_id, path, status, host }));
    expect(logged).toEqual([
      { request_id: items[0]!.requestId, path: `/${link.short_url}/`, status: 302, host: "sho.rt" },
      { request_id: items[1]!.requestId, path: "/no-such-link", status: 404, host: undefined },
    ]);
  });

  test("each item's visitor feeds the analytics as a lone redirect's would", async () => {
    await using api = await startTestShortener({
      engine: "postgres",
      internalSecret: secret,
      visitClassifier: new VisitClassifier({ countries: loadIpCountries().countries }),
    });
    const link = await api.createLink("https://example.com/analysed");
    const items = [
      item(link.short_url, { forwardedFor: "131.111.8.46", userAgent: windowsChrome, referer: "https://news.ycombinator.com/item?id=1" }),
      item(link.short_url, { forwardedFor: "141.20.5.188", userAgent: windowsChrome }),
    ];
    await answersOf(await sendBatch(api, items), 2);
    const body = await readJson(await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } }));
    expect(body.totals).toEqual({ visits: 2, humans: 2, bots: 0 });
    expect(body.top.referrers).toEqual([
      { value: "direct", visits: 1, humans: 1, bots: 0 },
      { value: "news.ycombinator.com", visits: 1, humans: 1, bots: 0 },
    ]);
    expect(body.top.countries).toEqual([
      { value: "DE", visits: 1, humans: 1, bots: 0 },
      { value: "GB", visits: 1, humans: 1, bots: 0 },
    ]);
  });

  test("the batch comes from the peer like a lone redirect: an untrusted peer's forwardedFor is not believed", async () => {
    await using api = await startTestShortener({
      engine: "postgres",
      internalSecret: secret,
      visitClassifier: new VisitClassifier({ countries: loadIpCountries().countries }),
    });
    const link = await api.createLink("https://example.com/forged");
    await answersOf(
      await sendBatch(api, [item(link.short_url, { forwardedFor: "133.11.0.1" })], { [internalSecretHeader]: secret, "x-test-peer": "131.111.8.46" }),
      1,
    );
    const body = await readJson(await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } }));
    // The item has no User-Agent: a bot.
    expect(body.top.countries).toEqual([{ value: "GB", visits: 1, humans: 0, bots: 1 }]);
  });

  test("a store that refuses writes answers each item with the error a lone redirect gets (503), and the batch still answers 200", async () => {
    const sqlite = new SqliteDatabase(":memory:", { strict: true });
    await using api = await startTestShortener({ internalSecret: secret, database: openSqliteDatabase(sqlite) });
    const link = await api.createLink();
    sqlite.exec("PRAGMA query_only = ON");
    const items = [item(link.short_url), item(link.short_url)];
    const answers = await answersOf(await sendBatch(api, items), 2);
    const alone = await asAnswer(await api.request("GET", `/${link.short_url}/`, { headers: { "x-request-id": items[0]!.requestId } }));
    expect(alone.status).toBe(503);
    expect(answers[0]).toEqual(alone);
    expect(answers[1]).toEqual({ ...alone, headers: { ...alone.headers, "x-request-id": items[1]!.requestId } });
    sqlite.exec("PRAGMA query_only = OFF");
    expect((await api.db.links.find(link.short_url))!.accessCount).toBe(0);
    sqlite.close();
  });
});
