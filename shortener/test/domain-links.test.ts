import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import type { DomainView } from "@linkgeo/shared";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { VisitClassifier } from "../src/visits/visit-classifier.ts";

/** A request as the gateway forwards it: the host the client asked, from a trusted proxy (the test's peer is 127.0.0.1). */
const on = (host: string, headers: Record<string, string> = {}) => ({ "x-forwarded-host": host, "x-forwarded-proto": "https", ...headers });

describe.each(["sqlite", "postgres"] as const)("links on several domains, on %s", (engine) => {
  let api: TestShortener;
  let brand: DomainView;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const redirect = (host: string, path: string, headers: Record<string, string> = {}) => api.request("GET", path, { headers: on(host, headers) });
  const create = (json: Record<string, unknown>) => api.request("POST", "/shorten/", { json, headers: on("sho.rt") });
  beforeAll(async () => {
    api = await startTestShortener({
      engine,
      publicBaseUrl: new URL("https://sho.rt"),
      visitClassifier: new VisitClassifier({ countries: { countryOf: () => "unknown" } }),
    });
    brand = await readJson(await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin() }));
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("the same code on two hosts is two links: each redirects to its own URL, with its own count and visits", async () => {
    const plain = await create({ long_url: "https://example.com/plain", short_url: "promo" });
    const branded = await create({ long_url: "https://brand.example/promo", short_url: "promo", domain: "GO.brand.test" });
    expect([plain.status, branded.status]).toEqual([201, 201]);
    expect(await readJson(plain)).toMatchObject({ short_url: "promo", domain: "sho.rt", link: "https://sho.rt/promo/" });
    expect(await readJson(branded)).toMatchObject({ short_url: "promo", domain: "go.brand.test", link: "https://go.brand.test/promo/" });
    expect(branded.headers.get("location")).toBe("/shorten/promo/?domain=go.brand.test");
    expect((await create({ long_url: "https://brand.example/again", short_url: "promo", domain: "go.brand.test" })).status).toBe(409);

    for (let i = 0; i < 3; i++) expect((await redirect("go.brand.test", "/promo")).headers.get("location")).toBe("https://brand.example/promo");
    expect((await redirect("sho.rt", "/promo/")).headers.get("location")).toBe("https://example.com/plain");

    const stats = async (query: string) => readJson(await api.request("GET", `/shorten/promo/stats/${query}`));
    expect(await stats("?domain=go.brand.test")).toMatchObject({ short_url: "promo", access_count: 3 });
    expect(await stats("")).toMatchObject({ short_url: "promo", access_count: 1 });
    const visits = async (query: string) =>
      ((await readJson(await api.request("GET", `/shorten/promo/visits/${query}`, { headers: admin() }))) as { totals: { visits: number } }).totals.visits;
    expect([await visits("?domain=go.brand.test"), await visits("")]).toEqual([3, 1]);
    const everyLink: { top: { links: Array<{ value: string; visits: number }> } } = await readJson(
      await api.request("GET", "/admin/visits/", { headers: admin() }),
    );
    expect(everyLink.top.links).toEqual(
      expect.arrayContaining([
        { value: "go.brand.test/promo", visits: 3 },
        { value: "promo", visits: 1 },
      ]),
    );
    // The sparklines' daily counts: a code on the default domain, host/code on another.
    const daily: { links: Record<string, number[]> } = await readJson(
      await api.request("GET", "/admin/visits/daily/?codes=promo,go.brand.test/promo,nowhere.test/promo&days=2", { headers: admin() }),
    );
    expect(daily.links).toEqual({ promo: [0, 1], "go.brand.test/promo": [0, 3], "nowhere.test/promo": [0, 0] });
    for (const codes of ["/promo", "go.brand.test/", "go.brand.test/a"]) {
      expect((await api.request("GET", `/admin/visits/daily/?codes=${codes}`, { headers: admin() })).status).toBe(400);
    }
  });

  test("the API finds a link by ?domain=, lists a domain's links, and never moves a link to another", async () => {
    await create({ long_url: "https://brand.example/only", short_url: "only-brand", domain: "go.brand.test" });
    expect((await api.request("GET", "/shorten/only-brand/")).status).toBe(404);
    const found = await api.request("GET", "/shorten/only-brand/?domain=go.brand.test");
    expect(await readJson(found)).toMatchObject({ short_url: "only-brand", domain: "go.brand.test", long_url: "https://brand.example/only" });
    expect((await api.request("GET", "/shorten/only-brand/?domain=nowhere.test")).status).toBe(404);

    const listed: { results: Array<{ short_url: string; domain: string }> } = await readJson(
      await api.request("GET", "/shorten/?domain=go.brand.test&page_size=100", { headers: admin() }),
    );
    expect(listed.results.every((link) => link.domain === "go.brand.test")).toBe(true);
    expect(listed.results.map((link) => link.short_url)).toContain("only-brand");
    const onDefault: { results: Array<{ domain: string }> } = await readJson(
      await api.request("GET", "/shorten/?domain=sho.rt&page_size=100", { headers: admin() }),
    );
    expect(onDefault.results.every((link) => link.domain === "sho.rt")).toBe(true);
    expect((await api.request("GET", "/shorten/?domain=nowhere.test", { headers: admin() })).status).toBe(400);

    const moved = await api.request("PUT", "/shorten/only-brand/?domain=go.brand.test", {
      json: { long_url: "https://brand.example/x", domain: "sho.rt" },
      headers: admin(),
    });
    expect(await readJson(moved)).toEqual({
      error: { code: "invalid_request", message: "domain cannot be changed: send the link's own domain, or leave it out" },
    });
    const changed = await api.request("PUT", "/shorten/only-brand/?domain=go.brand.test", {
      json: { long_url: "https://brand.example/y", domain: "go.brand.test" },
      headers: admin(),
    });
    expect(await readJson(changed)).toMatchObject({ long_url: "https://brand.example/y", domain: "go.brand.test" });
  });

  test("a client names a code, never a key: /<id>~<code> is no link on any host", async () => {
    const key = `${brand.id}~promo`;
    for (const host of ["sho.rt", "go.brand.test", "elsewhere.test"]) expect((await redirect(host, `/${key}`)).status).toBe(404);
    expect((await api.request("GET", `/shorten/${key}/`)).status).toBe(404);
    expect((await api.request("GET", `/shorten/${key}/?domain=go.brand.test`)).status).toBe(404);
    expect((await api.request("PUT", `/shorten/${key}/`, { json: { long_url: "https://example.com/x" }, headers: admin() })).status).toBe(404);
    expect((await api.request("DELETE", `/shorten/${key}/`, { headers: admin() })).status).toBe(404);
    const stats = await api.request("POST", "/shorten/stats/", { json: { short_urls: [key, "promo"] }, headers: admin() });
    expect(((await readJson(stats)) as { results: Array<{ short_url: string }> }).results.map((link) => link.short_url)).toEqual(["promo"]);
  });

  test("a link of a domain this replica does not know (deleted under it) is named on no host, never as the default domain's", async () => {
    await api.db.links.insert({ code: "999999~stray", longUrl: "https://example.com/stray", manageTokenHash: "f".repeat(64), createdAt: new Date() });
    const listed: { results: Array<{ short_url: string; domain: string; link: string }> } = await readJson(
      await api.request("GET", "/shorten/?q=stray", { headers: admin() }),
    );
    expect(listed.results).toEqual([expect.objectContaining({ short_url: "stray", domain: "999999.invalid", link: "https://999999.invalid/stray/" })]);
    expect((await api.request("DELETE", "/shorten/stray/?domain=999999.invalid", { headers: admin() })).status).toBe(404);
  });

  test("a domain never added is a 400 on create, and a link may lead to no domain's host", async () => {
    const unknown = await create({ long_url: "https://example.com/", domain: "nowhere.test" });
    expect(unknown.status).toBe(400);
    expect(((await readJson(unknown)) as { error: { message: string } }).error.message).toStartWith('domain "nowhere.test" is not a domain of this service');
    const loop = await create({ long_url: "https://go.brand.test/promo" });
    expect(await readJson(loop)).toEqual({ error: { code: "invalid_url", message: "long_url must not point at this service" } });
  });

  test("bulk items each name their domain, and an unknown one is that item's 400", async () => {
    const response = await api.request("POST", "/shorten/bulk/", {
      json: {
        links: [
          { long_url: "https://brand.example/bulk", short_url: "bulk-one", domain: "go.brand.test" },
          { long_url: "https://example.com/bulk", short_url: "bulk-one" },
          { long_url: "https://example.com/bulk", domain: "nowhere.test" },
        ],
      },
      headers: { ...admin(), ...on("sho.rt") },
    });
    const { results } = (await readJson(response)) as { results: Array<{ status: number; record?: { domain: string } }> };
    expect(results.map((result) => [result.status, result.record?.domain])).toEqual([
      [201, "go.brand.test"],
      [201, "sho.rt"],
      [400, undefined],
    ]);
  });

  test("a host no domain has is the default domain's; a forged X-Forwarded-Host from an untrusted peer is not believed", async () => {
    await create({ long_url: "https://brand.example/forged", short_url: "forged", domain: "go.brand.test" });
    expect((await redirect("elsewhere.test", "/promo")).headers.get("location")).toBe("https://example.com/plain");
    const untrusted = await api.request("GET", "/forged", { headers: on("go.brand.test", { "x-test-peer": "203.0.113.9" }) });
    expect(untrusted.status).toBe(404);
  });

  test("a domain's settings: its not-found URL, its default expired URL and redirect status", async () => {
    const settings = { not_found_url: "https://brand.example/404", expired_url: "https://brand.example/gone", redirect_status: 301 };
    const patched = await api.request("PATCH", `/admin/domains/${brand.id}`, { json: settings, headers: admin() });
    expect(patched.status).toBe(200);
    await create({ long_url: "https://brand.example/once", short_url: "once", domain: "go.brand.test", max_visits: 1 });

    const first = await redirect("go.brand.test", "/once");
    expect([first.status, first.headers.get("location")]).toEqual([301, "https://brand.example/once"]);
    const used = await redirect("go.brand.test", "/once");
    expect([used.status, used.headers.get("location")]).toEqual([302, "https://brand.example/gone"]);
    const missing = await redirect("go.brand.test", "/no-such-code");
    expect([missing.status, missing.headers.get("location")]).toEqual([302, "https://brand.example/404"]);
    // The default domain keeps its own: a 404 and the service's status.
    expect((await redirect("sho.rt", "/no-such-code")).status).toBe(404);
    expect((await redirect("sho.rt", "/promo")).status).toBe(302);
    await api.request("PATCH", `/admin/domains/${brand.id}`, { json: { not_found_url: null, expired_url: null, redirect_status: null }, headers: admin() });
  });

  test("a domain with links is deleted only with its links, which then redirect nowhere", async () => {
    const doomed: DomainView = await readJson(await api.request("POST", "/admin/domains", { json: { host: "doomed.test" }, headers: admin() }));
    await create({ long_url: "https://doomed.example/a", short_url: "promo", domain: "doomed.test" });
    await create({ long_url: "https://doomed.example/b", domain: "doomed.test" });
    const refused = await api.request("DELETE", `/admin/domains/${doomed.id}`, { headers: admin() });
    expect(refused.status).toBe(409);
    expect(((await readJson(refused)) as { error: { message: string } }).error.message).toContain("?links=delete");
    expect((await redirect("doomed.test", "/promo")).headers.get("location")).toBe("https://doomed.example/a");

    expect((await api.request("DELETE", `/admin/domains/${doomed.id}?links=keep`, { headers: admin() })).status).toBe(400);
    expect((await api.request("DELETE", `/admin/domains/${doomed.id}?links=delete`, { headers: admin() })).status).toBe(204);
    const listed: { results: unknown[] } = await readJson(await api.request("GET", "/shorten/?page_size=100", { headers: admin() }));
    expect(JSON.stringify(listed.results)).not.toContain("doomed");
    // The host is no domain now: its requests are the default domain's, whose promo is another link.
    expect((await redirect("doomed.test", "/promo")).headers.get("location")).toBe("https://example.com/plain");
  });
});

