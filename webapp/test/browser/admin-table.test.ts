import { beforeAll, describe, expect, test } from "bun:test";
import { waitFor } from "@linkgeo/testing";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Locator, Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { viewports, type ViewportName } from "./support/web-browser.ts";
import { stackAdmin, type WebStack, withoutLocalGeocoder } from "../support/web-stack.ts";
import { useWebStack } from "./support/fixtures.ts";

/** A flow that checks its states at both widths. */
const flowTimeoutMs = 3 * browserTestTimeoutMs;

/** Links as people make them: a long destination with a title and tags, one with escaped letters, a bare one (oldest first). */
const seeds = [
  {
    short_url: "guide",
    long_url: "https://docs.example.com/guides/getting-started/installing-on-a-server/step-by-step?utm_source=newsletter&utm_medium=email#section-2",
    title: "Getting started guide",
    tags: ["docs", "launch"],
  },
  { short_url: "cafe", long_url: "https://shop.example.org/caf%C3%A9/men%C3%BC", title: "Café menu", tags: ["food"] },
  { short_url: "to-edit", long_url: "https://old.example.com/landing" },
];

/** True when `inner`'s box lies within `outer`'s (a pixel of rounding allowed). */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [(await inner.boundingBox())!, (await outer.boundingBox())!];
  return a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
}

/** True when two boxes share any area (a message spilling over a neighbouring cell). */
async function overlap(one: Locator, other: Locator): Promise<boolean> {
  const [a, b] = [(await one.boundingBox())!, (await other.boundingBox())!];
  return a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
}

