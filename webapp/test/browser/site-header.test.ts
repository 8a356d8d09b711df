import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Locator, Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { viewports } from "./support/web-browser.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

const navigation = ["Shorten", "Your links", "Workspaces", "Geocoder", "Admin", "API docs"];

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} is not shown`);
  return found;
}

/** The header's controls side by side on one row: each within the header's height, none over the next. */
async function expectOneRow(page: Page, controls: Locator[]): Promise<void> {
  const header = await box(page.getByRole("banner"));
  // One row: as tall as its tallest control (44 px) and its padding; two rows would be over 100 px.
  expect(header.height).toBeLessThanOrEqual(72);
  const boxes = await Promise.all(controls.map(box));
  for (const [i, each] of boxes.entries()) {
    expect({ control: i, top: each.y >= header.y, bottom: each.y + each.height <= header.y + header.height }).toEqual({ control: i, top: true, bottom: true });
    const next = boxes[i + 1];
    if (next) expect({ control: i, endsBeforeNext: each.x + each.width <= next.x }).toEqual({ control: i, endsBeforeNext: true });
  }
}

describe.concurrent("the header: one row on a phone, Menu holding the navigation and the theme menu", () => {
  const web = useSharedWebStack();

  test(
    "at 375 px the brand and a Menu holding the navigation and the theme menu share one row; at 1280 px they are all the row",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links`, "phone");
      try {
        const brand = page.getByRole("banner").getByRole("link", { name: "linkgeo" });
        const menu = page.getByRole("banner").getByText("Menu", { exact: true });
        const nav = page.getByRole("navigation", { name: "Main" });
        const theme = page.getByRole("combobox", { name: "Theme" });
        await expectOneRow(page, [brand, menu]);
        // Folded: the navigation and the theme menu wait behind Menu.
        expect(await nav.getByRole("link").count()).toBe(0);
        expect(await theme.isVisible()).toBe(false);
        await checkPageState(page, "header-menu-folded");

        await page.setViewportSize(viewports.phone);
        await menu.click();
        expect(await nav.getByRole("link").allTextContents()).toEqual(navigation);
        expect(await nav.getByRole("link", { name: "Your links" }).getAttribute("aria-current")).toBe("page");
        expect(await theme.isVisible()).toBe(true);
        // Open, the menu lies over the page: the header stays one row, the page does not scroll sideways.
        await expectOneRow(page, [brand, menu]);
        await checkPageState(page, "header-menu-open");
        await page.setViewportSize(viewports.phone);
        await nav.getByRole("link", { name: "Geocoder" }).click();
        await page.waitForURL(`${web.stack.url}/app/geocoder`);

        // On a desktop every entry is in the row itself, with no Menu to open.
        await page.setViewportSize(viewports.desktop);
        const links = nav.getByRole("link");
        expect(await links.allTextContents()).toEqual(navigation);
        expect(await menu.isVisible()).toBe(false);
        await expectOneRow(page, [brand, ...(await links.all()), theme]);
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
