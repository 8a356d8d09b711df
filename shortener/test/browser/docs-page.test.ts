import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson, specOperations } from "@linkgeo/testing";
import { browserSetupTimeoutMs, browserTestTimeoutMs, launchOfflineBrowser, type OfflineBrowser } from "@linkgeo/testing/offline-browser";
import { startTestShortener, type TestShortener } from "../support/test-shortener.ts";

// On a real socket: Bun's router, not app.handle, decides whether /docs reaches the page or the /:short_url redirect.
describe("the shortener's own /docs in a browser with no internet", () => {
  let api: TestShortener;
  let browser: OfflineBrowser;
  let origin: string;

  beforeAll(async () => {
    api = await startTestShortener();
    api.app.listen({ port: 0, hostname: "127.0.0.1" });
    origin = `http://127.0.0.1:${api.app.server!.port}`;
    browser = await launchOfflineBrowser();
  }, browserSetupTimeoutMs);
  afterAll(async () => {
    await browser?.[Symbol.asyncDispose]();
    await api?.app.stop(true);
    await api?.[Symbol.asyncDispose]();
  });

  test.each(["/docs", "/docs/"])(
    "%s lists every operation of /docs/json, loading nothing but from the shortener",
    async (pagePath) => {
      const spec = await readJson(await fetch(`${origin}/docs/json`));

      const page = await browser.renderDocsPage(`${origin}${pagePath}`);

      expect(page.problems).toEqual([]);
      expect(page.title).toBe("Shortener API");
      expect(page.operations).toEqual(specOperations(spec));
      expect(page.operations).toEqual(expect.arrayContaining(["POST /shorten/", "PUT /shorten/{short_url}", "GET /{short_url}", "POST /admin/login"]));
      expect(page.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(page.requests).toContain(`${origin}/docs/json`);
    },
    browserTestTimeoutMs,
  );
});
