import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { maxBulkBodyBytes, maxBulkItems } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { maxBulkPasswords } from "../src/links/link-service.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { unsetOptions } from "./support/unset-options.ts";

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const password = "correct horse battery";

describe.each(["sqlite", "postgres"] as const)("POST /shorten/bulk/ on %s", (engine) => {
  let api: TestShortener;
  let writer: Record<string, string>;
  let seq = 0;
  // Each test names its own aliases, so tests do not depend on one another.
  const alias = (name: string) => `${name}-${engine}-${++seq}`;
  const bulk = (links: unknown, headers: Record<string, string> = writer) => api.request("POST", "/shorten/bulk/", { json: { links }, headers });

  beforeAll(async () => {
    api = await startTestShortener({ engine });
    const key = await api.request("POST", "/admin/api-keys", {
      json: { name: "importer", scopes: ["links:write", "links:read"] },
      headers: { authorization: `Bearer ${api.adminToken()}` },
    });
    writer = { authorization: `Bearer ${(await readJson(key)).key}` };
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  /** What POST /shorten/ answers for `body` alone, as a bulk result. */
  async function aloneAnswer(body: unknown) {
    const response = await api.request("POST", "/shorten/", { body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    return { status: response.status, ...(await readJson(response)) };
  }

  test(`creates ${maxBulkItems} links, answering each bad or taken item in its place as it would be answered alone`, async () => {
    const [taken, dup, custom] = [alias("taken"), alias("dup"), alias("custom")];
    await api.createLink("https://example.com/first", taken);
    const links: unknown[] = Array.from({ length: maxBulkItems }, (_, i) => ({ long_url: `https://example.com/bulk/${engine}/${i}` }));
    const bad = new Map<number, unknown>([
      [100, { long_url: "not a url" }],
      [200, { long_url: "https://example.com/r", short_url: "admin" }],
      [300, { long_url: "https://example.com/dup-first", short_url: dup }],
      [301, { long_url: "https://example.com/dup-second", short_url: dup }],
      [400, { long_url: "https://example.com/t", short_url: taken }],
      [500, { long_url: "https://example.com/n", short_url: 5 }],
      [600, { long_url: "https://example.com/g", tags: ["Not a tag!"] }],
      [700, { short_url: alias("nourl") }],
      [800, "not an object"],
      [900, { long_url: "https://example.com/p", expires_at: "2001-01-01T00:00:00Z" }],
      [950, { long_url: "https://localhost/loop" }],
    ]);
    for (const [index, item] of bad) links[index] = item;
    links[301 + 1] = { long_url: "https://example.com/custom", short_url: custom, title: "Custom", forward_query: true };

    const response = await bulk(links);

    expect(response.status).toBe(200);
    const { results } = await readJson(response);
    expect(results).toHaveLength(maxBulkItems);
    // The first of the alias twice won; the rest of the bad items are refused now as they were in the batch.
    expect(results[300]).toMatchObject({ status: 201, record: { short_url: dup, long_url: "https://example.com/dup-first" } });
    for (const [index, item] of bad) {
      if (index === 300) continue;
      expect({ index, ...results[index] }).toEqual({ index, ...(await aloneAnswer(item)) });
    }
    expect(results[400].error).toEqual({ code: "conflict", message: `short_url "${taken}" is already taken` });
    expect(results[301].error).toEqual({ code: "conflict", message: `short_url "${dup}" is already taken` });
    expect(results[302]).toEqual({
      status: 201,
      record: {
        short_url: custom,
        domain: "localhost",
        long_url: "https://example.com/custom",
        link: `http://localhost/${custom}/`,
        access_count: 0,
        created_at: iso,
        updated_at: results[302].record.created_at,
        ...unsetOptions,
        title: "Custom",
        forward_query: true,
        manage_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    });
    const created = results.filter((result: { status: number }) => result.status === 201);
    expect(created).toHaveLength(maxBulkItems - bad.size + 1);
    for (const [index, result] of results.entries()) {
      if (bad.has(index) && index !== 300) continue;
      expect(result.status).toBe(201);
      if (index !== 300 && index !== 302) expect(result.record.long_url).toBe(`https://example.com/bulk/${engine}/${index}`);
    }
    expect(new Set(created.map((result: { record: { short_url: string } }) => result.record.short_url)).size).toBe(created.length);
    // Stored as answered, each with its own manage token.
    const sample = results[999].record;
    const asOwner = { headers: { authorization: `Bearer ${sample.manage_token}` } };
    expect(await readJson(await api.request("GET", `/shorten/${sample.short_url}/`, asOwner))).toEqual(
      Object.fromEntries(Object.entries(sample).filter(([key]) => key !== "manage_token")),
    );
    const managed = await api.request("GET", "/shorten/", { headers: { authorization: `Bearer ${sample.manage_token}` } });
    expect((await readJson(managed)).results.map((link: { short_url: string }) => link.short_url)).toEqual([sample.short_url]);
  });

  test("an item with unknown fields is a 400 in its place naming them, as alone; one sending back a record's read-only fields is created", async () => {
    const [typo, echoed] = [alias("typo"), alias("echoed")];
    const misspelled = { long_url: "https://example.com/typo", short_url: typo, max_visit: 5, expire_at: "2027-01-01T00:00:00Z" };
    const readOnly = { link: "http://localhost/x/", access_count: 7, created_at: "2020-01-01T00:00:00.000Z", state: "exhausted", password_protected: true };
    const { results } = await readJson(await bulk([misspelled, { long_url: "https://example.com/echoed", short_url: echoed, ...readOnly }]));
    const refusal = { code: "invalid_request", message: 'unknown fields "max_visit", "expire_at": not among the fields this request takes' };
    expect(results[0]).toEqual({ status: 400, error: refusal });
    expect(await aloneAnswer(misspelled)).toEqual({ status: 400, error: refusal });
    expect((await api.request("GET", `/shorten/${typo}/`)).status).toBe(404);
    expect(results[1]).toMatchObject({ status: 201, record: { short_url: echoed, access_count: 0, state: "active", password_protected: false } });
  });

  test("a retried request answers 409 for its aliases and creates nothing twice", async () => {
    const links = [alias("again"), alias("again"), alias("again")].map((code) => ({ long_url: `https://example.com/${code}`, short_url: code }));
    const first = await readJson(await bulk([...links, { long_url: "https://example.com/generated" }]));
    expect(first.results.map((result: { status: number }) => result.status)).toEqual([201, 201, 201, 201]);

    const retried = await readJson(await bulk(links));

    expect(retried.results).toEqual(
      links.map((link) => ({ status: 409, error: { code: "conflict", message: `short_url "${link.short_url}" is already taken` } })),
    );
    for (const link of links) expect((await readJson(await api.request("GET", `/shorten/${link.short_url}/`))).long_url).toBe(link.long_url);
  });

  test("concurrent requests racing on the same aliases: one winner per alias, every other item created, no 500", async () => {
    const aliases = Array.from({ length: 200 }, () => alias("race"));
    const requests = Array.from({ length: 4 }, (_, racer) => {
      const order = racer % 2 === 0 ? aliases : [...aliases].reverse();
      const generated = Array.from({ length: 50 }, (_, i) => ({ long_url: `https://example.com/race/${racer}/${i}` }));
      return [...order.map((code) => ({ long_url: `https://example.com/${code}/${racer}`, short_url: code })), ...generated];
    });

    const responses = await Promise.all(requests.map((links) => bulk(links)));

    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const answers = await Promise.all(responses.map(async (response) => (await readJson(response)).results));
    const winners = new Map<string, string>();
    for (const [racer, results] of answers.entries()) {
      for (const [index, result] of results.entries()) {
        const item: { long_url: string; short_url?: string } = requests[racer]![index]!;
        if (item.short_url === undefined) {
          expect(result.status).toBe(201);
          continue;
        }
        if (result.status === 409) continue;
        expect(result.status).toBe(201);
        expect(winners.has(item.short_url)).toBe(false);
        winners.set(item.short_url, item.long_url);
      }
    }
    expect([...winners.keys()].sort()).toEqual([...aliases].sort());
    for (const code of aliases.slice(0, 20)) {
      expect((await readJson(await api.request("GET", `/shorten/${code}/`))).long_url).toBe(winners.get(code)!);
    }
  });

  test("a link created in bulk redirects at once, even where a miss of its code was cached", async () => {
    const code = alias("cached");
    expect((await api.request("GET", `/${code}`)).status).toBe(404);
    await bulk([{ long_url: "https://example.com/now-there", short_url: code }]);
    const redirect = await api.request("GET", `/${code}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("https://example.com/now-there");
  });

  test(`takes up to ${maxBulkPasswords} items with a password, hashed as a lone create's`, async () => {
    const links = Array.from({ length: maxBulkPasswords }, (_, i) => ({ long_url: `https://example.com/secret/${i}`, password }));
    const { results } = await readJson(await bulk([...links, { long_url: "https://example.com/open" }]));
    expect(results.map((result: { record: { password_protected: boolean } }) => result.record.password_protected)).toEqual([...links.map(() => true), false]);
    const code = results[0].record.short_url;
    const unlocked = await api.request("POST", `/${code}`, { json: { password } });
    expect(unlocked.status).toBe(303);
    expect(unlocked.headers.get("location")).toBe("https://example.com/secret/0");
  });

  describe("who may", () => {
    test("an admin token may", async () => {
      const response = await bulk([{ long_url: "https://example.com/by-admin" }], { authorization: `Bearer ${api.adminToken()}` });
      expect(response.status).toBe(200);
    });

    test("a key with links:read only is 403 naming links:write", async () => {
      const key = await readJson(
        await api.request("POST", "/admin/api-keys", {
          json: { name: "reader", scopes: ["links:read"] },
          headers: { authorization: `Bearer ${api.adminToken()}` },
        }),
      );
      const response = await bulk([{ long_url: "https://example.com/x" }], { authorization: `Bearer ${key.key}` });
      expect(response.status).toBe(403);
      expect(await readJson(response)).toEqual({ error: { code: "forbidden", message: "this API key lacks the scope links:write" } });
    });

    test("a manage token is 403, and no credentials 401", async () => {
      const link = await api.createLink();
      const byToken = await bulk([{ long_url: "https://example.com/x" }], { authorization: `Bearer ${link.manage_token}` });
      expect(byToken.status).toBe(403);
      expect((await readJson(byToken)).error.message).toContain("links:write");
      const anonymous = await bulk([{ long_url: "https://example.com/x" }], {});
      expect(anonymous.status).toBe(401);
      expect((await readJson(anonymous)).error.code).toBe("unauthorized");
    });
  });

  describe("limits", () => {
    test(`${maxBulkItems + 1} items are a 400 naming links and the limit, and create nothing`, async () => {
      const code = alias("over");
      const links = Array.from({ length: maxBulkItems + 1 }, (_, i) => ({ long_url: "https://example.com/over", short_url: `${code}-${i}` }));
      const response = await bulk(links);
      expect(response.status).toBe(400);
      expect(await readJson(response)).toEqual({
        error: { code: "invalid_request", message: `field links: expected array length to be less or equal to ${maxBulkItems}` },
      });
      expect((await api.request("GET", `/shorten/${code}-0/`)).status).toBe(404);
    });

    test.each([
      [{}, "field links is required"],
      [{ links: "https://example.com/" }, "field links: expected array"],
      [{ items: [] }, 'unknown field "items": not among the fields this request takes'],
    ])("a body that is not {links: [...]} (%p) is a 400 naming what is wrong", async (body, message) => {
      const response = await api.request("POST", "/shorten/bulk", { json: body, headers: writer });
      expect(response.status).toBe(400);
      expect(await readJson(response)).toEqual({ error: { code: "invalid_request", message } });
    });

    test(`more than ${maxBulkPasswords} items with a password are a 400 for the whole request`, async () => {
      const code = alias("pw");
      const links = Array.from({ length: maxBulkPasswords + 1 }, (_, i) => ({ long_url: "https://example.com/pw", short_url: `${code}-${i}`, password }));
      const response = await bulk(links);
      expect(response.status).toBe(400);
      expect((await readJson(response)).error.message).toContain(`at most ${maxBulkPasswords} items`);
      expect((await api.request("GET", `/shorten/${code}-0/`)).status).toBe(404);
    });

    test("a body past the 64 KiB of other routes is read; past the route's own limit, 413 before reading", async () => {
      const longPath = "a".repeat(1500);
      const big = Array.from({ length: 100 }, (_, i) => ({ long_url: `https://example.com/${longPath}/${i}` }));
      expect(JSON.stringify({ links: big }).length).toBeGreaterThan(64 * 1024);
      expect((await bulk(big)).status).toBe(200);

      const oversized = JSON.stringify({ links: [{ long_url: `https://example.com/${"b".repeat(maxBulkBodyBytes)}` }] });
      const response = await api.request("POST", "/shorten/bulk/", { body: oversized, headers: { ...writer, "content-type": "application/json" } });
      expect(response.status).toBe(413);
      expect(await readJson(response)).toEqual({ error: { code: "payload_too_large", message: `request body is larger than ${maxBulkBodyBytes} bytes` } });
    });

    test("a lone create still stops at 64 KiB", async () => {
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", title: "x".repeat(70 * 1024) } });
      expect(response.status).toBe(413);
    });
  });
});
