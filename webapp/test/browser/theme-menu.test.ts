import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useLoneGateway } from "./support/fixtures.ts";
import { openAs } from "./support/web-browser.ts";

/** The page background of each theme (style.css's --bg), as the browser computes it. */
const background = { light: "rgb(246, 247, 249)", dark: "rgb(15, 17, 21)" };

const pageBackground = (page: Page) => page.evaluate("getComputedStyle(document.body).backgroundColor");
const storedTheme = (page: Page) => page.evaluate(`localStorage.getItem("linkgeo.theme")`);

// The gateway alone serves every page; the menu needs no upstream, so none runs (the pages' own API calls answer 502).
describe.concurrent("the header's Theme menu: system, light or dark, kept in this browser", () => {
  const web = useLoneGateway();

  test(
    "on a dark system, Light turns the page light at once, on every page and after a reload, set before the body exists",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.gateway.url}/`, "desktop", { colorScheme: "dark" });
      try {
        const menu = page.getByRole("combobox", { name: "Theme" });
        expect(await menu.inputValue()).toBe("system");
        expect(await pageBackground(page)).toBe(background.dark);
        await checkPageState(page, "theme-system-dark");

        await menu.selectOption("light");
        expect(await pageBackground(page)).toBe(background.light);
        expect(await storedTheme(page)).toBe("light");

        // Chosen before anything paints: the attribute is on <html> while <body> does not exist yet.
        await page.addInitScript(`new MutationObserver((changes, observer) => {
          if (changes.some((change) => change.target === document.documentElement)) {
            window.themeSetBeforeBody = document.body === null;
            observer.disconnect();
          }
        }).observe(document, { subtree: true, attributeFilter: ["data-theme"] })`);
        await page.goto(`${web.gateway.url}/app/geocoder`);
        expect(await page.evaluate("window.themeSetBeforeBody")).toBe(true);
        expect(await pageBackground(page)).toBe(background.light);
        expect(await page.getByRole("combobox", { name: "Theme" }).inputValue()).toBe("light");
        await page.reload();
        expect(await pageBackground(page)).toBe(background.light);
        expect(unexpectedProblems(problems, [502])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "on a light system, Dark passes the accessibility check and fits both widths, another tab follows, and System forgets the choice",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.gateway.url}/`, "desktop", { colorScheme: "light" });
      try {
        expect(await pageBackground(page)).toBe(background.light);
        const other = await openAs({ page, context, problems }, `${web.gateway.url}/app/geocoder`);
        await page.getByRole("combobox", { name: "Theme" }).selectOption("dark");
        expect(await pageBackground(page)).toBe(background.dark);
        await checkPageState(page, "theme-dark");

        // The other tab hears of it through storage and follows, its menu too.
        await other.page.getByRole("combobox", { name: "Theme" }).and(other.page.locator("select")).waitFor();
        await other.page.evaluate(`new Promise((resolve) => {
          const check = () => (document.documentElement.dataset.theme === "dark" ? resolve() : requestAnimationFrame(check));
          check();
        })`);
        expect(await pageBackground(other.page)).toBe(background.dark);
        expect(await other.page.getByRole("combobox", { name: "Theme" }).inputValue()).toBe("dark");

        await page.getByRole("combobox", { name: "Theme" }).selectOption("system");
        expect(await pageBackground(page)).toBe(background.light);
        expect(await storedTheme(page)).toBeNull();
        expect(unexpectedProblems(problems, [502])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "a stored value that is no theme is the system's, and with scripts blocked the menu is not offered",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.gateway.url}/`, "phone", { colorScheme: "dark" });
      try {
        await page.evaluate(`localStorage.setItem("linkgeo.theme", "<img src=x onerror=alert(1)>")`);
        await page.reload();
        expect(await page.evaluate("document.documentElement.dataset.theme ?? null")).toBeNull();
        // On a phone the menu is in the header's Menu.
        await page.getByRole("banner").getByText("Menu", { exact: true }).click();
        expect(await page.getByRole("combobox", { name: "Theme" }).inputValue()).toBe("system");
        expect(await pageBackground(page)).toBe(background.dark);
        expect(unexpectedProblems(problems, [502])).toEqual([]);
      } finally {
        await context.close();
      }
      const blocked = await web.browser.open(`${web.gateway.url}/`, "phone", { javaScript: false });
      try {
        // Menu opens without a script (a <details>): the navigation is there, the theme menu is not.
        await blocked.page.getByRole("banner").getByText("Menu", { exact: true }).click();
        await blocked.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your links" }).waitFor();
        expect(await blocked.page.getByText("Theme").isVisible()).toBe(false);
        expect(await pageBackground(blocked.page)).toBe(background.light);
        await checkPageState(blocked.page, "theme-scripts-blocked", { scriptsBlocked: true });
      } finally {
        await blocked.context.close();
      }
    },
    browserTestTimeoutMs,
  );
});
