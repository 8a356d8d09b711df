import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { readJson, specOperations } from "@linkgeo/testing";
import { browserSetupTimeoutMs, browserTestTimeoutMs, launchOfflineBrowser, type OfflineBrowser } from "@linkgeo/testing/offline-browser";
import { createApp } from "../../../gateway/src/app.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import { UpstreamPool } from "../../../gateway/src/upstreams/upstream-pool.ts";
import { buildWebAssets } from "../../src/web-assets.ts";
import { serveServices, type ServedServices } from "../../../gateway/test/support/served-services.ts";

describe("the gateway's /docs in a browser with no internet", () => {
  let services: ServedServices;
  let gateway: ReturnType<typeof createApp>;
  let browser: OfflineBrowser;
  let origin: string;

  beforeAll(async () => {
    services = await serveServices();
    const pool = (name: "shortener" | "geocoder") => new UpstreamPool({ name, urls: [services.url[name]], refreshMs: 60_000, log: silentLogger });
    const upstreams = { shortener: pool("shortener"), geocoder: pool("geocoder") };
    await Promise.all([upstreams.shortener.start(), upstreams.geocoder.start()]);
    gateway = createApp({
      upstreams,
      buckets: new MemoryTokenBuckets(),
      rateLimits: {},
      clientOf: () => ({ address: "127.0.0.1", viaTrustedProxy: false }),
      upstreamTimeoutMs: 2000,
      log: silentLogger,
      clock: () => new Date(),
      web: await buildWebAssets(),
    }).listen({ port: 0, hostname: "127.0.0.1" });
    origin = `http://127.0.0.1:${gateway.server!.port}`;
    browser = await launchOfflineBrowser();
  }, browserSetupTimeoutMs);
  afterAll(async () => {
    await browser?.[Symbol.asyncDispose]();
    await gateway?.stop(true);
    await services?.[Symbol.asyncDispose]();
  });

  // One spelling here: the page is shared, and the services' tests render both.
  test(
    "lists every operation of the merged spec, loading nothing but from the gateway",
    async () => {
      const merged = specOperations(await readJson(await fetch(`${origin}/docs/json`)));

      const page = await browser.renderDocsPage(`${origin}/docs`);

      expect(page.problems).toEqual([]);
      // The web app's page (pages/api-docs-page.ts) around Swagger UI.
      expect(page.title).toBe("API docs · linkgeo");
      expect(page.operations).toEqual(merged);
      expect(merged).toEqual(expect.arrayContaining(["POST /shorten/", "GET /{short_url}", "GET /reverse-geocode", "GET /docs"]));
      expect(page.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(page.requests).toContain(`${origin}/docs/json`);
    },
    browserTestTimeoutMs,
  );
});
