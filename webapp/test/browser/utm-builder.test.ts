import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { result } from "./support/shorten-flow.ts";
import type { OpenedPage, OpenOptions } from "./support/web-browser.ts";
import { liveUpdateMs } from "../../src/client/lib/live-update.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** Opens "Add UTM tags" under the URL field, unless it is open. */
async function openBuilder(page: Page): Promise<void> {
  await openDetails(page, "utm-builder");
}

/** Opens "Add UTM tags" under a link page's new destination, unless it is open. */
async function openLinkBuilder(page: Page): Promise<void> {
  await openDetails(page, "edit-utm-builder");
}

/**
 * Opens the <details> `id` unless it is open, and resolves once its toggle
 * event has been handled: the builder reads the URL's tags then, a task
 * after the click (a click that closed it just before may still have its
 * own toggle event queued, so the wait is for one that finds it open).
 */
async function openDetails(page: Page, id: string): Promise<void> {
  if ((await page.locator(`#${id}`).getAttribute("open")) !== null) return;
  const opened = page.evaluate(`new Promise((resolve) => {
    const details = document.getElementById(${JSON.stringify(id)});
    details.addEventListener("toggle", function handled() {
      if (!details.open) return;
      details.removeEventListener("toggle", handled);
      resolve();
    });
  })`);
  await page.locator(`#${id} > summary`).click();
  await opened;
}

