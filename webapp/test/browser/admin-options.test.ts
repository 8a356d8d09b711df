import { beforeAll, describe, expect, test } from "bun:test";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { stackAdmin, type WebStack, withoutLocalGeocoder } from "../support/web-stack.ts";
import { useWebStack } from "./support/fixtures.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** Links in each state, made through the API as their owners would (oldest first). */
const seeds: { short_url: string; options: Record<string, unknown>; visits?: number; expire?: boolean }[] = [
  { short_url: "plain-link", options: {} },
  { short_url: "launch-old", options: { tags: ["launch"] }, expire: true },
  { short_url: "used-once", options: { max_visits: 1, tags: ["promo"] }, visits: 1 },
  { short_url: "launch-locked", options: { tags: ["launch", "promo"], password: "a long enough secret" } },
  { short_url: "promo-over", options: { tags: ["promo"] }, expire: true },
];

describe("the admin table's options in a real browser", () => {
  // A stack of the file's own (useWebStack: the admin's table lists every link there is) and the browser;
  // `stack` is read in the tests, set once it is up.
  const web = useWebStack(withoutLocalGeocoder);
  let stack: WebStack;
  let page: Page;
  let problems: string[];

  const codesShown = () => page.locator("#links-body tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-code")));
  const badgesOf = (code: string) => page.locator(`#links-body tr[data-code="${code}"] .badge`).allInnerTexts();

  beforeAll(async () => {
    stack = web.stack;
    for (const seed of seeds) {
      const response = await fetch(`${stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: `https://example.com/${seed.short_url}`, short_url: seed.short_url, ...seed.options }),
      });
      expect(response.status).toBe(201);
      const { manage_token } = (await response.json()) as { manage_token: string };
      for (let i = 0; i < (seed.visits ?? 0); i++) expect((await fetch(`${stack.url}/${seed.short_url}/`, { redirect: "manual" })).status).toBe(302);
      if (seed.expire) {
        const change = await fetch(`${stack.url}/shorten/${seed.short_url}/`, {
          method: "PUT",
          headers: { "content-type": "application/json", authorization: `Bearer ${manage_token}` },
          body: JSON.stringify({ expires_at: "2020-01-01T00:00:00Z" }),
        });
        expect(change.status).toBe(200);
      }
    }
    ({ page, problems } = await web.browser.open(`${stack.url}/`));
    expect((await page.request.post(`${stack.url}/admin/session`, { data: stackAdmin })).status()).toBe(200);
  }, browserSetupTimeoutMs);

  test(
    "every row says when its link is expired, used up or behind a password",
    async () => {
      await page.goto(`${stack.url}/app/admin`);
      await page.locator('#links-body tr[data-code="plain-link"]').waitFor();
      expect(await codesShown()).toEqual(["promo-over", "launch-locked", "used-once", "launch-old", "plain-link"]);
      expect(await badgesOf("plain-link")).toEqual([]);
      expect(await badgesOf("launch-old")).toEqual(["Expired"]);
      expect(await badgesOf("used-once")).toEqual(["Used up"]);
      expect(await badgesOf("launch-locked")).toEqual(["Password"]);
      // The admin sees what a password hides from visitors.
      const destination = page.locator('#links-body tr[data-code="launch-locked"] .destination-link');
      expect(await destination.getAttribute("href")).toBe("https://example.com/launch-locked");
      expect(await destination.innerText()).toBe("example.com\n/launch-locked");
      await checkPageState(page, "admin-badges");

      // A tag the API could not take is said on its field; the table stays.
      await page.getByLabel("Tag").fill("not a tag!");
      await page.getByLabel("Tag").press("Enter");
      await page.locator("#link-tag-error", { hasText: "A tag is 1 to 32 of a-z, 0-9, _ or -." }).waitFor();
      expect(await page.getByLabel("Tag").getAttribute("aria-invalid")).toBe("true");
      expect(new URL(page.url()).search).toBe("");
      expect(await codesShown()).toHaveLength(5);
      await page.getByLabel("Tag").fill("");
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    flowTimeoutMs,
  );

  test(
    "filters by tag and by state, kept in the address: a reload shows the same rows",
    async () => {
      await page.goto(`${stack.url}/app/admin?tag=launch`);
      await page.locator('#links-body tr[data-code="launch-locked"]').waitFor();
      expect(await page.getByLabel("Tag").inputValue()).toBe("launch");
      expect(await codesShown()).toEqual(["launch-locked", "launch-old"]);

      await page.getByLabel("State").selectOption("expired");
      await page.locator("#page-info", { hasText: "1 link" }).waitFor();
      expect(await codesShown()).toEqual(["launch-old"]);
      expect(new URL(page.url()).search).toBe("?tag=launch&state=expired");

      await page.getByLabel("Tag").fill("promo");
      await page.getByLabel("Tag").press("Enter");
      await page.locator('#links-body tr[data-code="promo-over"]').waitFor();
      expect(await codesShown()).toEqual(["promo-over"]);
      await checkPageState(page, "admin-filtered");

      await page.getByLabel("State").selectOption("exhausted");
      await page.locator('#links-body tr[data-code="used-once"]').waitFor();
      expect(await codesShown()).toEqual(["used-once"]);
      await page.reload();
      await page.locator('#links-body tr[data-code="used-once"]').waitFor();
      expect([await page.getByLabel("Tag").inputValue(), await page.getByLabel("State").inputValue()]).toEqual(["promo", "exhausted"]);
      expect(await codesShown()).toEqual(["used-once"]);

      await page.getByLabel("State").selectOption("active");
      await page.locator('#links-body tr[data-code="launch-locked"]').waitFor();
      expect(await codesShown()).toEqual(["launch-locked"]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    flowTimeoutMs,
  );
});