describe("without PUBLIC_BASE_URL, a request on an added domain's host", () => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener();
    await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: { authorization: `Bearer ${api.adminToken()}` } });
    await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/here", short_url: "on-default" } });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("names that domain by its host, never the default one, and cannot name the default domain's host", async () => {
    const viaBrand = { "x-forwarded-host": "go.brand.test" };
    expect((await api.request("GET", "/shorten/on-default/?domain=go.brand.test", { headers: viaBrand })).status).toBe(404);
    const record = await readJson(await api.request("GET", "/shorten/on-default/", { headers: viaBrand }));
    expect(record).toMatchObject({ short_url: "on-default", domain: "" });
    // Through the default domain's own host, the same link says it.
    expect(await readJson(await api.request("GET", "/shorten/on-default/"))).toMatchObject({ domain: "localhost", link: "http://localhost/on-default/" });
  });
});

describe("UNKNOWN_HOSTS=404", () => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener({ publicBaseUrl: new URL("https://sho.rt"), unknownHosts: "404" });
    await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: { authorization: `Bearer ${api.adminToken()}` } });
    await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/a", short_url: "known" } });
    await api.request("POST", "/shorten/", { json: { long_url: "https://brand.example/a", short_url: "known", domain: "go.brand.test" } });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("serves the default domain's host and each added one, and answers 404 on any other", async () => {
    const follow = (host: string) => api.request("GET", "/known", { headers: on(host) });
    expect((await follow("sho.rt")).headers.get("location")).toBe("https://example.com/a");
    expect((await follow("SHO.RT.")).headers.get("location")).toBe("https://example.com/a");
    expect((await follow("go.brand.test:443")).headers.get("location")).toBe("https://brand.example/a");
    expect((await follow("elsewhere.test")).status).toBe(404);
  });

  test("/ on a host that is no domain is a 404, and on the default domain's host the service's home (204)", async () => {
    expect((await api.request("GET", "/", { headers: on("elsewhere.test") })).status).toBe(404);
    expect((await api.request("GET", "/", { headers: on("sho.rt") })).status).toBe(204);
  });
});

