import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";

/** A flow over a few forms. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

describe.concurrent("addresses typed without https:// in every address field, in a real browser", () => {
  const web = useSharedWebStack();

  async function recordOf(code: string, token: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${web.stack.url}/shorten/${code}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  const rule = (page: Page, n: number) => page.locator(".rule-row").nth(n);

  test(
    "the home page's options take the address once expired and a rule's address without their scheme too",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        await page.getByLabel("URL to shorten").fill("example.com/schemeless-options");
        await page.locator("#customize > summary").click();
        await page.getByLabel("Address once expired or used up").fill("example.com/sorry");
        await page.getByRole("button", { name: "Add a rule" }).click();
        await rule(page, 0).getByLabel("Device").selectOption("android");
        await rule(page, 0).getByLabel("Send them to").fill("play.example.com/app");
        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#result-destination").getByText("https://example.com/schemeless-options").waitFor();
        const code = (await page.locator("#result-url").inputValue()).split("/").at(-2)!;
        const record = await recordOf(code, await page.locator("#token").inputValue());
        expect([record.expired_url, record.rules]).toEqual([
          "https://example.com/sorry",
          [{ when: { device: "android" }, url: "https://play.example.com/app" }],
        ]);
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
