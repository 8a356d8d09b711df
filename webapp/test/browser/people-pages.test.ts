import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort, startService, type ServiceProcess } from "@linkgeo/testing";
import { browserSetupTimeoutMs } from "@linkgeo/testing/offline-browser";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import type { Page } from "playwright-core";
import { launchWebBrowser, type WebBrowser } from "./support/web-browser.ts";

const asProgram = { accept: "application/json" };

/** A page anyone may get, a visitor of a short link first: the brand, and none of the operator's navigation or theme menu. */
async function expectBrandOnly(page: Page): Promise<void> {
  expect(await page.getByRole("banner").getByRole("link", { name: "linkgeo" }).isVisible()).toBe(true);
  expect(await page.getByRole("navigation").count()).toBe(0);
  expect(await page.getByRole("combobox", { name: "Theme" }).count()).toBe(0);
}

// The gateway alone, its shortener and geocoder on ports nothing listens on: every upstream is down.
describe("the gateway's own error answers: pages for a person's browser, JSON for programs", () => {
  let gateway: ServiceProcess;
  let browser: WebBrowser;
  let shortenerPort: number;

  beforeAll(async () => {
    shortenerPort = await freePort();
    const nowhere = `http://127.0.0.1:${shortenerPort}`;
    gateway = await startService("gateway", {
      SHORTENER_URL: nowhere,
      GEOCODER_URL: nowhere,
      RATE_LIMIT_CREATE: "off",
      RATE_LIMIT_API: "off",
      RATE_LIMIT_REDIRECT: "10/hour,burst=10",
      // Redirects proxied one by one: the shortener that comes back below is a stand-in that takes no batches.
      INTERNAL_SECRET: "",
    });
    browser = await launchWebBrowser();
  }, browserSetupTimeoutMs);
  afterAll(async () => {
    await browser?.[Symbol.asyncDispose]();
    await gateway?.[Symbol.asyncDispose]();
  });

  test("an unknown path: the web app's not-found page for a browser, the API's 404 for a program", async () => {
    const { page, context, problems } = await browser.open(`${gateway.url}/`);
    try {
      const answer = await page.goto(`${gateway.url}/x/y/z`);
      expect(answer!.status()).toBe(404);
      expect(answer!.headers()["content-type"]).toBe("text/html; charset=utf-8");
      await page.getByRole("heading", { name: "Page not found" }).waitFor();
      await expectBrandOnly(page);
      await checkPageState(page, "gateway-not-found");
      expect(unexpectedProblems(problems, [404, 502])).toEqual([]);
    } finally {
      await context.close();
    }
    const program = await fetch(`${gateway.url}/x/y/z`, { headers: asProgram });
    expect(program.status).toBe(404);
    expect(program.headers.get("content-type")).toStartWith("application/json");
    expect(((await program.json()) as { error: { code: string } }).error.code).toBeString();
  });

  test("a short link followed while the shortener is down: a page that says so, checks, and loads again once it is back; a program gets the 502", async () => {
    const program = await fetch(`${gateway.url}/abc1234/`, { headers: asProgram, redirect: "manual" });
    expect(program.status).toBe(502);
    expect(((await program.json()) as { error: { code: string } }).error.code).toBe("upstream_unavailable");

    // The profile's clock is Playwright's: the pages' 5 s checks are moved on to instead of waited for.
    const { page, context, problems } = await browser.open(`${gateway.url}/`, "desktop", { clock: true });
    let shortener: ReturnType<typeof Bun.serve> | undefined;
    try {
      const answer = await page.goto(`${gateway.url}/abc1234/`);
      expect(answer!.status()).toBe(502);
      expect(answer!.headers()["retry-after"]).toBe("5");
      await page.getByRole("heading", { name: "This service is not available right now" }).waitFor();
      expect(await page.getByRole("status").innerText()).toBe("This page checks every 5 seconds and loads again once the service answers.");
      await expectBrandOnly(page);
      await checkPageState(page, "gateway-unavailable");

      // A second tab stops checking when asked to.
      const stopped = await context.newPage();
      await stopped.goto(`${gateway.url}/abc1234/`);
      await stopped.getByRole("button", { name: "Stop checking" }).click();
      expect(await stopped.getByRole("status").innerText()).toBe("Stopped: this page no longer tries again by itself.");
      const askedByStopped: string[] = [];
      stopped.on("request", (request) => askedByStopped.push(request.url()));

      // The shortener comes back (a stand-in on its port that knows no link): the first page loads again by itself.
      shortener = Bun.serve({
        hostname: "127.0.0.1",
        port: shortenerPort,
        fetch: (request) =>
          new URL(request.url).pathname === "/health"
            ? Response.json({ status: "ok" })
            : new Response("<!doctype html><title>Not found</title>", { status: 404, headers: { "content-type": "text/html", "link-page": "not-found" } }),
      });
      // Both tabs' next check comes due: the first loads again, the stopped one stays as it is.
      await context.clock.fastForward(5_000);
      await page.getByRole("heading", { name: "This short link does not exist" }).waitFor({ timeout: 15_000 });
      // The stopped tab's check would have left with the first one's: it asked nothing, and stays as it was.
      expect(askedByStopped).toEqual([]);
      expect(await stopped.getByRole("heading", { name: "This service is not available right now" }).count()).toBe(1);
      expect(unexpectedProblems(problems, [404, 502])).toEqual([]);
    } finally {
      await shortener?.stop(true);
      await context.close();
    }
  });

  test("too many redirects from one address: the 429 page with the limit's Retry-After; a program gets the 429 JSON", async () => {
    let refused: Response | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const answer = await fetch(`${gateway.url}/abc1234/`, { headers: asProgram, redirect: "manual" });
      if (answer.status === 429) refused = answer;
      else await answer.body?.cancel();
    }
    expect(refused?.headers.get("content-type")).toStartWith("application/json");
    expect(((await refused!.json()) as { error: { code: string } }).error.code).toBe("rate_limited");

    const { page, context, problems } = await browser.open(`${gateway.url}/`);
    try {
      const answer = await page.goto(`${gateway.url}/abc1234/`);
      expect(answer!.status()).toBe(429);
      // 10 an hour: the next in 6 minutes.
      expect(Number(answer!.headers()["retry-after"])).toBeWithin(300, 361);
      await page.getByRole("heading", { name: "Too many requests" }).waitFor();
      expect(await page.locator("main").innerText()).toContain("This address has asked for many pages in a short time. Try again in 6 minutes.");
      await expectBrandOnly(page);
      await checkPageState(page, "gateway-rate-limited");
      expect(unexpectedProblems(problems, [404, 429])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
