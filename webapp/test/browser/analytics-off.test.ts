import { describe, expect, test } from "bun:test";
import { waitFor } from "@linkgeo/testing";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useWebStack } from "./support/fixtures.ts";
import { stackAdmin, withoutLocalGeocoder } from "../support/web-stack.ts";

/** A flow over two pages, each checked at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

describe("the pages of a stack whose shortener runs with ANALYTICS=off", () => {
  const web = useWebStack({ ...withoutLocalGeocoder, shortenerEnv: { ANALYTICS: "off" } });

  test(
    "a link's page and the admin page say analytics are off, not an empty chart or zero visits, while the link's count grows",
    async () => {
      const created = await fetch(`${web.stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: "https://example.com/counted-only" }),
      });
      const link = (await created.json()) as { short_url: string; manage_token: string };
      for (let i = 0; i < 2; i++) expect((await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" })).status).toBe(302);
      await waitFor("the 2 visits to be counted", async () => {
        const stats = (await (await fetch(`${web.stack.url}/shorten/${link.short_url}/stats/`)).json()) as { access_count: number };
        return stats.access_count === 2;
      });

      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`);
      try {
        await page.getByRole("textbox", { name: "Manage token" }).fill(link.manage_token);
        await page.getByRole("button", { name: "Use this token" }).click();
        await page.locator("#analytics-off").waitFor();
        expect(await page.locator("#analytics-off").innerText()).toStartWith("Analytics are off on this server.");
        expect(await page.locator("#stat-count").innerText()).toBe("2");
        for (const part of ["#chart-controls", "#visits-report"]) expect(await page.locator(part).isHidden()).toBe(true);
        await checkPageState(page, "link-analytics-off");

        await page.goto(`${web.stack.url}/app/admin`);
        await page.getByLabel("Username").fill(stackAdmin.username);
        await page.getByLabel("Password").fill(stackAdmin.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.locator("#visit-summary-off").waitFor();
        expect(await page.locator("#visit-summary-off").innerText()).toStartWith("Analytics are off on this server.");
        expect(await page.locator("#visit-summary-figures").isHidden()).toBe(true);
        await checkPageState(page, "admin-analytics-off");

        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
