import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Database as SqliteDatabase } from "bun:sqlite";
import { silentLogger } from "@linkgeo/shared";
import { Registry } from "prom-client";
import { FailSoftLinkCache } from "../src/cache/fail-soft-link-cache.ts";
import type { LinkCache } from "../src/cache/link-cache.ts";
import { MemoryLinkCache } from "../src/cache/memory-link-cache.ts";
import { shortenerMetrics } from "../src/shortener-metrics.ts";
import { ThreatFeeds } from "../src/threats/threat-feeds.ts";
import { openSqliteDatabase } from "../src/storage/open-database.ts";
import { startTestShortener } from "./support/test-shortener.ts";

/** Every sample of one metric as `label=value,…` → value. */
async function samples(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return Object.fromEntries(
    (metric?.values ?? []).map((value) => [
      Object.entries(value.labels)
        .map(([key, label]) => `${key}=${label}`)
        .join(","),
      value.value,
    ]),
  );
}

describe("shortener metrics", () => {
  test("count links created, updated and deleted", async () => {
    const registry = new Registry();
    await using api = await startTestShortener({ observer: shortenerMetrics(registry) });
    const first = await api.createLink("https://example.com/one");
    await api.createLink("https://example.com/two");
    const auth = { authorization: `Bearer ${first.manage_token}` };
    expect((await api.request("PUT", `/shorten/${first.short_url}/`, { json: { long_url: "https://example.com/uno" }, headers: auth })).status).toBe(200);
    expect((await api.request("DELETE", `/shorten/${first.short_url}/`, { headers: auth })).status).toBe(204);
    // Refused changes are not changes.
    expect((await api.request("DELETE", `/shorten/${first.short_url}/`, { headers: auth })).status).toBe(404);
    expect(await samples(registry, "shortener_links_changed_total")).toEqual({ "change=created": 2, "change=updated": 1, "change=deleted": 1 });
  });

  test("count redirects that sent their visitor on by domain: default, or an added domain's host; never one a client made up", async () => {
    const registry = new Registry();
    await using api = await startTestShortener({ observer: shortenerMetrics(registry), publicBaseUrl: new URL("https://sho.rt") });
    const admin = { authorization: `Bearer ${api.adminToken()}` };
    await api.request("POST", "/admin/domains", { json: { host: "go.brand.test" }, headers: admin });
    await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/a", short_url: "counted" } });
    await api.request("POST", "/shorten/", { json: { long_url: "https://brand.example/a", short_url: "counted", domain: "go.brand.test" } });
    const follow = (host: string, method = "GET") => api.request(method, "/counted", { headers: { "x-forwarded-host": host } });
    for (const host of ["sho.rt", "made-up.test", "go.brand.test", "go.brand.test"]) expect((await follow(host)).status).toBe(302);
    // HEAD is not a visit, and a code no link has sends no one on.
    expect((await follow("go.brand.test", "HEAD")).status).toBe(302);
    expect((await api.request("GET", "/nothing-here", { headers: { "x-forwarded-host": "go.brand.test" } })).status).toBe(404);
    expect(await samples(registry, "shortener_redirects_by_domain_total")).toEqual({ "domain=default": 2, "domain=go.brand.test": 2 });
  });

  test("count the cache's hits (a URL, or a code known missing), misses and failed operations", async () => {
    const registry = new Registry();
    const metrics = shortenerMetrics(registry);
    const cache = new FailSoftLinkCache(new MemoryLinkCache(), silentLogger, metrics);
    await cache.get("abc1234");
    await cache.set("abc1234", "https://example.com/");
    await cache.get("abc1234");
    await cache.markMissing("gone123");
    await cache.get("gone123");
    const broken: LinkCache = new Proxy(new MemoryLinkCache(), {
      get: (target, name) => (name === "ping" ? target.ping : () => Promise.reject(new Error("down"))),
    });
    const failing = new FailSoftLinkCache(broken, silentLogger, metrics);
    expect(await failing.get("abc1234")).toBeUndefined();
    await failing.set("abc1234", "https://example.com/");
    expect(await samples(registry, "shortener_cache_reads_total")).toEqual({ "outcome=miss": 1, "outcome=hit": 2 });
    expect(await samples(registry, "shortener_cache_errors_total")).toEqual({ "operation=get": 1, "operation=set": 1 });
  });

  test("count the database failures a client got as a 503", async () => {
    const registry = new Registry();
    const sqlite = new SqliteDatabase(":memory:", { strict: true });
    await using api = await startTestShortener({ observer: shortenerMetrics(registry), database: openSqliteDatabase(sqlite) });
    sqlite.exec("PRAGMA query_only = ON");
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/" } })).status).toBe(503);
    expect(await samples(registry, "shortener_database_errors_total")).toEqual({ "": 1 });
    sqlite.exec("PRAGMA query_only = OFF");
    sqlite.close();
  });

  test("count each threat feed's entries and the destinations it listed, by list", async () => {
    const registry = new Registry();
    const metrics = shortenerMetrics(registry);
    const feeds = new ThreatFeeds({ paths: [join(import.meta.dir, "fixtures/threat-feeds/hosts.txt")], log: silentLogger, observer: metrics });
    await feeds.refresh();
    await using api = await startTestShortener({ observer: metrics, threats: feeds });
    for (const path of ["/a", "/b"])
      expect((await api.request("POST", "/shorten/", { json: { long_url: `https://ads.tracker.example${path}` } })).status).toBe(400);
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/fine" } })).status).toBe(201);
    expect(await samples(registry, "shortener_threat_list_entries")).toEqual({ "list=hosts.txt": 2 });
    expect(await samples(registry, "shortener_threat_matches_total")).toEqual({ "list=hosts.txt": 2 });
  });
});
