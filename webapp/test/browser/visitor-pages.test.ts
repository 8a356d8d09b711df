import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

const password = "open sesame, please";

describe.concurrent("the pages a visitor of a short link may get instead of the redirect, in a real browser", () => {
  const web = useSharedWebStack();

  async function createLink(body: Record<string, unknown>): Promise<{ short_url: string; link: string; manage_token: string }> {
    const response = await fetch(`${web.stack.url}/shorten/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    return (await response.json()) as { short_url: string; link: string; manage_token: string };
  }

  /** Types a password into the unlock form and sends it as a person would; the answer to that POST. */
  async function tryPassword(page: Page, typed: string) {
    await page.getByLabel("Password").fill(typed);
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Continue" }).click();
    return answer;
  }

  /** Sends the right password; the browser follows the redirect to the destination, whose host does not resolve offline. */
  async function unlock(page: Page, destination: string): Promise<void> {
    const followed = page.waitForRequest(destination);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Continue" }).click();
    const request = await followed;
    expect(request.redirectedFrom()?.method()).toBe("POST");
    // The unlock's answer is a 303, so the browser does not post the password on to the destination.
    expect((await request.redirectedFrom()?.response())?.status()).toBe(303);
  }

  // The destination's host does not resolve offline; Chromium logs the page's own 401s as errors.
  const expectedProblems = (problems: string[], destination: string) =>
    unexpectedProblems(problems, [401]).filter((problem) => !problem.startsWith(`request failed: ${destination} `));

  for (const javaScript of [true, false]) {
    test(
      `a protected link asks for its password, says a wrong one on the field, and the right one leads on (scripts ${javaScript ? "on" : "blocked"})`,
      async () => {
        const destination = `https://example.com/secret-${javaScript ? "js" : "no-js"}`;
        const link = await createLink({ long_url: destination, password });
        const { page, context, problems } = await web.browser.open(link.link, "desktop", { javaScript });
        const suffix = javaScript ? "" : "-no-script";
        try {
          expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("This link is protected");
          expect((await page.reload())?.status()).toBe(401);
          expect(await page.locator("main").innerText()).not.toContain("example.com");
          expect(await page.content()).not.toContain(destination);
          const field = page.getByLabel("Password");
          expect(await field.getAttribute("aria-invalid")).toBeNull();
          expect(await page.getByRole("alert").count()).toBe(0);
          // A visitor gets the brand, none of the operator's navigation (visitor-brand-only.test.ts has the rest).
          expect(await page.getByRole("navigation").count()).toBe(0);
          await checkPageState(page, `unlock${suffix}`, { scriptsBlocked: !javaScript });

          const wrong = await tryPassword(page, "not the password");
          expect(wrong.status()).toBe(401);
          await page.getByRole("alert").waitFor();
          expect(await page.getByRole("alert").innerText()).toBe("That password is not right. Try again.");
          expect(await field.getAttribute("aria-invalid")).toBe("true");
          expect(await field.getAttribute("aria-describedby")).toBe("password-error");
          expect(await field.inputValue()).toBe("");
          expect(page.url()).toBe(link.link);
          expect(await page.content()).not.toContain(destination);
          await checkPageState(page, `unlock-wrong${suffix}`, { scriptsBlocked: !javaScript });

          await unlock(page, destination);
          expect(expectedProblems(problems, destination)).toEqual([]);
        } finally {
          await context.close();
        }
      },
      flowTimeoutMs,
    );
  }

  test(
    "the unlock form keeps the short URL's query: a link that forwards it gets it after the password",
    async () => {
      const destination = "https://example.com/forwarded";
      const link = await createLink({ long_url: destination, password, forward_query: true });
      const { page, context, problems } = await web.browser.open(`${link.link}?utm_source=mail`, "phone", { javaScript: false });
      try {
        await unlock(page, `${destination}?utm_source=mail`);
        expect(expectedProblems(problems, `${destination}?utm_source=mail`)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a used-up link and an expired one say they are no longer available, with 410",
    async () => {
      const usedUp = await createLink({ long_url: "https://example.com/once", max_visits: 1 });
      expect((await fetch(usedUp.link, { redirect: "manual" })).status).toBe(302);
      const { page, context, problems } = await web.browser.open(usedUp.link);
      try {
        expect((await page.reload())?.status()).toBe(410);
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("This link is no longer available");
        expect(await page.locator("main").innerText()).toContain("It has expired, or it has been used as many times as its owner allowed.");
        await checkPageState(page, "link-gone");

        const expired = await createLink({ long_url: "https://example.com/expired" });
        const change = await fetch(`${web.stack.url}/shorten/${expired.short_url}/`, {
          method: "PUT",
          headers: { "content-type": "application/json", authorization: `Bearer ${expired.manage_token}` },
          body: JSON.stringify({ expires_at: "2020-01-01T00:00:00Z" }),
        });
        expect(change.status).toBe(200);
        expect((await page.goto(expired.link))?.status()).toBe(410);
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("This link is no longer available");
        expect(unexpectedProblems(problems, [410])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
