import { beforeAll, describe, expect, test } from "bun:test";
import { waitFor } from "@linkgeo/testing";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { stackAdmin, type WebStack, withoutLocalGeocoder } from "../support/web-stack.ts";
import { useWebStack } from "./support/fixtures.ts";
import { typingPauseMs } from "../../src/client/lib/typing-pause.ts";

/** An outage, a restart of the shortener and the page's own recovery. */
const flowTimeoutMs = 3 * browserTestTimeoutMs;

/** The longest pause of a page between its tries during an outage (lib/outage-retry.ts: 2, 4, 8, 15 s, then every 30 s). */
const longestPauseMs = 30_000;

/**
 * The shortener of the file's own stack is really stopped (SIGTERM, as a
 * deploy or a crash ends it) and started again on its port: the gateway in
 * front answers 502 meanwhile, as it would in production.
 */
describe("the admin page while the link service is down", () => {
  const web = useWebStack(withoutLocalGeocoder);
  let stack: WebStack;
  let page: Page;
  let problems: string[];

  const notice = () => page.getByText("The link service is not answering right now.");
  const row = (code: string) => page.locator(`#links-body tr[data-code="${code}"]`);
  /** Jumps the page's clock past its longest wait until `condition` holds: the page asks again by itself, never reloaded. */
  const recovers = (what: string, condition: () => Promise<boolean>) =>
    waitFor(
      what,
      async () => {
        await page.clock.fastForward(longestPauseMs);
        return condition();
      },
      30_000,
    );

  beforeAll(async () => {
    stack = web.stack;
    for (const code of ["before-outage", "after-outage"]) {
      const response = await fetch(`${stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: `https://example.com/${code}`, short_url: code }),
      });
      expect(response.status).toBe(201);
    }
    ({ page, problems } = await web.browser.open(`${stack.url}/app/admin`, "desktop", { clock: true }));
    expect((await page.request.post(`${stack.url}/admin/session`, { data: stackAdmin })).status()).toBe(200);
  }, browserSetupTimeoutMs);

  test(
    "opened during the outage, it says so in words, then loads by itself once the service answers, without a reload",
    async () => {
      await stack.stopShortener();
      await page.reload();
      await notice().waitFor();
      expect(await page.getByRole("button", { name: "Try again now" }).isVisible()).toBe(true);
      // No error box with a status code, no sign-in form: the page waits.
      expect(await page.locator("#admin-failure").innerText()).toBe("");
      for (const part of ["#sign-in", "#admin-view"]) expect(await page.locator(part).isHidden()).toBe(true);
      await checkPageState(page, "admin-outage");

      // A mark on this document: a reload would drop it.
      await page.evaluate("window.notReloaded = true");
      await stack.startShortener();
      await recovers("the links to load by themselves", () => row("before-outage").isVisible());
      await notice().waitFor({ state: "hidden" });
      expect(await page.getByText(`Signed in as ${stackAdmin.username}`).isVisible()).toBe(true);
      await page.getByRole("heading", { name: "API keys" }).waitFor();
      expect(await page.evaluate("window.notReloaded")).toBe(true);
    },
    flowTimeoutMs,
  );

  test(
    "down while it is used: a search waits for the service and is shown once it answers; Try again now asks at once",
    async () => {
      await stack.stopShortener();
      await page.getByLabel("Search").fill("after");
      await page.clock.fastForward(typingPauseMs);
      await notice().waitFor();
      expect(await page.locator("#links-error").innerText()).toBe("");

      // Asked at once, while it is still down: the notice stays.
      const asked = page.waitForResponse((response) => response.url().includes("/shorten/?"));
      await page.getByRole("button", { name: "Try again now" }).click();
      expect((await asked).status()).toBe(502);
      await notice().waitFor();

      await page.evaluate("window.notReloaded = true");
      await stack.startShortener();
      await recovers("the search to be shown by itself", async () => (await page.locator("#page-info").innerText()) === "Page 1 of 1 · 1 link");
      expect(await row("after-outage").isVisible()).toBe(true);
      await notice().waitFor({ state: "hidden" });
      expect(await page.evaluate("window.notReloaded")).toBe(true);
      // Chromium logs each 502 the gateway answered meanwhile as a console error (and the 401 of the first load, signed out); nothing else may appear.
      expect(unexpectedProblems(problems, [401, 502, 503, 504])).toEqual([]);
    },
    flowTimeoutMs,
  );
});
