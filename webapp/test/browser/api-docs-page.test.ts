import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useLoneGateway } from "./support/fixtures.ts";

const pageBackground = (page: Page) => page.evaluate("getComputedStyle(document.body).backgroundColor");

// The gateway alone: its own operations make the page; the merged spec with both services is docs-page.test.ts's.
describe.concurrent("/docs inside the web app: its header, navigation and theme around the API's operations", () => {
  const web = useLoneGateway();

  test(
    "the operations under the app's navigation (API docs current), in the app's dark theme when chosen, offline, under the docs policy",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.gateway.url}/docs`, "desktop", { colorScheme: "light" });
      try {
        await page.locator(".swagger-ui .opblock").first().waitFor();
        expect(await page.title()).toBe("API docs · linkgeo");
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("API docs");
        const nav = page.getByRole("navigation", { name: "Main" });
        expect(await nav.getByRole("link", { name: "API docs" }).getAttribute("aria-current")).toBe("page");
        expect(await page.locator(".swagger-ui .opblock-summary-path[data-path='/docs']").count()).toBeGreaterThan(0);
        expect(await page.evaluate("document.documentElement.classList.contains('dark-mode')")).toBe(false);
        await checkPageState(page, "api-docs");

        await page.getByRole("combobox", { name: "Theme" }).selectOption("dark");
        expect(await page.evaluate("document.documentElement.classList.contains('dark-mode')")).toBe(true);
        expect(await pageBackground(page)).toBe("rgb(15, 17, 21)");
        // Checked as loaded dark: Swagger UI's colours ease over 0.2 s after a switch, and axe would catch them halfway.
        await page.reload();
        await page.locator(".swagger-ui .opblock").first().waitFor();
        expect(await page.evaluate("document.documentElement.classList.contains('dark-mode')")).toBe(true);
        await checkPageState(page, "api-docs-dark");

        // Opened, an operation is Swagger UI's as ever.
        await page.locator(".swagger-ui .opblock-summary-path[data-path='/health']").first().click();
        await page.getByRole("button", { name: "Try it out" }).first().waitFor();

        const policy = (await page.request.get(`${web.gateway.url}/docs`)).headers()["content-security-policy"];
        expect(policy).toContain("script-src 'self'");
        expect(policy).not.toContain("unsafe-eval");
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );

  test(
    "on a dark system, Swagger UI is dark from the first paint",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.gateway.url}/docs`, "phone", { colorScheme: "dark" });
      try {
        await page.locator(".swagger-ui .opblock").first().waitFor();
        expect(await page.evaluate("document.documentElement.classList.contains('dark-mode')")).toBe(true);
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    browserTestTimeoutMs,
  );
});