describe("/ on each domain's host", () => {
  test("is its root URL (302, not kept), else the home on the default domain (204) and a 404 on an added one; a change is seen at once", async () => {
    await using api = await startTestShortener({ publicBaseUrl: new URL("https://sho.rt") });
    const admin = { authorization: `Bearer ${api.adminToken()}` };
    const brand: DomainView = await readJson(await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin }));
    const root = async (method: "GET" | "HEAD", host: string) => {
      const answer = await api.request(method, "/", { headers: on(host) });
      return [answer.status, answer.headers.get("location"), answer.headers.get("cache-control")];
    };
    expect((await root("GET", "go.brand.test"))[0]).toBe(404);
    expect(await root("GET", "sho.rt")).toEqual([204, null, "private, max-age=0"]);
    // Any other host is the default domain's (UNKNOWN_HOSTS=default).
    expect(await root("GET", "elsewhere.test")).toEqual([204, null, "private, max-age=0"]);

    const changed = await api.request("PATCH", `/admin/domains/${brand.id}`, { json: { root_url: "https://brand.example/" }, headers: admin });
    expect(changed.status).toBe(200);
    expect(await root("GET", "go.brand.test:443")).toEqual([302, "https://brand.example/", "private, max-age=0"]);
    expect(await root("HEAD", "go.brand.test")).toEqual([302, "https://brand.example/", "private, max-age=0"]);
    expect(await root("GET", "sho.rt")).toEqual([204, null, "private, max-age=0"]);

    expect((await api.request("PATCH", "/admin/domains/0", { json: { root_url: "https://example.com/home" }, headers: admin })).status).toBe(200);
    expect(await root("GET", "sho.rt")).toEqual([302, "https://example.com/home", "private, max-age=0"]);
    // A client that is no trusted proxy names no host but its own: its X-Forwarded-Host is not believed.
    const forged = await api.request("GET", "/", { headers: { host: "sho.rt", "x-forwarded-host": "go.brand.test", "x-test-peer": "203.0.113.9" } });
    expect(forged.headers.get("location")).toBe("https://example.com/home");
  });
});

