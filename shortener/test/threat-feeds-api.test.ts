import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@linkgeo/shared";
import { readJson, waitFor } from "@linkgeo/testing";
import { ThreatFeeds } from "../src/threats/threat-feeds.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const fixtures = join(import.meta.dir, "fixtures/threat-feeds");
/** A URL urlhaus.csv lists, and a host under a domain hosts.txt lists. */
const listedUrl = "http://malware.example.net/payload.exe";
const underListedHost = "https://login.ads.tracker.example/welcome";
/** urlhaus.csv, hosts.txt and urlhaus-urls.txt of the fixtures, read. */
async function fixtureFeeds(): Promise<ThreatFeeds> {
  const feeds = new ThreatFeeds({ paths: ["urlhaus.csv", "hosts.txt", "urlhaus-urls.txt"].map((name) => join(fixtures, name)), log: silentLogger });
  await feeds.refresh();
  return feeds;
}
const harmful = (field: string, list: string) => ({
  error: { code: "harmful_destination", message: `${field} is on the threat list "${list}": it may not be a link's destination here` },
});

describe.each(["sqlite", "postgres"] as const)("a destination the threat feeds list is refused at every way in, on %s", (engine) => {
  let api: TestShortener;
  let feeds: ThreatFeeds;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const answer = async (response: Response) => ({ status: response.status, body: await readJson(response) });

  beforeAll(async () => {
    feeds = await fixtureFeeds();
    api = await startTestShortener({ engine, threats: feeds });
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  test("create: 400 harmful_destination naming the list, never the entry; a URL next to it is made", async () => {
    const refused = await answer(await api.request("POST", "/shorten/", { json: { long_url: listedUrl } }));
    expect(refused).toEqual({ status: 400, body: harmful("long_url", "urlhaus.csv") });
    expect(JSON.stringify(refused.body)).not.toContain("malware");
    expect(await answer(await api.request("POST", "/shorten/", { json: { long_url: underListedHost } }))).toEqual({
      status: 400,
      body: harmful("long_url", "hosts.txt"),
    });
    expect((await api.request("POST", "/shorten/", { json: { long_url: "http://malware.example.net/readme" } })).status).toBe(201);
  });

  test("an expired_url and a rule's url are destinations too", async () => {
    const expired = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/a", expired_url: underListedHost } });
    expect(await answer(expired)).toEqual({ status: 400, body: harmful("expired_url", "hosts.txt") });
    const rule = await api.request("POST", "/shorten/", {
      json: { long_url: "https://example.com/a", rules: [{ when: { device: "ios" }, url: listedUrl }] },
    });
    expect(await answer(rule)).toEqual({ status: 400, body: harmful("rules.0.url", "urlhaus.csv") });
  });

  test("forward_query: a visitor's query that makes a listed URL is answered as a quarantined link; another query is sent on", async () => {
    // urlhaus-urls.txt lists https://evil.example.com/Path%20Two?x=1, not the URL without its query.
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://evil.example.com/Path%20Two", forward_query: true } }));
    const listed = await api.request("GET", `/${link.short_url}?x=1`);
    expect([listed.status, listed.headers.get("location"), (await readJson(listed)).error.code]).toEqual([451, null, "quarantined"]);
    const page = await api.request("GET", `/${link.short_url}?x=%31`, { headers: { accept: "text/html" } });
    expect([page.status, page.headers.get("link-page")]).toEqual([451, "quarantined"]);
    const other = await api.request("GET", `/${link.short_url}?x=2`);
    expect([other.status, other.headers.get("location")]).toEqual([302, "https://evil.example.com/Path%20Two?x=2"]);
    expect((await api.request("GET", `/${link.short_url}`)).headers.get("location")).toBe("https://evil.example.com/Path%20Two");
    // A query with characters the forwarding escapes (`@`, `/`) makes the listed URL all the same.
    const form = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://phish-form.example/login", forward_query: true } }));
    expect((await api.request("GET", `/${form.short_url}?email=a@b.c&next=/account`)).status).toBe(451);
    expect((await api.request("GET", `/${form.short_url}?email=someone@b.c&next=/account`)).status).toBe(302);
  });

  test("PUT: the link keeps its destination", async () => {
    const link = await api.createLink("https://example.com/before");
    const changed = await api.request("PUT", `/shorten/${link.short_url}/`, {
      json: { long_url: listedUrl },
      headers: { authorization: `Bearer ${link.manage_token}` },
    });
    expect(await answer(changed)).toEqual({ status: 400, body: harmful("long_url", "urlhaus.csv") });
    expect((await api.db.links.find(link.short_url))?.longUrl).toBe("https://example.com/before");
  });

  test("bulk: the listed item is answered in its place, the others made", async () => {
    const response = await api.request("POST", "/shorten/bulk/", {
      json: { links: [{ long_url: "https://example.com/bulk-ok" }, { long_url: underListedHost }] },
      headers: admin(),
    });
    const { results } = (await readJson(response)) as { results: Array<{ status: number } & Record<string, unknown>> };
    expect(results.map((result) => result.status)).toEqual([201, 400]);
    expect(results[1]).toMatchObject(harmful("long_url", "hosts.txt"));
  });

  test("import: the listed row is a problem row, the others imported", async () => {
    const file = [
      { short_url: `threat-ok-${engine}`, long_url: "https://example.com/imported" },
      { short_url: `threat-bad-${engine}`, long_url: listedUrl },
    ]
      .map((row) => `${JSON.stringify(row)}\n`)
      .join("");
    const response = await api.request("POST", "/admin/import", { body: file, headers: { ...admin(), "content-type": "application/x-ndjson" } });
    const lines = (await response.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual({ line: 2, status: "problem", reason: harmful("long_url", "urlhaus.csv").error.message });
    expect(lines.at(-1)).toMatchObject({ summary: { imported: 1, problems: 1 } });
    expect(await api.db.links.find(`threat-bad-${engine}`)).toBeNull();
  });

  test("a domain's addresses are destinations too", async () => {
    const added = await api.request("POST", "/admin/domains", {
      json: { host: `go-${engine}.brand.example`, not_found_url: underListedHost },
      headers: admin(),
    });
    expect(await answer(added)).toEqual({ status: 400, body: harmful("not_found_url", "hosts.txt") });
  });
});

describe.each(["sqlite", "postgres"] as const)("the allow-list overrides every feed, on %s", (engine) => {
  let api: TestShortener;
  let feeds: ThreatFeeds;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const allow = (json: unknown, headers: Record<string, string> = admin()) => api.request("POST", "/admin/allow-list", { json, headers });
  const create = (longUrl: string, on = api) => on.request("POST", "/shorten/", { json: { long_url: longUrl } });

  beforeAll(async () => {
    feeds = await fixtureFeeds();
    api = await startTestShortener({ engine, threats: feeds });
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  test("a domain allowed is made a destination again, with every name under it; taken off, the feed's refusal stands", async () => {
    const added = await allow({ domain: " Ads.Tracker.Example. " });
    expect(added.status).toBe(201);
    const entry = (await readJson(added)) as Record<string, unknown> & { id: number };
    expect(entry).toEqual({ id: expect.any(Number), domain: "ads.tracker.example", url: null, created_at: expect.any(String) });
    expect(added.headers.get("location")).toBe(`/admin/allow-list/${entry.id}`);
    expect((await create(underListedHost)).status).toBe(201);
    expect((await allow({ domain: "ads.tracker.example" })).status).toBe(409);

    expect((await api.request("DELETE", `/admin/allow-list/${entry.id}`, { headers: admin() })).status).toBe(204);
    expect(await readJson(await create(underListedHost))).toEqual(harmful("long_url", "hosts.txt"));
    expect((await api.request("DELETE", `/admin/allow-list/${entry.id}`, { headers: admin() })).status).toBe(404);
  });

  test("a URL allowed is that URL only, in any spelling of it", async () => {
    const added = await allow({ url: "http://MALWARE.example.net:80/payload.exe#x" });
    expect(await readJson(added)).toMatchObject({ domain: null, url: listedUrl });
    expect((await create(listedUrl)).status).toBe(201);
    const listed = (await readJson(await api.request("GET", "/admin/allow-list", { headers: admin() }))) as { results: Array<{ url: string | null }> };
    expect(listed.results.map((result) => result.url)).toContain(listedUrl);
  });

  test("another replica counts an entry within a second", async () => {
    await using replica = await startTestShortener({ database: api.db, threats: feeds });
    const host = "https://deep.ads.tracker.example/x";
    expect((await create(host, replica)).status).toBe(400);
    expect((await allow({ domain: "tracker.example" })).status).toBe(201);
    await waitFor("the replica reads the allow-list again", async () => (await create(host, replica)).status === 201, 3_000);
  });

  test.each([
    [{}, "send either domain or url"],
    [{ domain: "a.example", url: "https://a.example/" }, "send either domain or url"],
    [{ domain: "https://a.example/" }, "domain must be a host name, like example.com (no scheme, port or path)"],
    [{ domain: 5 }, "domain must be a host name, like example.com (no scheme, port or path)"],
    // A default port, a wildcard, an empty label or a name no DNS has: no host name either.
    [{ domain: "x.example:80" }, "domain must be a host name, like example.com (no scheme, port or path)"],
    [{ domain: "*.x.example" }, "domain must be a host name, like example.com (no scheme, port or path)"],
    [{ domain: "a..example" }, "domain must be a host name, like example.com (no scheme, port or path)"],
    [{ domain: `${"a".repeat(4000)}.example` }, "domain must be a host name, like example.com (no scheme, port or path)"],
    [{ url: "ftp://a.example/" }, "url must be an absolute http or https URL of at most 2048 characters"],
  ])("%j is 400 naming what to send", async (body, message) => {
    expect(await readJson(await allow(body))).toEqual({ error: { code: "invalid_request", message } });
  });

  test("the admins' only: no credential 401, a key without the admin scope 403; each change is in the instance's log", async () => {
    expect((await allow({ domain: "b.example" }, {})).status).toBe(401);
    const key = await readJson(await api.request("POST", "/admin/api-keys", { json: { name: "reader", scopes: ["links:read"] }, headers: admin() }));
    expect((await allow({ domain: "b.example" }, { authorization: `Bearer ${key.key}` })).status).toBe(403);
    expect((await api.request("GET", "/admin/allow-list", { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(403);
    const log = (await readJson(await api.request("GET", "/admin/audit", { headers: admin() }))) as { results: Array<{ action: string; target: string }> };
    expect(log.results).toContainEqual(expect.objectContaining({ action: "allow.create", target: "domain ads.tracker.example" }));
    expect(log.results).toContainEqual(expect.objectContaining({ action: "allow.delete" }));
  });
});

describe("feed reloads under load", () => {
  test("redirects and creates never fail while a feed is replaced again and again; each new copy counts once loaded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "linkgeo-reload-"));
    const feedFile = join(dir, "big.txt");
    // A copy of 50,000 domains, written beside the feed and renamed over it, as docs/abuse.md says to.
    const replace = (round: number) => {
      const lines = Array.from({ length: 50_000 }, (_, i) => `bad${round}-${i}.example`);
      writeFileSync(`${feedFile}.tmp`, `${lines.join("\n")}\n`);
      renameSync(`${feedFile}.tmp`, feedFile);
    };
    replace(0);
    const feeds = new ThreatFeeds({ paths: [feedFile], log: silentLogger });
    await feeds.refresh();
    await using api = await startTestShortener({ threats: feeds });
    const codes = await Promise.all(Array.from({ length: 10 }, (_, i) => api.createLink(`https://fine.example/${i}`).then((link) => link.short_url)));

    let reloading = true;
    const statuses = new Map<number, number>();
    const seen = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const load = (async () => {
      for (let round = 0; reloading; round++) {
        const asked = codes.map((code) => api.request("GET", `/${code}`).then((response) => seen(response.status)));
        asked.push(api.request("POST", "/shorten/", { json: { long_url: `https://fine.example/made-${round}` } }).then((response) => seen(response.status)));
        await Promise.all(asked);
      }
    })();
    for (let round = 1; round <= 5; round++) {
      replace(round);
      await feeds.refresh();
      expect((await api.request("POST", "/shorten/", { json: { long_url: `https://www.bad${round}-7.example/` } })).status).toBe(400);
      expect((await api.request("POST", "/shorten/", { json: { long_url: `https://www.bad${round - 1}-7.example/` } })).status).toBe(201);
    }
    reloading = false;
    await load;

    expect([...statuses.keys()].sort()).toEqual([201, 302]);
    // Every redirect answered 302 was counted: none lost while the lists were swapped.
    const counted = await Promise.all(codes.map(async (code) => (await api.db.links.find(code))!.accessCount));
    await api.orphans.drain();
    expect(counted.reduce((sum, count) => sum + count, 0)).toBe(statuses.get(302)!);
    rmSync(dir, { recursive: true, force: true });
  });
});
