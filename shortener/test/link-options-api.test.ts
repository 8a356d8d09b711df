import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { loadIpCountries } from "../src/visits/load-ip-countries.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

// Real User-Agents of the devices a rule can name.
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const androidPhone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const androidTablet = "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const windowsChrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

const countries = loadIpCountries().countries;

describe.each(["sqlite", "postgres"] as const)("link options on %s", (engine) => {
  let api: TestShortener;
  let now = new Date("2026-11-26T12:00:00.000Z");
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });

  beforeAll(async () => {
    api = await startTestShortener({ engine, clock: () => now, visitClassifier: new VisitClassifier({ countries }) });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const create = async (options: Record<string, unknown>, longUrl = "https://example.com/target") => {
    const response = await api.request("POST", "/shorten/", { json: { long_url: longUrl, ...options } });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    return readJson(response);
  };
  const follow = (code: string, headers: Record<string, string> = {}, query = "") => api.request("GET", `/${code}/${query}`, { headers });
  const orphanKinds = async (): Promise<{ exhausted: number; expired: number; password: number; unknown: number }> => {
    await api.orphans.drain();
    const report = await readJson(await api.request("GET", "/admin/visits/orphans/?from=2026-11-01", { headers: admin() }));
    const kinds = { exhausted: 0, expired: 0, password: 0, unknown: 0 };
    for (const { value, visits } of report.top.kinds as Array<{ value: keyof typeof kinds; visits: number }>) kinds[value] = visits;
    return kinds;
  };
  const linkCount = async () => (await readJson(await api.request("GET", "/shorten/?page_size=1", { headers: admin() }))).count;

  describe("creating and changing", () => {
    test("every option is kept and shown; the password never is, and tags are lower-cased once", async () => {
      const record = await create({
        expires_at: "2026-12-31T23:59:59+01:00",
        max_visits: 500,
        expired_url: "https://example.com/over",
        redirect_status: 308,
        password: "correct horse",
        tags: ["Launch", "launch", "q4_2026"],
        title: "Spring launch",
        forward_query: true,
        rules: [{ when: { device: "ios", country: "de" }, url: "https://example.com/de-ios" }],
      });
      expect(record).toMatchObject({
        expires_at: "2026-12-31T22:59:59.000Z",
        max_visits: 500,
        expired_url: "https://example.com/over",
        redirect_status: 308,
        password_protected: true,
        tags: ["launch", "q4_2026"],
        title: "Spring launch",
        forward_query: true,
        rules: [{ when: { device: "ios", country: "DE" }, url: "https://example.com/de-ios" }],
        state: "active",
      });
      expect(JSON.stringify(record)).not.toContain("correct horse");
      expect(JSON.stringify(record)).not.toContain("argon2");
    });

    test.each([
      [{ expires_at: "tomorrow" }, "expires_at"],
      [{ expires_at: "2026-02-30T10:00:00Z" }, "expires_at"],
      [{ expires_at: "2026-11-26T10:00:00" }, "expires_at"],
      [{ expires_at: "2026-11-26T11:59:59Z" }, "expires_at is already past"],
      [{ expires_at: 1798675200000 }, "expires_at"],
      [{ max_visits: 0 }, "max_visits"],
      [{ max_visits: -3 }, "max_visits"],
      [{ max_visits: 2.5 }, "max_visits"],
      [{ max_visits: 2_147_483_648 }, "max_visits"],
      [{ max_visits: "10" }, "max_visits"],
      [{ expired_url: "ftp://example.com/" }, "expired_url"],
      [{ expired_url: "http://localhost/" }, "expired_url"],
      [{ redirect_status: 303 }, "redirect_status"],
      [{ redirect_status: "301" }, "redirect_status"],
      [{ password: "short" }, "password"],
      [{ password: "x".repeat(129) }, "password"],
      [{ password: "tab\there!" }, "password"],
      [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, "tags"],
      [{ tags: ["has space"] }, "tags"],
      [{ tags: [""] }, "tags"],
      [{ tags: ["x".repeat(33)] }, "tags"],
      [{ tags: "launch" }, "tags"],
      [{ title: "t".repeat(201) }, "title"],
      [{ title: "bell\u0007" }, "title"],
      [{ forward_query: "yes" }, "forward_query"],
      [{ rules: Array.from({ length: 21 }, () => ({ when: { device: "ios" }, url: "https://example.com/" })) }, "rules"],
      [{ rules: [{ when: {}, url: "https://example.com/" }] }, "rules.0.when"],
      [{ rules: [{ when: { device: "fridge" }, url: "https://example.com/" }] }, "rules.0.when.device"],
      [{ rules: [{ when: { country: "Germany" }, url: "https://example.com/" }] }, "rules.0.when.country"],
      [{ rules: [{ when: { language: "english" }, url: "https://example.com/" }] }, "rules.0.when.language"],
      [{ rules: [{ when: { browser: "firefox" }, url: "https://example.com/" }] }, "rules.0.when"],
      [{ rules: [{ when: { device: "ios" }, url: "javascript:alert(1)" }] }, "rules.0.url"],
      [{ rules: [{ when: { device: "ios" }, url: "https://example.com/", extra: 1 }] }, "rules.0"],
      [{ rules: [{ when: { device: "ios" } }] }, "rules.0.url"],
    ])("%j is a 400 naming %s, and stores nothing", async (options, field) => {
      const before = await linkCount();
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/bad", ...options } });
      expect(response.status).toBe(400);
      const { error } = await readJson(response);
      expect(["invalid_request", "invalid_url"]).toContain(error.code);
      expect(error.message).toContain(field);
      expect(await linkCount()).toBe(before);
    });

    test("rules of a megabyte are refused before they are read", async () => {
      const rules = Array.from({ length: 8_000 }, (_, i) => ({ when: { language: "de" }, url: `https://example.com/${"x".repeat(100)}${i}` }));
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", rules } });
      expect(response.status).toBe(413);
    });

    test("PUT sets, keeps and clears each option; a past expiry is allowed there (it expires the link)", async () => {
      const created = await create({ tags: ["a"], title: "first", max_visits: 5, password: "a long secret" });
      const auth = { authorization: `Bearer ${created.manage_token}` };
      const put = async (json: Record<string, unknown>) => readJson(await api.request("PUT", `/shorten/${created.short_url}/`, { json, headers: auth }));
      expect(await put({ title: "second" })).toMatchObject({
        title: "second",
        tags: ["a"],
        max_visits: 5,
        password_protected: true,
        long_url: "https://example.com/target",
      });
      expect(await put({ tags: null, max_visits: null, password: null })).toMatchObject({
        tags: [],
        max_visits: null,
        password_protected: false,
        title: "second",
      });
      expect(await put({ long_url: "https://example.com/moved", redirect_status: 301 })).toMatchObject({
        long_url: "https://example.com/moved",
        redirect_status: 301,
      });
      expect(await put({ expires_at: "2026-11-26T11:00:00Z" })).toMatchObject({ state: "expired" });
      const empty = await api.request("PUT", `/shorten/${created.short_url}/`, { json: {}, headers: auth });
      expect(empty.status).toBe(400);
    });

    test("a bad option in a PUT changes nothing, not even the fields beside it", async () => {
      const created = await create({ title: "kept" });
      const response = await api.request("PUT", `/shorten/${created.short_url}/`, {
        json: { title: "lost", max_visits: 0 },
        headers: { authorization: `Bearer ${created.manage_token}` },
      });
      expect(response.status).toBe(400);
      expect(await readJson(await api.request("GET", `/shorten/${created.short_url}/`, { headers: admin() }))).toMatchObject({ title: "kept" });
    });
  });

  describe("unknown and read-only fields", () => {
    const unknownTail = ": not among the fields this request takes";

    test("a misspelled option is a 400 naming every unknown field, on create and on PUT, and stores nothing", async () => {
      const before = await linkCount();
      const misspelled = await api.request("POST", "/shorten/", {
        json: { long_url: "https://example.com/typo", max_visit: 5, expire_at: "2026-12-31T00:00:00Z" },
      });
      expect([misspelled.status, await readJson(misspelled)]).toEqual([
        400,
        { error: { code: "invalid_request", message: `unknown fields "max_visit", "expire_at"${unknownTail}` } },
      ]);
      expect(await linkCount()).toBe(before);
      const created = await create({ title: "kept" });
      const put = await api.request("PUT", `/shorten/${created.short_url}/`, {
        json: { titel: "lost", max_visits: 5 },
        headers: { authorization: `Bearer ${created.manage_token}` },
      });
      expect([put.status, await readJson(put)]).toEqual([400, { error: { code: "invalid_request", message: `unknown field "titel"${unknownTail}` } }]);
      expect(await readJson(await api.request("GET", `/shorten/${created.short_url}/`, { headers: admin() }))).toMatchObject({
        title: "kept",
        max_visits: null,
      });
    });

    test("thousands of unknown fields, or a long one, are answered with a short message: the first ten, cut short, and how many more", async () => {
      const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]));
      const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", ...many } });
      const firstTen = Array.from({ length: 10 }, (_, i) => `"k${i}"`).join(", ");
      expect([response.status, await readJson(response)]).toEqual([
        400,
        { error: { code: "invalid_request", message: `unknown fields ${firstTen} and 4990 more${unknownTail}` } },
      ]);
      const long = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", ["x".repeat(10_000)]: 1 } });
      expect((await readJson(long)).error.message).toBe(`unknown field "${"x".repeat(40)}…"${unknownTail}`);
    });

    test("a record read may be sent back whole: its read-only fields are accepted and ignored", async () => {
      const created = await create({ title: "round trip", tags: ["a"], max_visits: 10, rules: [{ when: { device: "ios" }, url: "https://example.com/ios" }] });
      const auth = { authorization: `Bearer ${created.manage_token}` };
      await follow(created.short_url);
      const page = await readJson(await api.request("GET", `/shorten/?q=${created.short_url}`, { headers: admin() }));
      const listed = page.results.find((record: { short_url: string }) => record.short_url === created.short_url);
      // The listing's record (with last_accessed_at) and the create's answer (with manage_token) alike.
      const sentBack = { ...listed, manage_token: created.manage_token, long_url: "https://example.com/moved", access_count: 1000, state: "expired" };
      const put = await api.request("PUT", `/shorten/${created.short_url}/`, { json: sentBack, headers: auth });
      expect(put.status).toBe(200);
      const { updated_at: _changed, last_accessed_at: _notInRecord, manage_token: _notShown, ...unchanged } = sentBack;
      expect(await readJson(put)).toEqual({ ...unchanged, access_count: 1, state: "active", updated_at: expect.any(String) });
      // Read-only fields on create are ignored too: a record copied into a new link under another alias.
      const { short_url: _code, manage_token: _token, last_accessed_at: _last, ...copy } = sentBack;
      const copied = await api.request("POST", "/shorten/", { json: { ...copy, short_url: `copy-${engine}` } });
      expect(copied.status).toBe(201);
      expect(await readJson(copied)).toMatchObject({ short_url: `copy-${engine}`, access_count: 0, state: "active", title: "round trip" });
    });

    test("a PUT may send the link's own short_url, never another: a link is not renamed", async () => {
      const created = await create({ title: "named" });
      const auth = { authorization: `Bearer ${created.manage_token}` };
      const same = await api.request("PUT", `/shorten/${created.short_url}/`, { json: { short_url: created.short_url, title: "renamed?" }, headers: auth });
      expect([same.status, (await readJson(same)).title]).toEqual([200, "renamed?"]);
      const other = await api.request("PUT", `/shorten/${created.short_url}/`, { json: { short_url: `other-${engine}`, title: "lost" }, headers: auth });
      expect([other.status, await readJson(other)]).toEqual([
        400,
        { error: { code: "invalid_request", message: "short_url cannot be changed: send the link's own code, or leave it out" } },
      ]);
      expect((await readJson(await api.request("GET", `/shorten/${created.short_url}/`, { headers: admin() }))).title).toBe("renamed?");
    });
  });

  describe("following a link", () => {
    test("a cap lets exactly that many redirects through, then 410 (or expired_url); the count stays at the cap", async () => {
      const capped = await create({ max_visits: 3 });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await follow(capped.short_url)).status);
      expect(statuses).toEqual([302, 302, 302, 410, 410]);
      expect(await readJson(await api.request("GET", `/shorten/${capped.short_url}/`, { headers: admin() }))).toMatchObject({
        access_count: 3,
        state: "exhausted",
      });
    });

    test("expiry: redirects before it, none after, with the cache warm; expired_url takes over where there is one", async () => {
      const expiring = await create({ expires_at: new Date(now.getTime() + 2000).toISOString() });
      const elsewhere = await create({ expires_at: new Date(now.getTime() + 2000).toISOString(), expired_url: "https://example.com/sorry" });
      // Warm every cache: a HEAD fills the entry, a GET marks the link hot.
      expect((await api.request("HEAD", `/${expiring.short_url}/`)).headers.get("location")).toBe("https://example.com/target");
      expect((await follow(expiring.short_url)).headers.get("location")).toBe("https://example.com/target");
      const saved = now;
      now = new Date(saved.getTime() + 2000);
      try {
        const gone = await follow(expiring.short_url);
        expect(gone.status).toBe(410);
        expect(await readJson(gone)).toEqual({ error: { code: "gone", message: "this short link has expired" } });
        const page = await follow(expiring.short_url, { accept: "text/html" });
        expect(page.status).toBe(410);
        expect(await page.text()).toContain("no longer available");
        expect((await api.request("HEAD", `/${expiring.short_url}/`)).status).toBe(410);
        const redirected = await follow(elsewhere.short_url);
        expect([redirected.status, redirected.headers.get("location")]).toEqual([302, "https://example.com/sorry"]);
        expect(await readJson(await api.request("GET", `/shorten/${expiring.short_url}/`, { headers: admin() }))).toMatchObject({
          access_count: 1,
          state: "expired",
        });
      } finally {
        now = saved;
      }
    });

    test("a link's own status; a permanent one may be kept by browsers a while, never past the expiry", async () => {
      const moved = await create({ redirect_status: 301 });
      const temporary = await create({ redirect_status: 307 });
      const expiring = await create({ redirect_status: 308, expires_at: new Date(now.getTime() + 10_000).toISOString() });
      const answer = async (code: string) => {
        const response = await follow(code);
        return [response.status, response.headers.get("cache-control")];
      };
      expect(await answer(moved.short_url)).toEqual([301, "private, max-age=30"]);
      expect(await answer(temporary.short_url)).toEqual([307, "private, max-age=0"]);
      expect(await answer(expiring.short_url)).toEqual([308, "private, max-age=10"]);
    });

    test("forward_query adds the short URL's query, replacing the destination's parameters of the same name", async () => {
      const forwarding = await create({ forward_query: true }, "https://example.com/page?utm_source=default&keep=1");
      const plain = await create({}, "https://example.com/page?keep=1");
      const location = async (code: string, query: string) => (await follow(code, {}, query)).headers.get("location");
      expect(await location(forwarding.short_url, "?utm_source=twitter&utm_medium=social")).toBe(
        "https://example.com/page?keep=1&utm_source=twitter&utm_medium=social",
      );
      expect(await location(forwarding.short_url, "")).toBe("https://example.com/page?utm_source=default&keep=1");
      expect(await location(plain.short_url, "?utm_source=twitter")).toBe("https://example.com/page?keep=1");
      // The destination's own query stays as written: a flag, a `;`, its own escapes.
      const signed = await create({ forward_query: true }, "https://example.com/p?flag&sig=a;b&x=%7E");
      expect(await location(signed.short_url, "?utm_source=t")).toBe("https://example.com/p?flag&sig=a;b&x=%7E&utm_source=t");
      expect(await location(signed.short_url, "?sig=theirs")).toBe("https://example.com/p?flag&x=%7E&sig=theirs");
    });

    test("rules by device, country and language: the first match wins, no match is the long URL", async () => {
      const targeted = await create({
        rules: [
          { when: { device: "ios" }, url: "https://example.com/ios" },
          { when: { device: "android" }, url: "https://example.com/android" },
          { when: { device: "tablet" }, url: "https://example.com/tablet" },
          { when: { country: "DE", language: "de" }, url: "https://example.com/de-de" },
          { when: { country: "GB" }, url: "https://example.com/gb" },
          { when: { language: "fr" }, url: "https://example.com/fr" },
        ],
      });
      const location = async (headers: Record<string, string>) => (await follow(targeted.short_url, headers)).headers.get("location");
      expect(await location({ "user-agent": iphone })).toBe("https://example.com/ios");
      expect(await location({ "user-agent": androidPhone })).toBe("https://example.com/android");
      expect(await location({ "user-agent": androidTablet })).toBe("https://example.com/android");
      // Humboldt-Universität (DE) and Cambridge (GB), as the gateway forwards them.
      expect(await location({ "user-agent": windowsChrome, "x-forwarded-for": "141.20.5.188", "accept-language": "de-DE,de;q=0.9,en;q=0.8" })).toBe(
        "https://example.com/de-de",
      );
      expect(await location({ "user-agent": windowsChrome, "x-forwarded-for": "141.20.5.188", "accept-language": "en-US,en;q=0.9,de;q=0.5" })).toBe(
        "https://example.com/target",
      );
      expect(await location({ "user-agent": windowsChrome, "x-forwarded-for": "131.111.8.46" })).toBe("https://example.com/gb");
      expect(await location({ "user-agent": windowsChrome, "accept-language": "fr-CA;q=0.8, en;q=0.5" })).toBe("https://example.com/fr");
      expect(await location({ "user-agent": windowsChrome })).toBe("https://example.com/target");
    });

    test("a visitor is classified once per redirect: the rules read the facts the count write made for analytics", async () => {
      const classifier = new VisitClassifier({ countries });
      let classified = 0;
      const counting: Pick<VisitClassifier, "classify"> = {
        classify: (input) => {
          classified++;
          return classifier.classify(input);
        },
      };
      await using shortener = await startTestShortener({ engine, clock: () => now, visitClassifier: counting });
      const created = await readJson(
        await shortener.request("POST", "/shorten/", {
          json: {
            long_url: "https://example.com/target",
            rules: [{ when: { device: "desktop", country: "GB", language: "de" }, url: "https://example.com/de" }],
          },
        }),
      );
      const cambridge = { "user-agent": windowsChrome, "x-forwarded-for": "131.111.8.46" };
      const locations = [];
      for (const language of ["de-DE", "en-GB", "de"]) {
        const response = await shortener.request("GET", `/${created.short_url}/`, { headers: { ...cambridge, "accept-language": language } });
        locations.push(response.headers.get("location"));
      }
      expect(locations).toEqual(["https://example.com/de", "https://example.com/target", "https://example.com/de"]);
      expect(classified).toBe(3);
    });
  });

  describe("a password-protected link", () => {
    let link: { short_url: string; manage_token: string };
    /** Another link's manage token: a real one, that may not manage this link. */
    let notItsToken: string;
    beforeAll(async () => {
      link = await create({ password: "open sesame", expired_url: "https://example.com/secret-over" }, "https://example.com/secret");
      notItsToken = (await create({})).manage_token;
    });

    test("GET answers 401 without the destination: a JSON error for API clients, the unlock form for browsers", async () => {
      const json = await follow(link.short_url);
      expect(json.status).toBe(401);
      expect(json.headers.get("location")).toBeNull();
      expect((await readJson(json)).error.code).toBe("unauthorized");
      const page = await follow(link.short_url, { accept: "text/html" });
      expect(page.status).toBe(401);
      const html = await page.text();
      expect(html).toContain('<form method="post">');
      expect(html).not.toContain("example.com/secret");
      const head = await api.request("HEAD", `/${link.short_url}/`);
      expect([head.status, head.headers.get("location")]).toEqual([401, null]);
    });

    test("the record hides its URLs from anyone but its manager and admins, and its options too", async () => {
      const anonymous = await readJson(await api.request("GET", `/shorten/${link.short_url}/`));
      expect(anonymous).toMatchObject({ long_url: null });
      for (const option of ["expired_url", "password_protected", "state"]) expect(anonymous).not.toHaveProperty(option);
      const wrongToken = await readJson(await api.request("GET", `/shorten/${link.short_url}/`, { headers: { authorization: `Bearer ${notItsToken}` } }));
      expect(wrongToken.long_url).toBeNull();
      expect(wrongToken).not.toHaveProperty("expired_url");
      const managed = await readJson(await api.request("GET", `/shorten/${link.short_url}/`, { headers: { authorization: `Bearer ${link.manage_token}` } }));
      expect(managed).toMatchObject({ long_url: "https://example.com/secret", expired_url: "https://example.com/secret-over" });
      expect((await readJson(await api.request("GET", `/shorten/${link.short_url}/`, { headers: admin() }))).long_url).toBe("https://example.com/secret");
    });

    test("the right password (form or JSON) is the redirect, counted; a wrong one is 401 and counts nothing", async () => {
      const form = (password: string, accept = "text/html") =>
        api.request("POST", `/${link.short_url}/`, {
          body: new URLSearchParams({ password }).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded", accept },
        });
      const wrong = await form("not the password");
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain("That password is not right");
      const wrongJson = await api.request("POST", `/${link.short_url}`, { json: { password: "not the password" } });
      expect([wrongJson.status, (await readJson(wrongJson)).error.code]).toEqual([401, "unauthorized"]);
      const right = await form("open sesame");
      // 303 whatever the link's status: a 307 or 308 would post the password on to the destination.
      expect([right.status, right.headers.get("location"), right.headers.get("cache-control"), right.headers.get("referrer-policy")]).toEqual([
        303,
        "https://example.com/secret",
        "no-store",
        "no-referrer",
      ]);
      const rightJson = await api.request("POST", `/${link.short_url}`, { json: { password: "open sesame" } });
      expect(rightJson.headers.get("location")).toBe("https://example.com/secret");
      const stats = await readJson(await api.request("GET", `/shorten/${link.short_url}/stats/`));
      expect(stats.access_count).toBe(2);
    });

    test("visits that led nowhere are counted by kind: expired, used up, wrong password; not a first look at the form", async () => {
      const before = await orphanKinds();
      const used = await create({ max_visits: 1 });
      const expired = await create({ expires_at: new Date(now.getTime() + 1000).toISOString() });
      await follow(used.short_url);
      await follow(used.short_url, { "user-agent": windowsChrome, referer: "https://news.example/item" });
      await follow(link.short_url, { accept: "text/html" });
      await api.request("POST", `/${link.short_url}`, { json: { password: "wrong password" } });
      const saved = now;
      now = new Date(saved.getTime() + 1000);
      try {
        await follow(expired.short_url);
      } finally {
        now = saved;
      }
      const after = await orphanKinds();
      // Paths no link could have (a browser's own /favicon.ico) are not visits at all.
      await follow("favicon.ico");
      await api.request("GET", "/robots.txt");
      expect({
        exhausted: after.exhausted - before.exhausted,
        expired: after.expired - before.expired,
        password: after.password - before.password,
        unknown: (await orphanKinds()).unknown - after.unknown,
      }).toEqual({
        unknown: 0,
        exhausted: 1,
        expired: 1,
        password: 1,
      });
    });

    test("the unlock answer is a 303 even for a link whose own status is 307 or 308, which would re-post the password", async () => {
      for (const status of [307, 308]) {
        const own = await create({ password: "correct horse", redirect_status: status });
        const right = await api.request("POST", `/${own.short_url}/`, {
          body: "password=correct+horse",
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        expect([right.status, right.headers.get("location")]).toEqual([303, "https://example.com/target"]);
      }
    });

    test("an expired or used-up protected link tells nothing before the password: not its expired_url, not its state", async () => {
      const used = await create({ password: "correct horse", max_visits: 1, expired_url: "https://secret.example/after" });
      const unlock = () =>
        api.request("POST", `/${used.short_url}/`, { body: "password=correct+horse", headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect((await unlock()).status).toBe(303);
      for (const method of ["GET", "HEAD"]) {
        const response = await api.request(method, `/${used.short_url}/`);
        expect([method, response.status, response.headers.get("location")]).toEqual([method, 401, null]);
      }
      // With the password, the visitor learns it is used up.
      expect((await unlock()).headers.get("location")).toBe("https://secret.example/after");
    });

    test("passwords are argon2id with OWASP's parameters; a hash made with others still unlocks", async () => {
      const made = await create({ password: "correct horse" });
      expect((await api.db.links.find(made.short_url))?.passwordHash).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
      await api.db.links.update(made.short_url, { passwordHash: await Bun.password.hash("older password", "argon2id") }, now);
      const unlocked = await api.request("POST", `/${made.short_url}`, { json: { password: "older password" } });
      expect([unlocked.status, unlocked.headers.get("location")]).toEqual([303, "https://example.com/target"]);
    });

    test("a PUT hashes a new password only once the caller may change the link", async () => {
      const target = await create({});
      const hash = spyOn(Bun.password, "hash");
      try {
        const json = { password: "x".repeat(128) };
        const foreign = await api.request("PUT", `/shorten/${target.short_url}/`, { json, headers: { authorization: `Bearer ${notItsToken}` } });
        const missing = await api.request("PUT", "/shorten/NoSuchCode1/", { json, headers: { authorization: `Bearer ${notItsToken}` } });
        expect([foreign.status, missing.status]).toEqual([403, 404]);
        expect(hash).toHaveBeenCalledTimes(0);
      } finally {
        hash.mockRestore();
      }
    });

    test("a form of the wrong shape is a 400, never a 500", async () => {
      for (const body of ["", "password=", "%zz=%zz", "password=a&password=b", `password=${"x".repeat(5000)}`]) {
        const response = await api.request("POST", `/${link.short_url}/`, { body, headers: { "content-type": "application/x-www-form-urlencoded" } });
        expect([400, 401, 413]).toContain(response.status);
      }
    });
  });
});