describe.concurrent("the UTM builder: campaign tags added in the page to the URL being shortened, or to a link's new destination", () => {
  const web = useSharedWebStack();

  /** A link made with the API, as by another client. */
  async function createLink(longUrl: string): Promise<{ short_url: string; manage_token: string }> {
    const response = await fetch(`${web.stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: longUrl }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { short_url: string; manage_token: string };
  }

  /** The link's page on a phone, given the manage token through its form: the destination can be changed. */
  async function openWithToken(link: { short_url: string; manage_token: string }, options: OpenOptions = {}): Promise<OpenedPage> {
    const opened = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`, "phone", options);
    await opened.page.getByRole("textbox", { name: "Manage token" }).fill(link.manage_token);
    await opened.page.getByRole("button", { name: "Use this token" }).click();
    await opened.page.locator("#chart svg").waitFor();
    // The last the page does with a token taken is to move the focus (and, on a phone, the view) to the visits: clicks after it land where they aim.
    await opened.page.locator("#visits-heading:focus").waitFor();
    return opened;
  }

  test(
    "source, medium and campaign go on the URL typed without https://, after its own query; the link made goes there",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "phone");
      try {
        const urlField = page.getByLabel("URL to shorten");
        await urlField.fill("example.com/sale?ref=home#offers");
        await openBuilder(page);
        await page.getByLabel("Source").fill("newsletter");
        await page.getByLabel("Medium").fill("email");
        await page.getByLabel("Campaign").fill("spring sale");
        await checkPageState(page, "home-utm-builder");
        await page.getByRole("button", { name: "Add to the URL" }).click();
        const tagged = "example.com/sale?ref=home&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#offers";
        expect(await urlField.inputValue()).toBe(tagged);
        expect(await page.locator("#utm-status").innerText()).toBe("Added to the URL to shorten.");

        await page.getByRole("button", { name: "Shorten" }).click();
        // Shown as an address bar shows it (the space decoded); the link goes to the address as sent.
        await result(page, `https://${tagged.replace("%20", " ")}`);
        expect(await page.locator("#result-destination").getAttribute("title")).toBe(`https://${tagged}`);
        expect(await page.locator("#result-scheme-note").isVisible()).toBe(true);
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "it reads the tags the URL has, asks for what is missing on its field, replaces rather than repeats, and Enter adds without shortening",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        const created: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST") created.push(new URL(request.url()).pathname);
        });
        const urlField = page.getByLabel("URL to shorten");

        // No URL yet: the URL field says so and takes the focus.
        await openBuilder(page);
        await page.getByLabel("Source").fill("newsletter");
        await page.getByRole("button", { name: "Add to the URL" }).click();
        await page.locator("#long-url-error", { hasText: "Type the URL to shorten first, then add its tags." }).waitFor();
        expect(await page.evaluate("document.activeElement.id")).toBe("long-url");

        // The tags a URL already has are read into the fields when the builder opens.
        await urlField.fill("https://example.com/a?utm_source=old&utm_term=shoes&x=1");
        await page.locator("#utm-builder > summary").click();
        await openBuilder(page);
        expect(await page.getByLabel("Source").inputValue()).toBe("old");
        expect(await page.getByLabel(/^Term/).inputValue()).toBe("shoes");
        expect(await page.getByLabel("Medium").inputValue()).toBe("");

        // Each of source, medium and campaign is asked for on its own field.
        await page.getByLabel("Source").fill("");
        await page.getByRole("button", { name: "Add to the URL" }).click();
        await page.locator("#utm-source-error", { hasText: "Say where the link is shared, like newsletter." }).waitFor();
        expect(await page.getByLabel("Source").getAttribute("aria-invalid")).toBe("true");
        expect(await page.locator("#utm-medium-error").innerText()).toBe("Say what kind of channel it is, like email.");
        expect(await page.locator("#utm-campaign-error").innerText()).toBe("Name the campaign, like spring_sale.");
        expect(await page.evaluate("document.activeElement.id")).toBe("utm-source");
        expect(await urlField.inputValue()).toBe("https://example.com/a?utm_source=old&utm_term=shoes&x=1");
        await checkPageState(page, "home-utm-missing");

        // Filled, an emptied term leaves the URL; Enter adds them and shortens nothing.
        await page.getByLabel("Source").fill("newsletter");
        await page.getByLabel("Medium").fill("email");
        await page.getByLabel(/^Term/).fill("");
        await page.getByLabel(/^Content/).fill("banner");
        await page.getByLabel("Campaign").fill("launch");
        await page.getByLabel("Campaign").press("Enter");
        expect(await urlField.inputValue()).toBe("https://example.com/a?x=1&utm_source=newsletter&utm_medium=email&utm_campaign=launch&utm_content=banner");
        expect(await page.getByLabel("Source").getAttribute("aria-invalid")).toBeNull();
        expect(await page.locator("#result").isHidden()).toBe(true);
        expect(created).toEqual([]);

        // Added again with another source: replaced, never twice.
        await page.getByLabel("Source").fill("social");
        await page.getByRole("button", { name: "Add to the URL" }).click();
        expect(await urlField.inputValue()).toBe("https://example.com/a?x=1&utm_source=social&utm_medium=email&utm_campaign=launch&utm_content=banner");
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test("with scripts blocked the builder, which needs them, is not offered", async () => {
    const { page, context } = await web.browser.open(`${web.stack.url}/`, "phone", { javaScript: false });
    try {
      // In the page, folded away: what a script shows, and what a blocked one leaves out.
      expect(await page.locator("#utm-builder").count()).toBe(1);
      expect(await page.locator("#utm-builder").isHidden()).toBe(true);
      expect(await page.getByRole("button", { name: "Add to the URL" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
  test(
    "on a link's page it reads the destination's tags, replaces them on the new destination, and Save sends the tagged address",
    async () => {
      const link = await createLink("https://example.com/spring?ref=site&utm_source=old#offers");
      const { page, context, problems } = await openWithToken(link);
      try {
        const changes: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "PUT") changes.push(new URL(request.url()).pathname);
        });
        const field = page.getByLabel("New destination");
        await openLinkBuilder(page);
        // The tags the link already goes with are the builder's to start from.
        expect(await page.getByLabel("Source", { exact: true }).inputValue()).toBe("old");
        expect(await page.getByLabel("Medium", { exact: true }).inputValue()).toBe("");

        await page.getByLabel("Source", { exact: true }).fill("newsletter");
        await page.getByLabel("Medium", { exact: true }).fill("email");
        await page.getByLabel("Campaign", { exact: true }).fill("spring sale");
        await checkPageState(page, "link-utm-builder");
        // Enter adds the tags to the field and saves nothing.
        await page.getByLabel("Campaign", { exact: true }).press("Enter");
        const tagged = "https://example.com/spring?ref=site&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#offers";
        expect(await field.inputValue()).toBe(tagged);
        expect(await page.locator("#edit-utm-status").innerText()).toBe("Added to the new destination.");
        expect(changes).toEqual([]);

        await page.getByRole("button", { name: "Save destination" }).click();
        await page.locator("#edit-status", { hasText: "Saved: the short link now goes to" }).waitFor();
        const redirect = await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" });
        expect(redirect.headers.get("location")).toBe(tagged);
        expect(changes.length).toBe(1);
        expect(await field.inputValue()).toBe(tagged);
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "on a link's page an emptied destination is asked for on its own field before any tag is added",
    async () => {
      const link = await createLink("https://example.com/emptied");
      const { page, context, problems } = await openWithToken(link);
      try {
        await page.getByLabel("New destination").fill("");
        await openLinkBuilder(page);
        await page.getByLabel("Source", { exact: true }).fill("newsletter");
        await page.getByRole("button", { name: "Add to the URL" }).click();
        await page.locator("#new-url-error", { hasText: "Type the new destination first, then add its tags." }).waitFor();
        expect(await page.evaluate("document.activeElement.id")).toBe("new-url");
        await checkPageState(page, "link-utm-no-destination");
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
  test(
    "on a link's page a visit counted while the new destination is being tagged leaves the field as the person made it",
    async () => {
      const link = await createLink("https://example.com/counted-meanwhile");
      const { page, context, problems } = await openWithToken(link, { clock: true });
      try {
        await openLinkBuilder(page);
        await page.getByLabel("Source", { exact: true }).fill("newsletter");
        await page.getByLabel("Medium", { exact: true }).fill("email");
        await page.getByLabel("Campaign", { exact: true }).fill("launch");
        await page.getByRole("button", { name: "Add to the URL" }).click();
        const tagged = "https://example.com/counted-meanwhile?utm_source=newsletter&utm_medium=email&utm_campaign=launch";
        expect(await page.getByLabel("New destination").inputValue()).toBe(tagged);

        // A visit, and the page's next poll: the card counts it, the field keeps the tags not saved yet.
        expect((await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" })).status).toBe(302);
        await page.clock.fastForward(liveUpdateMs);
        await page.locator("#stat-count", { hasText: "1" }).waitFor();
        expect(await page.getByLabel("New destination").inputValue()).toBe(tagged);
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
