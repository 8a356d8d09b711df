import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Route } from "playwright-core";
import { unexpectedProblems } from "./support/page-states.ts";
import { useWebStack } from "./support/fixtures.ts";
import { withoutLocalGeocoder } from "../support/web-stack.ts";

/** A flow that waits out an outage. */
const flowTimeoutMs = 3 * browserTestTimeoutMs;

/**
 * The gateway's deadline for an upstream (UPSTREAM_TIMEOUT_MS), shorter than
 * its 10 s default: the frozen shortener's outage is waited out in the
 * gateway's own steps, and the case spends seconds, not tens, doing it.
 */
const upstreamTimeoutMs = 2_000;

interface CreatedLink {
  short_url: string;
  link: string;
  manage_token: string;
}

// A stack of the file's own: one test freezes its shortener.
describe("a link's page through an outage, in a real browser", () => {
  const web = useWebStack({ ...withoutLocalGeocoder, gatewayEnv: { UPSTREAM_TIMEOUT_MS: String(upstreamTimeoutMs) } });

  async function createLink(longUrl: string): Promise<CreatedLink> {
    const response = await fetch(`${web.stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: longUrl }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as CreatedLink;
  }

  test(
    "a 503 and then no answer at all: the page says it tries again, and when, and loads by itself once the service answers",
    async () => {
      const link = await createLink("https://example.com/through-an-outage");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "desktop", { clock: true });
      try {
        // The link's reads fail as an outage does: the gateway's 503 first, then no answer at all, until it is over.
        let outage = true;
        const failures: string[] = [];
        await page.route(
          // The link's record, count and visits, asked for with or without the trailing slash.
          (url) => new RegExp(`^/shorten/${link.short_url}(/|$)`).test(url.pathname),
          (route: Route) => {
            if (!outage) return route.continue();
            failures.push(route.request().url());
            return failures.length === 1
              ? route.fulfill({ status: 503, json: { error: { code: "unavailable", message: "The shortener is not available." } } })
              : route.abort("connectionrefused");
          },
        );
        await page.goto(`${web.stack.url}/app/links/${link.short_url}`);
        const status = page.locator("#link-status");
        await status.filter({ hasText: "The service is not answering; trying again in 2 s…" }).waitFor();
        expect(await page.locator("#link-view").isHidden()).toBe(true);

        // The next try, with no answer: a longer pause.
        await page.clock.fastForward(2_000);
        await status.filter({ hasText: "The service is not answering; trying again in 4 s…" }).waitFor();

        // The service is back: the page loads by itself, no reload.
        outage = false;
        await page.clock.fastForward(4_000);
        await page.locator("#access-panel").waitFor();
        expect(await status.isHidden()).toBe(true);
        expect(await page.getByLabel("Short link", { exact: true }).inputValue()).toBe(link.link);
        expect(failures.length).toBeGreaterThanOrEqual(2);
        expect(unexpectedProblems(problems, [401, 503]).filter((problem) => !problem.includes("net::ERR_CONNECTION_REFUSED"))).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "the shortener frozen while the page opens: the gateway's 504 is waited out, and the page loads once the shortener runs again",
    async () => {
      const link = await createLink("https://example.com/frozen-shortener");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      const { shortener } = web.stack;
      try {
        shortener.kill("SIGSTOP");
        // The gateway serves the page without the shortener's verdict, after its deadline; the page's reads then time out too.
        await page.goto(`${web.stack.url}/app/links/${link.short_url}`);
        await page.locator("#link-status", { hasText: /^The service is not answering; trying again in \d+ s…$/ }).waitFor({ timeout: 30_000 });
        shortener.kill("SIGCONT");
        await page.locator("#access-panel").waitFor({ timeout: 45_000 });
        expect(await page.locator("#link-status").isHidden()).toBe(true);
        expect(await page.getByLabel("Short link", { exact: true }).inputValue()).toBe(link.link);
        expect(unexpectedProblems(problems, [401, 504])).toEqual([]);
      } finally {
        shortener.kill("SIGCONT");
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
