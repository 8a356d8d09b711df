import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { viewports, type ViewportName } from "./support/web-browser.ts";

/** A flow that checks a page at two widths, twice. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** The operator's own entries: a visitor of a short link has no use for them. */
const operatorLinks = ["Shorten", "Your links", "Workspaces", "Geocoder", "Admin", "API docs"];

/**
 * At both widths: the brand, leading to the home page, and nothing of the
 * operator's: no navigation, none of its links, no theme menu.
 */
async function expectBrandOnly(page: Page): Promise<void> {
  for (const viewport of Object.keys(viewports) as ViewportName[]) {
    await page.setViewportSize(viewports[viewport]);
    const brand = page.getByRole("banner").getByRole("link", { name: "linkgeo" });
    expect({ viewport, brand: await brand.isVisible() }).toEqual({ viewport, brand: true });
    expect(await brand.getAttribute("href")).toBe("/");
    expect({ viewport, navigations: await page.getByRole("navigation").count() }).toEqual({ viewport, navigations: 0 });
    for (const name of operatorLinks) {
      expect({ viewport, name, links: await page.getByRole("link", { name, exact: true }).count() }).toEqual({ viewport, name, links: 0 });
    }
    expect({ viewport, themeMenus: await page.getByRole("combobox", { name: "Theme" }).count() }).toEqual({ viewport, themeMenus: 0 });
  }
  await page.setViewportSize(viewports.desktop);
}

describe.concurrent("the pages a short link's visitor gets show the brand, not the operator's navigation", () => {
  const web = useSharedWebStack();

  async function createLink(body: Record<string, unknown>): Promise<{ short_url: string; link: string }> {
    const response = await fetch(`${web.stack.url}/shorten/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    return (await response.json()) as { short_url: string; link: string };
  }

  for (const javaScript of [true, false]) {
    test(
      `a protected link's password form, before and after a wrong try (scripts ${javaScript ? "on" : "blocked"})`,
      async () => {
        const link = await createLink({ long_url: "https://example.com/brand-only", password: "open sesame, please" });
        const { page, context, problems } = await web.browser.open(link.link, "desktop", { javaScript });
        try {
          await page.getByRole("heading", { name: "This link is protected" }).waitFor();
          await expectBrandOnly(page);
          await page.getByLabel("Password").fill("not the password");
          await page.getByRole("button", { name: "Continue" }).click();
          await page.getByRole("alert").waitFor();
          await expectBrandOnly(page);
          await checkPageState(page, `unlock-brand-only${javaScript ? "" : "-no-script"}`, { scriptsBlocked: !javaScript });
          expect(unexpectedProblems(problems, [401])).toEqual([]);
        } finally {
          await context.close();
        }
      },
      flowTimeoutMs,
    );
  }

  test(
    "a used-up link's page, a short link no link has, and an address the gateway has no page for",
    async () => {
      const usedUp = await createLink({ long_url: "https://example.com/brand-only-once", max_visits: 1 });
      expect((await fetch(usedUp.link, { redirect: "manual" })).status).toBe(302);
      const { page, context, problems } = await web.browser.open(usedUp.link);
      try {
        await page.getByRole("heading", { name: "This link is no longer available" }).waitFor();
        await expectBrandOnly(page);
        expect((await page.goto(`${web.stack.url}/NoSuchLnk/`))?.status()).toBe(404);
        await page.getByRole("heading", { name: "This short link does not exist" }).waitFor();
        await expectBrandOnly(page);
        expect((await page.goto(`${web.stack.url}/x/y/z`))?.status()).toBe(404);
        await page.getByRole("heading", { name: "Page not found" }).waitFor();
        await expectBrandOnly(page);
        expect(unexpectedProblems(problems, [404, 410])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a theme chosen in the app still colours a visitor's page, which has no menu to change it",
    async () => {
      const link = await createLink({ long_url: "https://example.com/brand-only-dark", password: "open sesame, please" });
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "phone");
      try {
        await page.getByRole("banner").getByText("Menu", { exact: true }).click();
        await page.getByRole("combobox", { name: "Theme" }).selectOption("dark");
        await page.goto(link.link);
        await page.getByRole("heading", { name: "This link is protected" }).waitFor();
        expect(await page.evaluate("document.documentElement.dataset.theme")).toBe("dark");
        expect(await page.getByRole("combobox", { name: "Theme" }).count()).toBe(0);
        await checkPageState(page, "unlock-brand-only-dark");
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a page of the app that does not exist is the operator's: it keeps the navigation",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/no-such-page`);
      try {
        await page.getByRole("heading", { name: "Page not found" }).waitFor();
        expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toEqual(operatorLinks);
        expect(await page.getByRole("combobox", { name: "Theme" }).count()).toBe(1);
        expect(unexpectedProblems(problems, [404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});
