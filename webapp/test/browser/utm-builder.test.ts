import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkEveryWidth, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { result } from "./support/shorten-flow.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** Opens "Add UTM tags" under the URL field, unless it is open. */
async function openBuilder(page: Page): Promise<void> {
  if ((await page.locator("#utm-builder").getAttribute("open")) === null) await page.locator("#utm-builder > summary").click();
}

describe.concurrent("the home page's UTM builder: campaign tags added to the URL being shortened, in the page", () => {
  const web = useSharedWebStack();

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
        await checkEveryWidth(page, "home-utm-builder");
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
        await checkEveryWidth(page, "home-utm-missing");

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
});
