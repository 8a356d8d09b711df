import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { unexpectedProblems } from "./support/page-states.ts";
import type { OpenedPage } from "./support/web-browser.ts";
import { useSharedWebStack } from "./support/fixtures.ts";

/** A flow over a few forms. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

interface CreatedLink {
  short_url: string;
  link: string;
  manage_token: string;
}

describe.concurrent("addresses typed without https:// in every address field, in a real browser", () => {
  const web = useSharedWebStack();

  async function createLink(longUrl: string): Promise<CreatedLink> {
    const response = await fetch(`${web.stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: longUrl }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as CreatedLink;
  }

  async function recordOf(code: string, token: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${web.stack.url}/shorten/${code}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  async function openWithToken(link: CreatedLink): Promise<OpenedPage> {
    const opened = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`, "phone");
    await opened.page.getByRole("textbox", { name: "Manage token" }).fill(link.manage_token);
    await opened.page.getByRole("button", { name: "Use this token" }).click();
    await opened.page.locator("#chart svg").waitFor();
    return opened;
  }

  const rule = (page: Page, n: number) => page.locator(".rule-row").nth(n);

  test(
    "a link's page takes example.org/after as its new destination, and the options' addresses without their scheme, sent with https://",
    async () => {
      const link = await createLink("https://example.com/schemeless-before");
      const { page, context, problems } = await openWithToken(link);
      try {
        await page.getByLabel("New destination").fill("example.org/after");
        await page.getByRole("button", { name: "Save destination" }).click();
        await page.locator("#edit-status", { hasText: "Saved: the short link now goes to https://example.org/after." }).waitFor();
        expect(await page.getByLabel("New destination").getAttribute("aria-invalid")).toBeNull();
        const redirect = await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" });
        expect(redirect.headers.get("location")).toBe("https://example.org/after");

        await page.getByLabel("Address once expired or used up").fill("example.com/over");
        await page.getByRole("button", { name: "Add a rule" }).click();
        await rule(page, 0).getByLabel("Language").fill("de");
        await rule(page, 0).getByLabel("Send them to").fill("example.com/de?from=rule");
        await page.getByRole("button", { name: "Save options" }).click();
        await page.locator("#options-status", { hasText: "Saved: 2 options changed." }).waitFor();
        const record = await recordOf(link.short_url, link.manage_token);
        expect([record.expired_url, record.rules]).toEqual([
          "https://example.com/over",
          [{ when: { language: "de" }, url: "https://example.com/de?from=rule" }],
        ]);
        // The fields show the addresses as saved.
        expect(await page.getByLabel("Address once expired or used up").inputValue()).toBe("https://example.com/over");
        expect(await rule(page, 0).getByLabel("Send them to").inputValue()).toBe("https://example.com/de?from=rule");

        // A word is still no address: the API says so on the field.
        await page.getByLabel("Address once expired or used up").fill("nowhere");
        await page.getByRole("button", { name: "Save options" }).click();
        await page.locator("#edit-expired-url-error", { hasText: "The address once expired or used up must be" }).waitFor();
        expect(unexpectedProblems(problems, [400, 401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

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
