import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { publicPartOf, unsetOptions } from "./support/unset-options.ts";

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** The stats of a link just made, neither visited, expired nor protected. */
/** A new link's stats as anyone reads them (the seed's fields), and as a reader of the link does. */
const seedStats = { access_count: 0, last_accessed_at: null };
const fresh = { ...seedStats, state: "active", password_protected: false };

describe.each(["sqlite", "postgres"] as const)("short URL API on %s", (engine) => {
  let api: TestShortener;
  // Each reading of the clock is a second later, so "newest first" is well defined.
  let tick = 0;
  const clock = () => new Date(Date.UTC(2026, 10, 22, 7, 0, 0) + tick++ * 1000);
  beforeAll(async () => {
    api = await startTestShortener({ engine, clock });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  describe("POST /shorten/", () => {
    test("creates a 7-character code and returns the record, a manage token and Location", async () => {
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/a" } });
      expect(response.status).toBe(201);
      const body = await readJson(response);
      expect(body).toEqual({
        short_url: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
        domain: "localhost",
        long_url: "https://example.com/a",
        link: `http://localhost/${body.short_url}/`,
        access_count: 0,
        created_at: iso,
        updated_at: body.created_at,
        ...unsetOptions,
        manage_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(response.headers.get("location")).toBe(`/shorten/${body.short_url}/`);
    });

    test("builds link from the origin the gateway forwarded", async () => {
      const response = await api.request("POST", "/shorten", {
        json: { long_url: "https://example.com/fwd" },
        headers: { "x-forwarded-proto": "https", "x-forwarded-host": "sho.rt" },
      });
      const body = await readJson(response);
      expect(body.link).toBe(`https://sho.rt/${body.short_url}/`);
    });

    test("believes X-Forwarded-Host and -Proto only from a trusted proxy", async () => {
      const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", "x-test-peer": "203.0.113.9" };
      const created = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/forged" }, headers: forged }));
      expect(created.link).toStartWith("http://localhost/");
      // Nor is the forged host one of "ours": a link to it is a link elsewhere, not a loop.
      const toForged = await api.request("POST", "/shorten/", { json: { long_url: "https://evil.example/x" }, headers: forged });
      expect(toForged.status).toBe(201);
    });

    test("accepts a custom alias", async () => {
      const body = await api.createLink("https://example.com/alias", `my_Alias-${engine}`);
      expect(body.short_url).toBe(`my_Alias-${engine}`);
    });

    test("answers 409 conflict when the alias is taken", async () => {
      await api.createLink("https://example.com/1", `taken-${engine}`);
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/2", short_url: `taken-${engine}` } });
      expect(response.status).toBe(409);
      expect(await readJson(response)).toEqual({ error: { code: "conflict", message: `short_url "taken-${engine}" is already taken` } });
    });

    test.each([
      ["ab", "3 to 32"],
      ["a".repeat(33), "3 to 32"],
      ["has space", "3 to 32"],
      ["dot.ted", "3 to 32"],
      ["shorten", "reserved"],
      ["DOCS", "reserved"],
      ["reverse-geocode", "reserved"],
      ["admin", "reserved"],
      ["app", "reserved"],
      ["App", "reserved"],
    ])("refuses the alias %p with 400 invalid_request", async (alias, reason) => {
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", short_url: alias } });
      expect(response.status).toBe(400);
      const body = await readJson(response);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toContain(reason);
    });

    test.each([
      ["not a url", "absolute"],
      ["/relative/path", "absolute"],
      ["ftp://example.com/file", "http or https"],
      ["javascript:alert(1)", "http or https"],
      ["https://user:pass@example.com/", "user name or password"],
      [`https://example.com/${"a".repeat(2040)}`, "2048"],
      ["https://localhost/loop", "this service"],
      [" https://example.com/", "spaces"],
      ["https://exa\nmple.com/", "control"],
    ])("refuses long_url %p with 400 invalid_url", async (longUrl, reason) => {
      const response = await api.request("POST", "/shorten/", { json: { long_url: longUrl } });
      expect(response.status).toBe(400);
      const body = await readJson(response);
      expect(body.error.code).toBe("invalid_url");
      expect(body.error.message).toContain(reason);
    });

    test.each([
      "http://localhost:8080/x/",
      "http://0.0.0.0:8080/x",
      "http://127.0.0.2:8080/x",
      "http://localhost.:8080/x",
      "http://[::ffff:127.0.0.1]:8080/x",
      "http://0x7f.1/x",
      "https://SHO.RT./x",
      "https://sho.rt:443/x",
    ])("refuses a link back to the service spelled %p, on create and on update", async (longUrl) => {
      const forwarded = { "x-forwarded-host": "sho.rt", "x-forwarded-proto": "https" };
      const created = await api.request("POST", "/shorten/", { json: { long_url: longUrl }, headers: forwarded });
      expect(created.status).toBe(400);
      expect((await readJson(created)).error).toEqual({ code: "invalid_url", message: "long_url must not point at this service" });
      const link = await api.createLink();
      const updated = await api.request("PUT", `/shorten/${link.short_url}/`, {
        json: { long_url: longUrl },
        headers: { ...forwarded, authorization: `Bearer ${link.manage_token}` },
      });
      expect(updated.status).toBe(400);
      expect((await readJson(updated)).error.code).toBe("invalid_url");
    });

    test.each([
      ["malformed JSON", '{"long_url":', "not valid JSON"],
      ["a missing long_url", "{}", "long_url"],
      ["a number for long_url", '{"long_url": 5}', "long_url"],
      ["a string body", '"https://example.com/"', "JSON object"],
      ["null", "null", "JSON object"],
      ["an array body", "[]", "JSON object"],
      ["a number for short_url", '{"long_url": "https://example.com/", "short_url": 7}', "short_url"],
    ])("answers 400 invalid_request for %s", async (_, body, mention) => {
      const response = await api.request("POST", "/shorten/", { body, headers: { "content-type": "application/json" } });
      expect(response.status).toBe(400);
      const error = (await readJson(response)).error;
      expect(error.code).toBe("invalid_request");
      expect(error.message).toContain(mention);
    });

    test("answers 415 when the body is not JSON", async () => {
      const response = await api.request("POST", "/shorten/", {
        body: "long_url=https://example.com/",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(response.status).toBe(415);
      expect(await readJson(response)).toEqual({ error: { code: "unsupported_media_type", message: "request body must be application/json" } });
    });

    test("answers 413 for a body over 64 KiB, declared or streamed", async () => {
      const big = JSON.stringify({ long_url: "https://example.com/", pad: "x".repeat(70_000) });
      const declared = await api.request("POST", "/shorten/", { body: big, headers: { "content-type": "application/json" } });
      expect(declared.status).toBe(413);
      expect((await readJson(declared)).error.code).toBe("payload_too_large");

      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(4096)));
          controller.close();
        },
      });
      const chunked = await api.app.handle(
        new Request("http://localhost/shorten/", { method: "POST", body: stream, headers: { "content-type": "application/json" } }),
      );
      expect(chunked.status).toBe(413);
    });

    test("stores the normalised URL", async () => {
      const body = await api.createLink("HTTPS://Example.COM/a b");
      expect(body.long_url).toBe("https://example.com/a%20b");
    });
  });

  describe("GET /shorten/<short_url>/ and /stats/", () => {
    test("reads the record with and without the trailing slash, without counting", async () => {
      const created = await api.createLink("https://example.com/read");
      for (const path of [`/shorten/${created.short_url}/`, `/shorten/${created.short_url}`]) {
        const response = await api.request("GET", path);
        expect(response.status).toBe(200);
        // Anyone reads the seed's fields; the options are the link's readers' (docs/people.md: "Private by default").
        expect(await readJson(response)).toEqual(publicPartOf(created));
        const asOwner = await api.request("GET", path, { headers: { authorization: `Bearer ${created.manage_token}` } });
        const { manage_token, ...record } = created;
        expect(await readJson(asOwner)).toEqual(record);
      }
      const stats = await api.request("GET", `/shorten/${created.short_url}/stats/`);
      expect(await readJson(stats)).toEqual({ short_url: created.short_url, ...seedStats });
      const ownStats = await api.request("GET", `/shorten/${created.short_url}/stats/`, { headers: { authorization: `Bearer ${created.manage_token}` } });
      expect(await readJson(ownStats)).toEqual({ short_url: created.short_url, ...fresh });
    });

    test("reports counts and the last access time after redirects", async () => {
      const created = await api.createLink("https://example.com/stats");
      for (let i = 0; i < 3; i++) await api.request("GET", `/${created.short_url}/`);
      const stats = await await readJson(await api.request("GET", `/shorten/${created.short_url}/stats`));
      expect(stats).toEqual({ short_url: created.short_url, ...seedStats, access_count: 3, last_accessed_at: iso });
    });

    test.each(["/shorten/nope404/", "/shorten/nope404/stats/", "/shorten/bad.code/"])("answers 404 not_found for %p", async (path) => {
      const response = await api.request("GET", path);
      expect(response.status).toBe(404);
      expect((await readJson(response)).error.code).toBe("not_found");
    });
  });

  describe("POST /shorten/stats/", () => {
    test("answers the stats of many links in one request: those that exist, in the order asked, each once", async () => {
      const first = await api.createLink("https://example.com/many-1");
      const second = await api.createLink("https://example.com/many-2");
      for (let i = 0; i < 2; i++) await api.request("GET", `/${second.short_url}/`);
      const short_urls = [second.short_url, "nope404", first.short_url, second.short_url, "bad.code"];
      const response = await api.request("POST", "/shorten/stats/", { json: { short_urls }, headers: { authorization: `Bearer ${api.adminToken()}` } });
      expect(response.status).toBe(200);
      expect(await readJson(response)).toMatchObject({
        results: [
          { short_url: second.short_url, ...seedStats, access_count: 2, last_accessed_at: iso },
          { short_url: first.short_url, ...seedStats },
        ],
      });
      // Without a credential, only the links whose manage tokens are sent: 500 codes a request would otherwise tell
      // which exist, around the gateway's budget of misses.
      const anonymous = async (json: object) =>
        ((await readJson(await api.request("POST", "/shorten/stats/", { json }))) as { results: Array<{ short_url: string }> }).results.map(
          (link) => link.short_url,
        );
      expect(await anonymous({ short_urls })).toEqual([]);
      expect(await anonymous({ short_urls, manage_tokens: [first.manage_token] })).toEqual([first.short_url]);
      expect(await anonymous({ short_urls, manage_tokens: [first.manage_token, second.manage_token] })).toEqual([second.short_url, first.short_url]);
    });

    test("says each link's state and protection to whoever sends its manage token: a list badges them without reading each record", async () => {
      const protectedOne = await readJson(
        await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/locked", password: "a long enough one" } }),
      );
      const usedUp = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/once", max_visits: 1 } }));
      await api.request("GET", `/${usedUp.short_url}/`);
      // A new link's expiry must lie ahead: it is moved into the past afterwards.
      const expired = await api.createLink("https://example.com/over");
      const change = await api.request("PUT", `/shorten/${expired.short_url}/`, {
        json: { expires_at: "2020-01-01T00:00:00Z" },
        headers: { authorization: `Bearer ${expired.manage_token}` },
      });
      expect(change.status).toBe(200);
      const short_urls = [protectedOne.short_url, usedUp.short_url, expired.short_url];
      const said = async (json: object) =>
        (await readJson(await api.request("POST", "/shorten/stats/", { json }))).results.map(
          ({ state, password_protected }: { state?: string; password_protected?: boolean }) => ({ state, password_protected }),
        );
      // The tokens of two of the three, one of them twice, a stranger's, and junk: each link is judged by its own.
      const stranger = (await api.createLink("https://example.com/stranger")).manage_token;
      const manage_tokens = [protectedOne.manage_token, expired.manage_token, expired.manage_token, stranger, "junk", ""];
      // Without a credential, the links whose tokens are sent are the ones listed.
      expect(await said({ short_urls, manage_tokens })).toEqual([
        { state: "active", password_protected: true },
        { state: "expired", password_protected: false },
      ]);
      expect(await said({ short_urls })).toEqual([]);
      expect(await said({ short_urls, manage_tokens: [usedUp.manage_token] })).toContainEqual({ state: "exhausted", password_protected: false });
      const one = (authorization?: string) =>
        api.request("GET", `/shorten/${protectedOne.short_url}/stats/`, authorization ? { headers: { authorization } } : {}).then(readJson);
      expect(await one()).not.toHaveProperty("state");
      expect(await one(`Bearer ${protectedOne.manage_token}`)).toMatchObject({ state: "active", password_protected: true });
      // An admin reads every link.
      expect(await one(`Bearer ${api.adminToken()}`)).toMatchObject({ state: "active", password_protected: true });
    });

    test.each([
      ["no code", { short_urls: [] }],
      ["501 codes", { short_urls: Array.from({ length: 501 }, (_, i) => `code${i}`) }],
      ["a code that is no string", { short_urls: [7] }],
      ["no list", {}],
    ])("refuses %s with 400 invalid_request", async (_, json) => {
      const response = await api.request("POST", "/shorten/stats/", { json });
      expect(response.status).toBe(400);
      expect((await readJson(response)).error.code).toBe("invalid_request");
    });
  });

  describe("PUT and DELETE /shorten/<short_url>/", () => {
    test("the manage token replaces the long URL", async () => {
      const created = await api.createLink("https://example.com/old");
      const response = await api.request("PUT", `/shorten/${created.short_url}/`, {
        json: { long_url: "https://example.com/new" },
        headers: { authorization: `Bearer ${created.manage_token}` },
      });
      expect(response.status).toBe(200);
      const body = await readJson(response);
      expect(body).toMatchObject({ short_url: created.short_url, long_url: "https://example.com/new" });
      const redirect = await api.request("GET", `/${created.short_url}`);
      expect(redirect.headers.get("location")).toBe("https://example.com/new");
    });

    test("answers 401 without credentials and 403 with another link's token", async () => {
      const mine = await api.createLink("https://example.com/mine");
      const theirs = await api.createLink("https://example.com/theirs");
      const anonymous = await api.request("PUT", `/shorten/${mine.short_url}/`, { json: { long_url: "https://evil.example/" } });
      expect(anonymous.status).toBe(401);
      expect((await readJson(anonymous)).error.code).toBe("unauthorized");
      const stranger = await api.request("DELETE", `/shorten/${mine.short_url}/`, { headers: { authorization: `Bearer ${theirs.manage_token}` } });
      expect(stranger.status).toBe(403);
      expect((await readJson(stranger)).error.code).toBe("forbidden");
      expect((await await readJson(await api.request("GET", `/shorten/${mine.short_url}/`))).long_url).toBe("https://example.com/mine");
    });

    test("answers 401 for a forged or expired admin token", async () => {
      const created = await api.createLink();
      const forged = api.adminToken().replace(/.$/, (c) => (c === "A" ? "B" : "A"));
      const response = await api.request("DELETE", `/shorten/${created.short_url}/`, { headers: { authorization: `Bearer ${forged}` } });
      expect(response.status).toBe(401);
    });

    test("an admin token may edit and delete any link", async () => {
      const created = await api.createLink("https://example.com/any");
      const auth = { authorization: `Bearer ${api.adminToken()}` };
      const put = await api.request("PUT", `/shorten/${created.short_url}`, { json: { long_url: "https://example.com/admin" }, headers: auth });
      expect(put.status).toBe(200);
      const del = await api.request("DELETE", `/shorten/${created.short_url}`, { headers: auth });
      expect(del.status).toBe(204);
      expect(await del.text()).toBe("");
    });

    test("a deleted link is gone for reads and redirects", async () => {
      const created = await api.createLink("https://example.com/gone");
      await api.request("GET", `/${created.short_url}/`);
      const del = await api.request("DELETE", `/shorten/${created.short_url}/`, { headers: { authorization: `Bearer ${created.manage_token}` } });
      expect(del.status).toBe(204);
      expect((await api.request("GET", `/shorten/${created.short_url}/`)).status).toBe(404);
      expect((await api.request("GET", `/${created.short_url}/`)).status).toBe(404);
      const again = await api.request("DELETE", `/shorten/${created.short_url}/`, { headers: { authorization: `Bearer ${created.manage_token}` } });
      expect(again.status).toBe(404);
    });

    test("PUT checks the new URL (400 invalid_url) and the body (415, 400)", async () => {
      const created = await api.createLink();
      const auth = { authorization: `Bearer ${created.manage_token}` };
      const badUrl = await api.request("PUT", `/shorten/${created.short_url}/`, { json: { long_url: "mailto:a@b.c" }, headers: auth });
      expect((await readJson(badUrl)).error.code).toBe("invalid_url");
      const text = await api.request("PUT", `/shorten/${created.short_url}/`, {
        body: "https://example.com/",
        headers: { ...auth, "content-type": "text/plain" },
      });
      expect(text.status).toBe(415);
      const missing = await api.request("PUT", `/shorten/${created.short_url}/`, { json: {}, headers: auth });
      expect(missing.status).toBe(400);
    });

    test("PUT on an unknown code with a token answers 404", async () => {
      const { manage_token } = await api.createLink();
      const response = await api.request("PUT", "/shorten/unknown-code/", {
        json: { long_url: "https://example.com/" },
        headers: { authorization: `Bearer ${manage_token}` },
      });
      expect(response.status).toBe(404);
    });
  });

  describe("GET /shorten/ (admin listing)", () => {
    test("needs credentials: 401 without", async () => {
      const response = await api.request("GET", "/shorten/");
      expect(response.status).toBe(401);
      expect((await readJson(response)).error.code).toBe("unauthorized");
    });

    test("a manage token lists the one link it manages, whatever the paging, search and sort", async () => {
      const created = await api.createLink("https://example.com/mine-only");
      await api.createLink("https://example.com/someone-else");
      const { manage_token, ...record } = created;
      for (const query of ["", "?page=3&page_size=1&q=nothing-matches&sort=most_visited"]) {
        const response = await api.request("GET", `/shorten/${query}`, { headers: { authorization: `Bearer ${manage_token}` } });
        expect(response.status).toBe(200);
        expect(await readJson(response)).toEqual({
          count: 1,
          count_is_estimate: false,
          next: null,
          previous: null,
          results: [{ ...record, last_accessed_at: null }],
        });
      }
    });

    test("a manage token no link has is 401, and so is the token of a deleted link", async () => {
      const unknown = await api.request("GET", "/shorten/", { headers: { authorization: `Bearer ${"x".repeat(43)}` } });
      expect(unknown.status).toBe(401);
      expect(await readJson(unknown)).toEqual({ error: { code: "unauthorized", message: "no short URL has this manage token" } });
      const deleted = await api.createLink();
      await api.request("DELETE", `/shorten/${deleted.short_url}/`, { headers: { authorization: `Bearer ${deleted.manage_token}` } });
      expect((await api.request("GET", "/shorten/", { headers: { authorization: `Bearer ${deleted.manage_token}` } })).status).toBe(401);
    });

    test("a manage token still gets 400 for a bad query, like an admin", async () => {
      const created = await api.createLink();
      const response = await api.request("GET", "/shorten/?sort=bogus", { headers: { authorization: `Bearer ${created.manage_token}` } });
      expect(response.status).toBe(400);
    });

    test("pages and searches, with next and previous links", async () => {
      const tag = `lst${engine}${Date.now().toString(36)}`;
      for (let i = 0; i < 5; i++) await api.createLink(`https://list.example/${tag}/${i}`);
      const auth = { authorization: `Bearer ${api.adminToken()}` };
      const first = await await readJson(await api.request("GET", `/shorten/?page_size=2&q=${tag.toUpperCase()}`, { headers: auth }));
      expect(first.count).toBe(5);
      expect(first.count_is_estimate).toBe(false);
      expect(first.results.map((r: { long_url: string }) => r.long_url)).toEqual([`https://list.example/${tag}/4`, `https://list.example/${tag}/3`]);
      expect(first.previous).toBeNull();
      expect(first.next).toBe(`http://localhost/shorten/?page=2&page_size=2&q=${tag.toUpperCase()}`);
      const last = await await readJson(await api.request("GET", `/shorten/?page=3&page_size=2&q=${tag}`, { headers: auth }));
      expect(last.results).toHaveLength(1);
      expect(last.next).toBeNull();
      expect(last.previous).toBe(`http://localhost/shorten/?page=2&page_size=2&q=${tag}`);
    });

    test("sorts by most visits or by the last visit (never-visited last), after real redirects; next and previous keep the sort", async () => {
      const tag = `srt${engine}${Date.now().toString(36)}`;
      const [a, b, c] = [
        await api.createLink(`https://sort.example/${tag}/a`),
        await api.createLink(`https://sort.example/${tag}/b`),
        await api.createLink(`https://sort.example/${tag}/c`),
      ];
      // The clock moves a second per reading: a is visited twice, then c once, last; b never.
      for (const code of [a.short_url, a.short_url, c.short_url]) expect((await api.request("GET", `/${code}/`)).status).toBe(302);
      const auth = { authorization: `Bearer ${api.adminToken()}` };
      const codesOf = (page: { results: Array<{ short_url: string }> }) => page.results.map((r) => r.short_url);

      const mostVisited = await readJson(await api.request("GET", `/shorten/?page_size=2&q=${tag}&sort=most_visited`, { headers: auth }));
      expect(codesOf(mostVisited)).toEqual([a.short_url, c.short_url]);
      expect(mostVisited.results.map((r: { access_count: number }) => r.access_count)).toEqual([2, 1]);
      expect(mostVisited.next).toBe(`http://localhost/shorten/?page=2&page_size=2&q=${tag}&sort=most_visited`);
      const secondPage = await readJson(await api.request("GET", new URL(mostVisited.next).pathname + new URL(mostVisited.next).search, { headers: auth }));
      expect(codesOf(secondPage)).toEqual([b.short_url]);
      expect(secondPage.previous).toBe(`http://localhost/shorten/?page=1&page_size=2&q=${tag}&sort=most_visited`);

      const lastVisited = await readJson(await api.request("GET", `/shorten/?q=${tag}&sort=last_visited`, { headers: auth }));
      expect(codesOf(lastVisited)).toEqual([c.short_url, a.short_url, b.short_url]);
      // Each listed record says when it was last followed, as its stats do.
      for (const record of lastVisited.results as Array<{ short_url: string; last_accessed_at: string | null }>) {
        const stats = await readJson(await api.request("GET", `/shorten/${record.short_url}/stats/`));
        expect(record.last_accessed_at).toBe(stats.last_accessed_at);
      }
      expect(lastVisited.results[2].last_accessed_at).toBeNull();
      const newest = await readJson(await api.request("GET", `/shorten/?q=${tag}&sort=newest`, { headers: auth }));
      expect(codesOf(newest)).toEqual([c.short_url, b.short_url, a.short_url]);
    });

    test.each(["sort=bogus", "sort=", "sort=NEWEST", "sort=newest%00", `sort=${"x".repeat(10_000)}`])(
      "answers 400 invalid_request naming the sorts for %p",
      async (query) => {
        const response = await api.request("GET", `/shorten/?${query}`, { headers: { authorization: `Bearer ${api.adminToken()}` } });
        expect(response.status).toBe(400);
        expect(await readJson(response)).toEqual({ error: { code: "invalid_request", message: "sort must be newest, most_visited or last_visited" } });
      },
    );

    test.each(["page=0", "page=abc", "page_size=101", "page_size=0", "page=1e308", "page=99999999999", "q=a%00b", "q=%1b%5b31m"])(
      "answers 400 for %p",
      async (query) => {
        const response = await api.request("GET", `/shorten/?${query}`, { headers: { authorization: `Bearer ${api.adminToken()}` } });
        expect(response.status).toBe(400);
        expect((await readJson(response)).error.code).toBe("invalid_request");
      },
    );

    // Undecodable bytes, the search index's own syntax, and its longest search: a page (maybe empty), never a 5xx.
    test.each([
      ["undecodable bytes", "q=%FF%FE%FD"],
      ["three double quotes", "q=%22%22%22"],
      ["FTS5 operators", "q=NEAR(a%20b)*"],
      ["a bidi override and an emoji", "q=%E2%80%AE%F0%9F%92%A9"],
      ["200 double quotes", `q=${"%22".repeat(200)}`],
      ["LIKE wildcards, 200 characters", `q=${"ab%25_".repeat(40)}`],
    ])("searches %p without failing", async (query) => {
      const response = await api.request("GET", `/shorten/?${query}`, { headers: { authorization: `Bearer ${api.adminToken()}` } });
      expect(response.status).toBe(200);
      expect(await readJson(response)).toMatchObject({ count: expect.any(Number), count_is_estimate: false, results: expect.any(Array) });
    });

    test.each(["a b", "sho.rt:99999", "[::1", "evil.example/x", "a@evil.example", "\u00e9vil.example"])(
      "a malformed X-Forwarded-Host %p is ignored: the links use the request's own host",
      async (forwardedHost) => {
        const response = await api.request("GET", "/shorten/?page_size=1", {
          headers: { authorization: `Bearer ${api.adminToken()}`, "x-forwarded-host": forwardedHost, "x-forwarded-proto": "https" },
        });
        expect(response.status).toBe(200);
        const page = await readJson(response);
        expect(page.results[0].link).toStartWith("https://localhost/");
        expect(page.next).toStartWith("https://localhost/shorten/?page=2");
      },
    );
  });

  describe("POST /admin/login", () => {
    test.each([
      ["a NUL in the username", { username: "ad\u0000min", password: "x" }],
      ["an escape sequence in the username", { username: "\u001b[31madmin", password: "x" }],
    ])("answers 400 invalid_request for %s, before the database sees it", async (_, body) => {
      const response = await api.request("POST", "/admin/login", { json: body });
      expect(response.status).toBe(400);
      expect((await readJson(response)).error.code).toBe("invalid_request");
    });

    test("a NUL in the password is just a wrong password (401)", async () => {
      const response = await api.request("POST", "/admin/login", { json: { username: "nobody", password: "pass\u0000word" } });
      expect(response.status).toBe(401);
      expect((await readJson(response)).error.code).toBe("unauthorized");
    });
  });
});
