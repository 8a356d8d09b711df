import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

// GET /shorten/?tag=&state=: checked, combined with q and sort, judged at the service's clock, kept by next and previous.
describe.each(["sqlite", "postgres"] as const)("the listing's filters on %s", (engine) => {
  let api: TestShortener;
  let now = new Date("2026-11-26T12:00:00.000Z");
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const list = async (query: string) => {
    const response = await api.request("GET", `/shorten/?${query}`, { headers: admin() });
    expect(response.status).toBe(200);
    return readJson(response);
  };
  const codesOf = (page: { results: Array<{ short_url: string }> }) => page.results.map((record) => record.short_url);
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

  beforeAll(async () => {
    api = await startTestShortener({ engine, clock: () => now });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const create = async (options: Record<string, unknown>, longUrl: string) => {
    const response = await api.request("POST", "/shorten/", { json: { long_url: longUrl, ...options } });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    const record = await readJson(response);
    // A second apart, so that newest first is well defined.
    now = new Date(now.getTime() + 1000);
    return record.short_url as string;
  };

  test.each(["tag=", "tag=has%20space", `tag=${"x".repeat(33)}`, "tag=a%00", "tag=caf%C3%A9", "tag=a,b"])(
    "answers 400 invalid_request naming tag for %p",
    async (query) => {
      const response = await api.request("GET", `/shorten/?${query}`, { headers: admin() });
      expect(response.status).toBe(400);
      expect(await readJson(response)).toEqual({ error: { code: "invalid_request", message: "tag must be 1 to 32 of a-z 0-9 _ -" } });
    },
  );

  test.each(["state=", "state=bogus", "state=ACTIVE", "state=active%00", "state=active,expired"])(
    "answers 400 invalid_request naming the states for %p",
    async (query) => {
      const response = await api.request("GET", `/shorten/?${query}`, { headers: admin() });
      expect(response.status).toBe(400);
      expect(await readJson(response)).toEqual({
        error: { code: "invalid_request", message: "state must be active, expired, exhausted, quarantined or disabled" },
      });
    },
  );

  test("a manage token gets the same 400 for a bad filter, and its one link for a good one", async () => {
    const created = await api.createLink("https://example.com/filters/managed");
    const managed = { authorization: `Bearer ${created.manage_token}` };
    expect((await api.request("GET", "/shorten/?state=gone", { headers: managed })).status).toBe(400);
    const page = await readJson(await api.request("GET", "/shorten/?tag=nothing&state=expired", { headers: managed }));
    expect(codesOf(page)).toEqual([created.short_url]);
  });

  test("tag, state, q and sort together; next and previous keep every one of them", async () => {
    const marker = `flt${engine}${Date.now().toString(36)}`;
    const tag = `${marker}-launch`;
    const url = (name: string) => `https://filters.example/${marker}/${name}`;
    const [a, b, c, d] = [
      await create({ tags: [tag.toUpperCase()], max_visits: 2 }, url("a")),
      await create({ tags: [tag], expires_at: new Date(now.getTime() + 60_000).toISOString() }, url("b")),
      await create({ tags: [tag, "other"] }, url("c")),
      await create({ tags: ["other"] }, url("d")),
    ];
    // a is used up (two visits), c visited once; b expires when the clock passes its expiry.
    for (const code of [a, a, c]) expect((await api.request("GET", `/${code}/`)).status).toBe(302);
    const before = await list(`tag=${tag}&state=active&q=${marker}`);
    expect(codesOf(before)).toEqual([c, b]);
    now = new Date(now.getTime() + 120_000);

    const query = `page_size=1&q=${marker}&sort=most_visited&tag=${tag.toUpperCase()}&state=active`;
    const first = await list(query);
    expect(first).toMatchObject({ count: 1, count_is_estimate: false, next: null, previous: null });
    expect(codesOf(first)).toEqual([c]);
    expect(first.results[0].state).toBe("active");

    const expired = await list(`q=${marker}&tag=${tag}&state=expired`);
    expect({ codes: codesOf(expired), states: expired.results.map((r: { state: string }) => r.state) }).toEqual({ codes: [b], states: ["expired"] });
    const exhausted = await list(`tag=${tag}&state=exhausted`);
    expect(codesOf(exhausted)).toEqual([a]);
    expect(codesOf(await list(`q=${marker}&tag=other`))).toEqual([d, c]);
    expect(codesOf(await list(`q=${marker}&state=active&sort=newest`))).toEqual([d, c]);

    const paged = await list(`page_size=1&q=${marker}&sort=most_visited&tag=${tag.toUpperCase()}`);
    expect(codesOf(paged)).toEqual([a]);
    expect(paged.count).toBe(3);
    // The tag as it is matched (lower case); the order of the parameters is the listing's own.
    expect(paged.next).toBe(`http://localhost/shorten/?page=2&page_size=1&q=${marker}&sort=most_visited&tag=${tag}`);
    const second = await list(pathOf(paged.next).slice("/shorten/?".length));
    expect(codesOf(second)).toEqual([c]);
    expect(second.previous).toBe(`http://localhost/shorten/?page=1&page_size=1&q=${marker}&sort=most_visited&tag=${tag}`);
    const third = await list(pathOf(second.next).slice("/shorten/?".length));
    expect({ codes: codesOf(third), next: third.next }).toEqual({ codes: [b], next: null });

    const withState = await list(`page_size=1&tag=${tag}&state=exhausted`);
    expect(withState.next).toBeNull();
    const stateOnly = await list(`page=2&page_size=1&q=${marker}&state=active`);
    expect(codesOf(stateOnly)).toEqual([c]);
    expect(stateOnly.previous).toBe(`http://localhost/shorten/?page=1&page_size=1&q=${marker}&state=active`);
  });

  test("a cap set on a link visited past it is used up at once, in the filter and the sorted pages", async () => {
    const marker = `cap${engine}${Date.now().toString(36)}`;
    const [capped, other] = [
      await create({ tags: [marker] }, `https://filters.example/${marker}/a`),
      await create({ tags: [marker] }, `https://filters.example/${marker}/b`),
    ];
    for (const code of [capped, capped, capped, other]) expect((await api.request("GET", `/${code}/`)).status).toBe(302);
    const response = await api.request("PUT", `/shorten/${capped}/`, { json: { max_visits: 2 }, headers: admin() });
    expect(response.status).toBe(200);
    expect(codesOf(await list(`tag=${marker}&state=exhausted`))).toEqual([capped]);
    expect(codesOf(await list(`tag=${marker}&state=active`))).toEqual([other]);
    expect(codesOf(await list(`tag=${marker}&sort=most_visited`))).toEqual([capped, other]);
  });
});
