import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { overflowsHorizontally, requestsSettled, screenshot, seriousAccessibilityViolations, viewports, type ViewportName } from "./support/web-browser.ts";
import { useSharedWebStack } from "./support/fixtures.ts";

/** Every page of the web app, as a first-time visitor opens it. */
const pages: { name: string; path: string; heading: RegExp; status: number; apiStatuses?: number[]; visitor?: boolean }[] = [
  { name: "home", path: "/", heading: /shorten/i, status: 200 },
  { name: "your-links", path: "/app/links", heading: /your links/i, status: 200 },
  // The gateway asks the shortener first: a code no link has is the not-found page, answered 404.
  { name: "link-unknown", path: "/app/links/NoSuchLink", heading: /short link does not exist/i, status: 404 },
  // The admin page asks who is signed in: nobody, 401.
  { name: "admin-signed-out", path: "/app/admin", heading: /admin/i, status: 200, apiStatuses: [401] },
  // The workspaces page and an invite's page ask who is signed in: nobody, 401 (and the workspaces page asks for an admin too).
  { name: "workspaces-signed-out", path: "/app/workspaces", heading: /workspaces/i, status: 200, apiStatuses: [401] },
  { name: "invite-signed-out", path: "/app/invite#lgi_unknown", heading: /join a workspace/i, status: 200, apiStatuses: [401] },
  { name: "geocoder", path: "/app/geocoder", heading: /geocoder/i, status: 200 },
  // A short link's visitor gets the brand, not the operator's navigation.
  { name: "not-found-link", path: "/NoSuchLink/", heading: /short link does not exist/i, status: 404, visitor: true },
  { name: "not-found-page", path: "/app/no-such-page", heading: /page not found/i, status: 404 },
];

describe.concurrent("every page in a real browser, offline", () => {
  // The run's stack: a default server, as a first-time visitor sees it (its geocoder with LOCAL).
  const web = useSharedWebStack();

  for (const viewport of Object.keys(viewports) as ViewportName[]) {
    for (const { name, path, heading, status, apiStatuses = [], visitor = false } of pages) {
      test(
        `${name} at ${viewports[viewport].width} px: loads under its CSP with no error, passes axe, fits the width`,
        async () => {
          const { page, context, problems } = await web.browser.open(web.stack.url + path, viewport);
          try {
            expect((await page.reload())?.status()).toBe(status);
            expect(await page.getByRole("heading", { level: 1 }).first().innerText()).toMatch(heading);
            await requestsSettled(page);
            // The same navigation on every page of the app (behind Menu on a phone), none on a visitor's.
            if (viewport === "phone" && !visitor) await page.getByRole("banner").getByText("Menu", { exact: true }).click();
            expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toEqual(
              visitor ? [] : ["Shorten", "Your links", "Workspaces", "Geocoder", "Admin", "API docs"],
            );
            expect(await seriousAccessibilityViolations(page)).toEqual([]);
            expect(await overflowsHorizontally(page)).toBe(false);
            await screenshot(page, name);
            // Chromium logs a page's own 404 status, and the API's it expects, as console errors; nothing else may appear.
            const expected = [status, ...apiStatuses].map((s) => `console: Failed to load resource: the server responded with a status of ${s} `);
            expect(problems.filter((problem) => !expected.some((prefix) => problem.startsWith(prefix)))).toEqual([]);
          } finally {
            await context.close();
          }
        },
        browserTestTimeoutMs,
      );
    }
  }
});
