import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { result, shorten } from "./support/shorten-flow.ts";
import { downloaded } from "./support/web-browser.ts";

/** A flow that visits several pages and checks each at two widths. */
const flowTimeoutMs = 3 * browserTestTimeoutMs;

interface Created {
  short_url: string;
  manage_token: string;
  link: string;
  long_url: string;
  created_at: string;
}

describe.concurrent("the Your links page in a real browser", () => {
  const web = useSharedWebStack();

  /** Links made with the API, as another browser would have made them. */
  async function madeElsewhere(count: number): Promise<Created[]> {
    const made: Created[] = [];
    for (let i = 0; i < count; i++) {
      const answer = await fetch(`${web.stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: `https://example.com/moved-${i}` }),
      });
      expect(answer.status).toBe(201);
      const { short_url, manage_token, link, long_url, created_at } = (await answer.json()) as Created;
      made.push({ short_url, manage_token, link, long_url, created_at });
    }
    return made;
  }

  test(
    "links move in from another browser's file; every count in one request, searched as typed, a deleted one forgotten, downloaded again",
    async () => {
      const made = await madeElsewhere(7);
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links`, "phone");
      try {
        await page.locator("#links-empty").waitFor();
        await checkPageState(page, "your-links-empty");

        // The other browser's download, with two entries that are no link: a code that is a path, and a string.
        const file = [...made, { ...made[0]!, short_url: "../admin" }, "not a link"];
        const statsRequests: string[] = [];
        page.on("request", (request) => {
          if (request.url().includes("/stats")) statsRequests.push(`${request.method()} ${new URL(request.url()).pathname}`);
        });
        await page
          .getByLabel("Links file")
          .setInputFiles({ name: "linkgeo-links.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
        await page.getByRole("button", { name: "Add these links" }).click();
        await page.locator("#file-status", { hasText: "Added 7 links. 2 entries were no link, left out." }).waitFor();
        for (const { short_url } of made) await page.locator(`li[data-code="${short_url}"] .count`, { hasText: "0 visits" }).waitFor();
        expect(statsRequests).toEqual(["POST /shorten/stats"]);
        // The file's order, newest first as it was there.
        expect(await page.locator("li[data-code]").evaluateAll((items) => items.map((item) => item.getAttribute("data-code")))).toEqual(
          made.map((link) => link.short_url),
        );
        expect(await page.locator("#links-summary").innerText()).toBe("7 links");

        // Searched as typed, over the short link and where it goes.
        const search = page.getByRole("searchbox", { name: "Search your links" });
        await search.fill("moved-3");
        expect(await page.locator("#links-summary").innerText()).toBe("1 of 7 links match “moved-3”.");
        expect(await page.locator("li[data-code]:visible").count()).toBe(1);
        expect(await page.locator(`li[data-code="${made[3]!.short_url}"]`).isVisible()).toBe(true);
        await search.fill(made[5]!.short_url);
        expect(await page.locator("li[data-code]:visible").count()).toBe(1);
        await search.fill("nowhere-to-be-found");
        expect(await page.locator("#links-summary").innerText()).toBe("No link matches “nowhere-to-be-found”.");
        expect(await page.locator("li[data-code]:visible").count()).toBe(0);
        await checkPageState(page, "your-links-no-match");
        await search.fill("");

        // Deleted meanwhile: marked, and forgotten on request.
        const deleted = made[1]!;
        const gone = await fetch(`${web.stack.url}/shorten/${deleted.short_url}/`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${deleted.manage_token}` },
        });
        expect(gone.status).toBe(204);
        await page.reload();
        await page.locator(`li[data-code="${deleted.short_url}"] .badge.deleted`).waitFor();
        await checkPageState(page, "your-links");
        await page.getByRole("button", { name: `Forget ${deleted.short_url}` }).click();
        await page.locator("#links-summary", { hasText: "6 links" }).waitFor();
        expect(await page.locator(`li[data-code="${deleted.short_url}"]`).count()).toBe(0);
        expect(await page.evaluate("document.activeElement.id")).toBe("your-links-heading");

        // Downloaded again: what another browser needs, tokens included.
        const [exported] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("link", { name: "Download your links, with their tokens" }).click(),
        ]);
        expect(exported.suggestedFilename()).toBe("linkgeo-links.json");
        expect(JSON.parse((await downloaded(exported)).toString("utf8"))).toEqual(made.filter((link) => link !== deleted));

        // The same file again adds only the forgotten one; a file that is no links file is refused on its field.
        await page
          .getByLabel("Links file")
          .setInputFiles({ name: "linkgeo-links.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(made)) });
        await page.getByRole("button", { name: "Add these links" }).click();
        await page.locator("#file-status", { hasText: "Added 1 link. 6 links were already here." }).waitFor();
        await page.getByLabel("Links file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"links": "no"}') });
        await page.getByRole("button", { name: "Add these links" }).click();
        await page.locator("#links-file-error", { hasText: "This is not a links file: it holds no list of links." }).waitFor();
        expect(await page.getByLabel("Links file").getAttribute("aria-invalid")).toBe("true");

        // The home page lists the latest five, and leads here for the rest.
        await page.goto(`${web.stack.url}/`);
        await page.locator("#links-list li[data-code] .count").first().waitFor();
        expect(await page.locator("#links-list li[data-code]").count()).toBe(5);
        await page.getByRole("link", { name: "All 7 of your links" }).click();
        await page.waitForURL(`${web.stack.url}/app/links`);
        expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your links" }).getAttribute("aria-current")).toBe("page");
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a link made in another browser is added by its manage token; a wrong token is refused",
    async () => {
      const maker = await web.browser.open(`${web.stack.url}/`);
      const adder = await web.browser.open(`${web.stack.url}/app/links`);
      try {
        await shorten(maker.page, "https://example.com/made-elsewhere");
        const { code, token } = await result(maker.page, "https://example.com/made-elsewhere");

        await adder.page.locator("#links-empty").waitFor();
        const tokenField = adder.page.getByRole("textbox", { name: "Manage token" });
        await tokenField.fill("NotTheTokenOfAnyLink");
        await adder.page.getByRole("button", { name: "Add link" }).click();
        await adder.page.locator("#add-token-error", { hasText: "No link has this manage token." }).waitFor();
        expect(await tokenField.getAttribute("aria-invalid")).toBe("true");

        await tokenField.fill(token);
        await adder.page.getByRole("button", { name: "Add link" }).click();
        await adder.page.locator(`li[data-code="${code}"] .count`, { hasText: "0 visits" }).waitFor();
        expect(await tokenField.getAttribute("aria-invalid")).toBeNull();
        expect(await adder.page.locator("#links-empty").isHidden()).toBe(true);
        // Saved with its token: its own page opens the visits without asking.
        await adder.page.goto(`${web.stack.url}/app/links/${code}`);
        await adder.page.locator("#chart svg").waitFor();

        expect(unexpectedProblems(maker.problems)).toEqual([]);
        expect(unexpectedProblems(adder.problems, [401])).toEqual([]);
      } finally {
        await maker.context.close();
        await adder.context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "with scripts blocked, neither form is offered, the page says why, and the form could only ever post",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links`, "desktop", { javaScript: false });
      try {
        // (Playwright's text search skips <noscript>: its text is read directly.)
        expect(await page.locator("main > noscript p").isVisible()).toBe(true);
        expect(await page.locator("main > noscript").innerText()).toBe(
          "Your links are kept in this browser by the page's script: turn on JavaScript to see them or to add one.",
        );
        // No field a person could paste a token into, nor a button to send one with.
        expect(await page.getByRole("textbox", { name: "Manage token" }).count()).toBe(0);
        expect(await page.getByRole("button", { name: "Add link" }).count()).toBe(0);
        expect(await page.getByRole("button", { name: "Add these links" }).count()).toBe(0);
        await checkPageState(page, "your-links-no-script", { scriptsBlocked: true });

        // Submitted all the same (the browser's own submission, no script to stop it),
        // the token travels in a POST body: never in the address, nor in the history.
        const token = "a_token_that-must-stay-out-of-addresses";
        const sent = page.waitForRequest((request) => request.isNavigationRequest());
        await page.evaluate(`(() => {
          const form = document.getElementById("add-form");
          form.elements.namedItem("token").value = ${JSON.stringify(token)};
          form.submit();
        })()`);
        const request = await sent;
        expect(request.method()).toBe("POST");
        expect(request.url()).not.toContain(token);
        expect(request.postData()).toContain(token);
        const answer = await request.response();
        expect(answer!.status()).toBeGreaterThanOrEqual(400);
        expect(answer!.status()).toBeLessThan(500);
        expect(page.url()).not.toContain(token);

        expect(unexpectedProblems(problems, [404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