describe.each(["sqlite", "postgres"] as const)("import and export keep domains, on %s", (engine) => {
  const admin = (api: TestShortener) => ({ authorization: `Bearer ${api.adminToken()}` });
  const importFile = async (api: TestShortener, query: string, body: string) => {
    const response = await api.request("POST", `/admin/import?format=linkgeo-ndjson${query}`, {
      body,
      headers: { ...admin(api), ...on("sho.rt"), "content-type": "application/x-ndjson" },
    });
    return (await response.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  };
  const ndjson = (...rows: object[]) => rows.map((row) => `${JSON.stringify(row)}\n`).join("");
  const hosts = async (api: TestShortener) =>
    ((await readJson(await api.request("GET", "/admin/domains", { headers: admin(api) }))) as { results: DomainView[] }).results.map((d) => d.host);

  test("a row's domain is the added domain of its host, the default one for the default host, and others as the person chooses", async () => {
    await using api = await startTestShortener({ engine, publicBaseUrl: new URL("https://sho.rt") });
    await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin(api) });
    const file = ndjson(
      { short_url: "imp", domain: "go.brand.test", long_url: "https://brand.example/imp" },
      { short_url: "imp", domain: "sho.rt", long_url: "https://example.com/imp" },
      { short_url: "imp", domain: "new.brand.test", long_url: "https://new.example/imp" },
    );

    const refused = await importFile(api, "&domains=refuse", file);
    expect(refused.slice(1)).toEqual([
      { line: 3, status: "problem", reason: 'domain "new.brand.test" is not a domain here: add it, or import with domains=create or domains=default' },
      { summary: { lines: 3, imported: 2, skipped: 0, problems: 1, dry_run: false, unknown_domains: ["new.brand.test"] } },
    ]);
    const dryRun = await importFile(api, "&domains=create&dry_run=true", file);
    expect(dryRun.at(-1)).toEqual({ summary: { lines: 3, imported: 1, skipped: 2, problems: 0, dry_run: true, unknown_domains: ["new.brand.test"] } });
    expect(await hosts(api)).toEqual(["sho.rt", "go.brand.test"]);

    const created = await importFile(api, "&domains=create", file);
    expect(created.at(-1)).toEqual({ summary: { lines: 3, imported: 1, skipped: 2, problems: 0, dry_run: false, unknown_domains: ["new.brand.test"] } });
    expect(await hosts(api)).toEqual(["sho.rt", "go.brand.test", "new.brand.test"]);
    for (const [host, location] of [
      ["go.brand.test", "https://brand.example/imp"],
      ["sho.rt", "https://example.com/imp"],
      ["new.brand.test", "https://new.example/imp"],
    ]) {
      expect((await api.request("GET", "/imp", { headers: on(host!) })).headers.get("location")).toBe(location!);
    }
    expect((await importFile(api, "&domains=sideways", file))[0]).toEqual({
      error: { code: "invalid_request", message: "domains must be default, create, refuse" },
    });
  });

  test("our export round-trips: the same codes on the same domains, with their counts", async () => {
    await using source = await startTestShortener({ engine, publicBaseUrl: new URL("https://sho.rt") });
    await source.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin(source) });
    await source.request("POST", "/shorten/", { json: { long_url: "https://example.com/rtrip", short_url: "rtrip" }, headers: on("sho.rt") });
    await source.request("POST", "/shorten/", {
      json: { long_url: "https://brand.example/rtrip", short_url: "rtrip", domain: "go.brand.test" },
      headers: on("sho.rt"),
    });
    await source.request("GET", "/rtrip", { headers: on("go.brand.test") });
    const exported = await (await source.request("GET", "/admin/export/links?format=ndjson", { headers: admin(source) })).text();
    expect(
      exported
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .map((link) => [link.short_url, link.domain, link.access_count]),
    ).toEqual([
      // In key order: an added domain's keys begin with its id.
      ["rtrip", "go.brand.test", 1],
      ["rtrip", "sho.rt", 0],
    ]);

    await using target = await startTestShortener({ engine, publicBaseUrl: new URL("https://sho.rt") });
    const answer = await importFile(target, "&domains=create", exported);
    expect(answer.at(-1)).toEqual({ summary: { lines: 2, imported: 2, skipped: 0, problems: 0, dry_run: false, unknown_domains: ["go.brand.test"] } });
    const again = await (await target.request("GET", "/admin/export/links?format=ndjson", { headers: admin(target) })).text();
    expect(again).toBe(exported);
  });
});