describe("the admin table, readable at both widths", () => {
  const web = useWebStack(withoutLocalGeocoder);
  let stack: WebStack;
  let page: Page;
  let problems: string[];

  const row = (code: string) => page.locator(`#links-body tr[data-code="${code}"]`);
  const menuButton = (code: string) => row(code).getByRole("button", { name: `Actions for ${code}` });
  const menu = (code: string) => page.getByRole("menu", { name: `Actions for ${code}` });
  const focusedName = () => page.evaluate("document.activeElement.textContent.trim()");
  /** The menu takes the focus once it is shown, a task after it opens. */
  const focusComesTo = (name: string) => waitFor(`the focus on ${name}`, async () => (await focusedName()) === name);

  beforeAll(async () => {
    stack = web.stack;
    for (const seed of seeds) {
      const response = await fetch(`${stack.url}/shorten/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(seed) });
      expect(response.status).toBe(201);
    }
    ({ page, problems } = await web.browser.open(`${stack.url}/`));
    expect((await page.request.post(`${stack.url}/admin/session`, { data: stackAdmin })).status()).toBe(200);
    await page.goto(`${stack.url}/app/admin`);
    await row("guide").waitFor();
  }, browserSetupTimeoutMs);

  test(
    "a destination shows its host in full and the rest readably, with the whole address to follow; title and tags have columns",
    async () => {
      const guide = seeds[0]!;
      for (const viewport of Object.keys(viewports) as ViewportName[]) {
        await page.setViewportSize(viewports[viewport]);
        const destination = row("guide").getByRole("link", { name: /docs\.example\.com/ });
        expect(await destination.getAttribute("href")).toBe(guide.long_url);
        expect(await destination.getAttribute("title")).toBe(guide.long_url);
        const host = destination.locator(".destination-host");
        expect(await host.innerText()).toBe("docs.example.com");
        // The host is never cut: all of it fits where it is shown.
        expect(await host.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
        expect(await destination.locator(".destination-rest").innerText()).toStartWith("/guides/getting-started/installing-on-a-server");
        // Escaped letters are read as letters.
        expect(await row("cafe").locator(".destination-rest").innerText()).toBe("/café/menü");

        expect(await row("guide").locator("td.title").innerText()).toBe("Getting started guide");
        expect(await row("guide").locator("td.tags").getByRole("button").allInnerTexts()).toEqual(["docs", "launch"]);
        expect(await row("to-edit").locator("td.title").innerText()).toContain("no title");
      }
      await page.setViewportSize(viewports.desktop);
      expect(await page.locator("#links-table thead").getByRole("columnheader").allInnerTexts()).toEqual([
        "Selected",
        "Short link",
        "Title",
        "Destination",
        "Tags",
        "Visits",
        "Created",
        "Last visited",
        "Last 14 days",
        "Actions",
      ]);
      await checkPageState(page, "admin-table-readable");

      // A tag shows the links that have it.
      await row("cafe").getByRole("button", { name: /^food/ }).click();
      await page.waitForURL((url) => url.searchParams.get("tag") === "food");
      await page.locator("#page-info", { hasText: "1 link" }).waitFor();
      expect(await page.getByLabel("Tag").inputValue()).toBe("food");
      await page.goBack();
      await page.locator("#page-info", { hasText: "3 links" }).waitFor();
    },
    flowTimeoutMs,
  );

  test(
    "a row's actions are one menu button: the menu opens on its first item, the arrows move, Escape closes it back to the button",
    async () => {
      for (const viewport of Object.keys(viewports) as ViewportName[]) {
        await page.setViewportSize(viewports[viewport]);
        expect(await row("guide").locator("td.actions").getByRole("button").count()).toBe(1);
        const button = menuButton("guide");
        expect(await button.getAttribute("aria-haspopup")).toBe("menu");
        expect(await button.getAttribute("aria-expanded")).toBe("false");

        await button.click();
        await menu("guide").waitFor();
        expect(await button.getAttribute("aria-expanded")).toBe("true");
        expect(await menu("guide").getByRole("menuitem").allInnerTexts()).toEqual([
          "Open its page",
          "Copy short link",
          "QR code",
          "Edit destination",
          "Delete",
        ]);
        expect(await menu("guide").getByRole("menuitem", { name: "Open its page" }).getAttribute("href")).toBe(
          `/app/links/guide?domain=${new URL(stack.url).hostname}`,
        );
        await focusComesTo("Open its page");
        await page.keyboard.press("ArrowDown");
        expect(await focusedName()).toBe("Copy short link");
        await page.keyboard.press("End");
        expect(await focusedName()).toBe("Delete");
        await page.keyboard.press("ArrowDown");
        expect(await focusedName()).toBe("Open its page");
        // Whole, on the screen, at either width.
        const box = (await menu("guide").boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewports[viewport].width);
        await checkPageState(page, `admin-row-menu-${viewport}`);
        await page.setViewportSize(viewports[viewport]);

        await page.keyboard.press("Escape");
        await menu("guide").waitFor({ state: "hidden" });
        expect(await button.getAttribute("aria-expanded")).toBe("false");
        expect(await button.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      }

      // Choosing an item does it: the short link is copied.
      await menuButton("cafe").click();
      await menu("cafe").getByRole("menuitem", { name: "Copy short link" }).click();
      await menu("cafe").waitFor({ state: "hidden" });
      await page.locator("#links-status", { hasText: `Copied ${stack.url}/cafe/.` }).waitFor();
      await page.setViewportSize(viewports.desktop);
    },
    flowTimeoutMs,
  );

  test(
    "the inline edit's refusal stays inside the row at both widths, over no other cell",
    async () => {
      const target = row("to-edit");
      for (const viewport of Object.keys(viewports) as ViewportName[]) {
        await page.setViewportSize(viewports[viewport]);
        await menuButton("to-edit").click();
        await menu("to-edit").getByRole("menuitem", { name: "Edit destination" }).click();
        const field = target.getByLabel("New destination for to-edit");
        await field.waitFor();
        expect(await field.inputValue()).toBe("https://old.example.com/landing");

        await field.fill("not a web address at all, just words that go on and on past the width of any column");
        await target.getByRole("button", { name: "Save" }).click();
        const refusal = target.getByRole("alert").filter({ hasText: /\w/ });
        await refusal.waitFor();
        expect(await field.getAttribute("aria-invalid")).toBe("true");
        // The refusal stays in the row's panel: over no other cell, and inside the table's width.
        const panel = target.locator("td.row-panel");
        expect(await inside(refusal, panel)).toBe(true);
        expect(await inside(refusal, target)).toBe(true);
        for (const neighbour of ["td.code", "td.title", "td.actions"]) expect(await overlap(refusal, target.locator(neighbour))).toBe(false);
        await checkPageState(page, `admin-edit-refused-${viewport}`);
        await page.setViewportSize(viewports[viewport]);
        await field.press("Escape");
        await field.waitFor({ state: "detached" });
        expect(await menuButton("to-edit").evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      }
      expect(await (await fetch(`${stack.url}/shorten/to-edit/`)).json()).toMatchObject({ long_url: "https://old.example.com/landing" });
      // Chromium logs the API's refusal (400), when the page sends what it was given, as a console error.
      expect(unexpectedProblems(problems, [400])).toEqual([]);
    },
    flowTimeoutMs,
  );
  test(
    "the inline edit takes an address typed without https://, as the home page does, says it added it, and keeps the row's last visit",
    async () => {
      // A visit first, so the row has a last visit for the edit to keep (the PUT's answer has none).
      expect((await fetch(`${stack.url}/to-edit`, { redirect: "manual" })).status).toBe(302);
      await page.reload();
      const target = row("to-edit");
      const lastVisited = target.locator('td[data-label="Last visited"]');
      await lastVisited.filter({ hasNotText: "never" }).waitFor();
      const lastVisitShown = await lastVisited.innerText();
      await menuButton("to-edit").click();
      await menu("to-edit").getByRole("menuitem", { name: "Edit destination" }).click();
      const field = target.getByLabel("New destination for to-edit");
      // What is no web address is said before anything is sent.
      await field.fill("just words");
      await target.getByRole("button", { name: "Save" }).click();
      await target.getByRole("alert").filter({ hasText: "That is not a web address: enter one like example.com/page" }).waitFor();

      await field.fill("example.com/new-page?from=admin");
      await target.getByRole("button", { name: "Save" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: "The destination of to-edit is now https://example.com/new-page?from=admin (https:// added)." })
        .waitFor();
      expect(await target.locator(".destination-host").innerText()).toBe("example.com");
      expect(await target.locator(".destination-rest").innerText()).toBe("/new-page?from=admin");
      expect(await lastVisited.innerText()).toBe(lastVisitShown);
      const record = (await (await fetch(`${stack.url}/shorten/to-edit/`)).json()) as { long_url: string };
      expect(record.long_url).toBe("https://example.com/new-page?from=admin");
      expect(unexpectedProblems(problems, [400])).toEqual([]);
    },
    flowTimeoutMs,
  );
});
