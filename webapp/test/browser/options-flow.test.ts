import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import type { OpenedPage } from "./support/web-browser.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { stackAdmin } from "../support/web-stack.ts";
import { unsetOptions } from "../../../shortener/test/support/unset-options.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 3 * browserTestTimeoutMs;

interface CreatedLink {
  short_url: string;
  link: string;
  manage_token: string;
}

/** The options of a link's record, as the API shows them to its manager. */
const optionsOf = (record: Record<string, unknown>) => {
  const { expires_at, max_visits, expired_url, redirect_status, password_protected, tags, title, forward_query, rules, state, hold_reason, public_stats } =
    record;
  return { expires_at, max_visits, expired_url, redirect_status, password_protected, tags, title, forward_query, rules, state, hold_reason, public_stats };
};
/** The option fields of a record when none is set: a plain link's, without its workspace, which is no option. */
const { workspace: _workspace, ...noOptionSet } = unsetOptions;

describe.concurrent("a link's options in a real browser", () => {
  const web = useSharedWebStack();

  async function createLink(body: Record<string, unknown>): Promise<CreatedLink> {
    const response = await fetch(`${web.stack.url}/shorten/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    return (await response.json()) as CreatedLink;
  }

  async function recordOf(code: string, token: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${web.stack.url}/shorten/${code}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  /** The link's page in a new profile, given the manage token through its form. */
  async function openWithToken(link: CreatedLink, viewport: "desktop" | "phone" = "desktop"): Promise<OpenedPage> {
    const opened = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`, viewport);
    await opened.page.getByRole("textbox", { name: "Manage token" }).fill(link.manage_token);
    await opened.page.getByRole("button", { name: "Use this token" }).click();
    await opened.page.locator("#chart svg").waitFor();
    return opened;
  }

  /** The options' summary on a link's page, term by term. */
  const shownOptions = async (page: Page) =>
    Object.fromEntries(
      (await page.evaluate(`[...document.querySelectorAll("#link-options dt")].map((dt) => [dt.textContent, dt.nextElementSibling.innerText])`)) as [
        string,
        string,
      ][],
    );

  /** The instant a datetime-local value means in the browser's own zone. */
  const inBrowserZone = async (page: Page, local: string) => (await page.evaluate(`new Date(${JSON.stringify(local)}).toISOString()`)) as string;

  const rule = (page: Page, n: number) => page.locator(".rule-row").nth(n);

  test(
    "the home page's Customize makes a link with every option, and the link's page shows them",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        const more = page.locator("#customize");
        expect(await more.getAttribute("open")).toBeNull();
        await page.locator("#customize > summary").click();
        await page.getByLabel("URL to shorten").fill("https://example.com/spring");
        await page.getByLabel("Expires").fill("2031-06-30T18:30");
        await page.getByLabel("Maximum of visits").fill("25");
        await page.getByLabel("Address once expired or used up").fill("https://example.com/sorry");
        await page.getByLabel("Redirect status").selectOption("308");
        await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
        await page.getByLabel("Tags").fill("Launch, newsletter");
        await page.getByLabel("Title").fill("Spring launch");
        await page.getByLabel("Forward the query string").check();
        expect(await page.locator("#new-expires-at-hint").innerText()).toMatch(/^In your time zone \(.+\)\./);

        // Two rules, the second removed again: the focus goes back to adding one.
        await page.getByRole("button", { name: "Add a rule" }).click();
        expect(await page.evaluate("document.activeElement.id")).toBe(await rule(page, 0).getByLabel("Device").getAttribute("id"));
        await rule(page, 0).getByLabel("Device").selectOption("ios");
        await rule(page, 0).getByLabel("Country").fill("de");
        await rule(page, 0).getByLabel("Send them to").fill("https://apps.example.com/ios-de");
        await page.getByRole("button", { name: "Add a rule" }).click();
        await rule(page, 1).getByLabel("Language").fill("fr");
        expect(await rule(page, 1).locator("legend").innerText()).toBe("Rule 2");
        await page.getByRole("button", { name: "Remove rule 2" }).click();
        expect(await page.locator(".rule-row").count()).toBe(1);
        expect(await page.evaluate("document.activeElement.id")).toBe(await rule(page, 0).getByLabel("Device").getAttribute("id"));
        await checkPageState(page, "home-options");

        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#result-destination").getByText("https://example.com/spring").waitFor();
        const shortLink = await page.locator("#result-url").inputValue();
        const code = shortLink.split("/").at(-2)!;
        const token = await page.locator("#token").inputValue();
        // The form is empty again, ready for the next link.
        expect(await more.getAttribute("open")).toBeNull();
        expect(await page.locator(".rule-row").count()).toBe(0);
        expect(await page.getByLabel("Title").inputValue()).toBe("");

        expect(optionsOf(await recordOf(code, token))).toEqual({
          expires_at: await inBrowserZone(page, "2031-06-30T18:30"),
          max_visits: 25,
          expired_url: "https://example.com/sorry",
          redirect_status: 308,
          password_protected: true,
          tags: ["launch", "newsletter"],
          title: "Spring launch",
          forward_query: true,
          rules: [{ when: { device: "ios", country: "DE" }, url: "https://apps.example.com/ios-de" }],
          state: "active",
          hold_reason: null,
          public_stats: false,
        });
        // The password went to the API only: not into this browser's storage.
        expect(await page.evaluate("JSON.stringify(localStorage)")).not.toContain("correct horse battery");

        await page.getByRole("link", { name: "Visits and settings of this link" }).click();
        await page.locator("#chart svg").waitFor();
        expect(await page.locator("#link-badges .badge").allInnerTexts()).toEqual(["Active", "Password"]);
        expect(await page.locator("#link-title").innerText()).toBe("Spring launch");
        // Saved with its token: the manager sees the addresses a password hides from others.
        expect(await page.locator("#destination").innerText()).toBe("https://example.com/spring");
        const shown = await shownOptions(page);
        expect(shown).toMatchObject({
          "Visits allowed": "25 (0 used)",
          "Once expired or used up": "https://example.com/sorry",
          "Redirect status": "308",
          Password: "yes: visitors must give it",
          Tags: "launch, newsletter",
          "Forwards the query string": "yes",
          Rules: "iOS, in Germany → https://apps.example.com/ios-de",
        });
        expect(shown.Expires).toMatch(/2031/);
        await checkPageState(page, "link-options");

        // Anyone else sees neither the options nor the destination (docs/people.md: "Private by default").
        const stranger = await web.browser.open(`${web.stack.url}/app/links/${code}`);
        try {
          await stranger.page.locator("#access-panel").waitFor();
          expect(await stranger.page.locator("#destination-hidden").isVisible()).toBe(true);
          expect(await stranger.page.locator("#destination").isHidden()).toBe(true);
          expect(await shownOptions(stranger.page)).toEqual({ Options: "private: shown to the link's owners only" });
          expect(await stranger.page.locator("#link-badges .badge").count()).toBe(0);
          expect(await stranger.page.locator("main").innerText()).not.toContain("example.com");
          await checkPageState(stranger.page, "link-protected-public");
          expect(unexpectedProblems(stranger.problems, [401])).toEqual([]);
        } finally {
          await stranger.context.close();
        }

        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "an option the API refuses is said on its field, a rule's on its row, in plain words",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "phone");
      try {
        await page.getByLabel("URL to shorten").fill("https://example.com/refused");
        await page.locator("#customize > summary").click();
        await page.getByLabel("Maximum of visits").fill("0");
        await page.getByRole("button", { name: "Add a rule" }).click();
        await rule(page, 0).getByLabel("Country").fill("1x");
        await rule(page, 0).getByLabel("Send them to").fill("https://example.com/x");
        await page.locator("#customize > summary").click();
        expect(await page.locator("#customize").getAttribute("open")).toBeNull();
        await page.getByRole("button", { name: "Shorten" }).click();

        const maxVisits = page.getByLabel("Maximum of visits");
        await page.locator("#new-max-visits-error", { hasText: "The maximum of visits must be a whole number from 1 to 2147483647." }).waitFor();
        // "Customize" was opened again to show the field, which has the focus.
        expect(await page.locator("#customize").getAttribute("open")).toBe("");
        expect(await maxVisits.getAttribute("aria-invalid")).toBe("true");
        expect(await page.evaluate("document.activeElement.id")).toBe("new-max-visits");
        await checkPageState(page, "home-options-error");

        await maxVisits.fill("3");
        await page.getByRole("button", { name: "Shorten" }).click();
        const country = rule(page, 0).getByLabel("Country");
        await rule(page, 0).locator(".field-error", { hasText: "The country must be an ISO 3166-1 alpha-2 code, as DE." }).waitFor();
        expect(await maxVisits.getAttribute("aria-invalid")).toBeNull();
        expect(await country.getAttribute("aria-invalid")).toBe("true");
        const errorId = await rule(page, 0).locator(".field-error").getAttribute("id");
        expect(await country.getAttribute("aria-describedby")).toBe(errorId);

        await country.fill("at");
        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#result-destination").getByText("https://example.com/refused").waitFor();
        expect(unexpectedProblems(problems, [400])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "the link's page changes every option, sets and removes the password, and clears each option",
    async () => {
      const link = await createLink({ long_url: "https://example.com/editable", tags: ["old"], max_visits: 50, redirect_status: 301 });
      const { page, context, problems } = await openWithToken(link);
      try {
        expect(await page.getByLabel("Maximum of visits").inputValue()).toBe("50");
        expect(await page.getByLabel("Tags").inputValue()).toBe("old");
        expect(await page.getByLabel("Redirect status").inputValue()).toBe("301");
        // No password yet: nothing to remove.
        expect(await page.getByLabel("Remove the password").isVisible()).toBe(false);

        const save = () => page.getByRole("button", { name: "Save options" }).click();
        await save();
        await page.locator("#options-status", { hasText: "Nothing to save: the options are as they were." }).waitFor();

        await page.getByLabel("Expires").fill("2032-01-15T09:00");
        await page.getByLabel("Maximum of visits").fill("100");
        await page.getByLabel("Address once expired or used up").fill("ftp://example.com/nope");
        await save();
        await page.locator("#edit-expired-url-error", { hasText: "The address once expired or used up must be an http or https URL." }).waitFor();
        expect(await page.getByLabel("Address once expired or used up").getAttribute("aria-invalid")).toBe("true");

        await page.getByLabel("Address once expired or used up").fill("https://example.com/over");
        await page.getByLabel("Redirect status").selectOption("307");
        await page.getByLabel("New password").fill("a brand new secret");
        await page.getByLabel("Tags").fill("launch, q3");
        await page.getByLabel("Title").fill("Edited title");
        await page.getByLabel("Forward the query string").check();
        await page.getByRole("button", { name: "Add a rule" }).click();
        await rule(page, 0).getByLabel("Language").fill("de");
        await rule(page, 0).getByLabel("Send them to").fill("https://example.com/de");
        await save();
        await page.locator("#options-status", { hasText: "Saved: 9 options changed." }).waitFor();
        expect(optionsOf(await recordOf(link.short_url, link.manage_token))).toEqual({
          expires_at: await inBrowserZone(page, "2032-01-15T09:00"),
          max_visits: 100,
          expired_url: "https://example.com/over",
          redirect_status: 307,
          password_protected: true,
          tags: ["launch", "q3"],
          title: "Edited title",
          forward_query: true,
          rules: [{ when: { language: "de" }, url: "https://example.com/de" }],
          state: "active",
          hold_reason: null,
          public_stats: false,
        });
        expect(await page.locator("#link-badges .badge").allInnerTexts()).toEqual(["Active", "Password"]);
        expect(await page.getByLabel("New password").inputValue()).toBe("");
        expect(await page.getByLabel("Remove the password").isVisible()).toBe(true);
        await checkPageState(page, "link-options-edit");

        // The new password opens the link.
        const unlocked = await fetch(link.link, { method: "POST", body: new URLSearchParams({ password: "a brand new secret" }), redirect: "manual" });
        expect([unlocked.status, unlocked.headers.get("location")]).toEqual([303, "https://example.com/editable"]);

        // Every field emptied, the rule and the password removed: every option is cleared.
        for (const label of ["Expires", "Maximum of visits", "Address once expired or used up", "Tags", "Title"]) await page.getByLabel(label).fill("");
        await page.getByLabel("Redirect status").selectOption("");
        await page.getByLabel("Forward the query string").uncheck();
        await page.getByRole("button", { name: "Remove rule 1" }).click();
        await page.getByLabel("Remove the password").check();
        expect(await page.getByLabel("New password").isDisabled()).toBe(true);
        await save();
        await page.locator("#options-status", { hasText: "Saved: 9 options changed." }).waitFor();
        expect(optionsOf(await recordOf(link.short_url, link.manage_token))).toEqual(noOptionSet);
        expect(await page.locator("#link-badges .badge").allInnerTexts()).toEqual(["Active"]);
        expect(await page.getByLabel("Remove the password").isVisible()).toBe(false);
        expect(await shownOptions(page)).toMatchObject({ Expires: "never", "Visits allowed": "no limit", Tags: "none", Rules: "none", Password: "no" });

        // The visits report made public: anyone reads it, and nothing else of the link.
        const report = () => fetch(`${web.stack.url}/shorten/${link.short_url}/visits/`);
        expect((await report()).status).toBe(401);
        await page.getByLabel("Anyone may see the visits").check();
        await save();
        await page.locator("#options-status", { hasText: "Saved: 1 option changed." }).waitFor();
        expect((await recordOf(link.short_url, link.manage_token)).public_stats).toBe(true);
        expect(await shownOptions(page)).toMatchObject({ "Visits report": "public: anyone may read it" });
        expect((await report()).status).toBe(200);
        // A visitor without the token sees the open report beside the token form, but not its CSV, nor the options.
        const visitor = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`);
        try {
          await visitor.page.locator("#chart svg").waitFor();
          expect(await visitor.page.locator("#access-panel").isVisible()).toBe(true);
          expect(await visitor.page.locator("#visits-csv").isVisible()).toBe(false);
          expect(await shownOptions(visitor.page)).toEqual({ Options: "private: shown to the link's owners only" });
          await checkPageState(visitor.page, "link-open-report");
          // The one 401 is the admin session the page asks after, as on any page read without a credential.
          expect(unexpectedProblems(visitor.problems, [401])).toEqual([]);
        } finally {
          await visitor.context.close();
        }

        expect(unexpectedProblems(problems, [400, 401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a used-up link's page says so with a badge, and an expired one's once it is past",
    async () => {
      const usedUp = await createLink({ long_url: "https://example.com/used-up", max_visits: 1 });
      expect((await fetch(usedUp.link, { redirect: "manual" })).status).toBe(302);
      const { page, context, problems } = await openWithToken(usedUp, "phone");
      try {
        expect(await page.locator("#link-badges .badge").allInnerTexts()).toEqual(["Used up"]);
        expect((await shownOptions(page))["Visits allowed"]).toBe("1 (1 used)");
        await checkPageState(page, "link-used-up");

        // Changed to a past expiry on the page itself: the badge follows the record.
        await page.getByLabel("Maximum of visits").fill("");
        await page.getByLabel("Expires").fill("2020-01-01T00:00");
        await page.getByRole("button", { name: "Save options" }).click();
        await page.locator("#link-badges .badge", { hasText: "Expired" }).waitFor();
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "with scripts blocked, a sent shorten form posts, nothing is lost but the password, and nothing lands in the address",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "desktop", { javaScript: false });
      try {
        expect(await page.locator("#shorten-form").getAttribute("method")).toBe("post");
        await page.locator("#customize > summary").click();
        await page.getByLabel("URL to shorten").fill("https://example.com/typed <b>by hand</b>");
        await page.getByLabel(/Custom alias/).fill("typed-alias");
        await page.getByLabel("Maximum of visits").fill("7");
        await page.getByLabel("Password", { exact: true }).fill("secret that must not travel back");
        await page.getByLabel("Tags").fill("kept, too");
        await page.getByLabel("Title").fill('A "quoted" title');
        await page.getByLabel("Redirect status").selectOption("302");
        await page.getByLabel("Forward the query string").check();
        const sent = page.waitForRequest((request) => request.isNavigationRequest());
        await page.getByRole("button", { name: "Shorten" }).click();
        const request = await sent;
        expect(request.method()).toBe("POST");
        expect(page.url()).toBe(`${web.stack.url}/`);
        await page.locator("#no-script-notice").waitFor();
        expect(await page.locator("#no-script-notice").innerText()).toBe(
          "Nothing was shortened: shortening needs the page's script. What you typed is kept below, except a password. Turn on JavaScript, then press Shorten.",
        );
        expect(await page.getByLabel("URL to shorten").inputValue()).toBe("https://example.com/typed <b>by hand</b>");
        expect(await page.getByLabel(/Custom alias/).inputValue()).toBe("typed-alias");
        expect(await page.locator("#customize").getAttribute("open")).toBe("");
        expect(await page.getByLabel("Maximum of visits").inputValue()).toBe("7");
        expect(await page.getByLabel("Tags").inputValue()).toBe("kept, too");
        expect(await page.getByLabel("Title").inputValue()).toBe('A "quoted" title');
        expect(await page.getByLabel("Redirect status").inputValue()).toBe("302");
        expect(await page.getByLabel("Forward the query string").isChecked()).toBe(true);
        expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("");
        expect(await page.content()).not.toContain("secret that must not travel back");
        expect(await page.locator("main b").count()).toBe(0);
        await checkPageState(page, "home-options-no-script", { scriptsBlocked: true });
        // Nothing was made.
        const list = await fetch(`${web.stack.url}/shorten/?q=typed-alias`, { headers: { authorization: `Bearer ${await adminToken()}` } });
        expect(((await list.json()) as { count: number }).count).toBe(0);
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  async function adminToken(): Promise<string> {
    const response = await fetch(`${web.stack.url}/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(stackAdmin),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  }
});
