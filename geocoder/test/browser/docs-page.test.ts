import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { specOperations } from "@linkgeo/testing";
import { browserSetupTimeoutMs, browserTestTimeoutMs, launchOfflineBrowser, type OfflineBrowser } from "@linkgeo/testing/offline-browser";
import { startTestGeocoder, type TestGeocoder } from "../support/test-geocoder.ts";

const keys = ["geoapify-secret-key", "here-secret-key"];

describe("the geocoder's own /docs in a browser with no internet", () => {
  let geocoder: TestGeocoder;
  let browser: OfflineBrowser;
  let origin: string;

  beforeAll(async () => {
    // Keyed providers registered, so a key that leaked into the spec or the page would show.
    geocoder = startTestGeocoder({ providers: { geoapify: { apiKey: keys[0]! }, here: { apiKey: keys[1]! }, nominatim: { userAgent: "docs-test" } } });
    geocoder.app.listen({ port: 0, hostname: "127.0.0.1" });
    origin = `http://127.0.0.1:${geocoder.app.server!.port}`;
    browser = await launchOfflineBrowser();
  }, browserSetupTimeoutMs);
  afterAll(async () => {
    await browser?.[Symbol.asyncDispose]();
    await geocoder?.app.stop(true);
    geocoder?.l2Database.close();
  });

  test.each(["/docs", "/docs/"])(
    "%s lists every operation of /docs/json, loading nothing but from the geocoder, and names no provider key",
    async (pagePath) => {
      const specText = await (await fetch(`${origin}/docs/json`)).text();
      const pageHtml = await (await fetch(`${origin}${pagePath}`)).text();

      const page = await browser.renderDocsPage(`${origin}${pagePath}`);

      expect(page.problems).toEqual([]);
      expect(page.title).toBe("Geocoder API");
      expect(page.operations).toEqual(specOperations(JSON.parse(specText)));
      expect(page.operations).toEqual(expect.arrayContaining(["GET /reverse-geocode", "GET /geocoders"]));
      expect(page.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(page.requests).toContain(`${origin}/docs/json`);
      for (const key of keys) expect([specText, pageHtml].filter((text) => text.includes(key))).toEqual([]);
    },
    browserTestTimeoutMs,
  );
});
