import { describe, expect, test } from "bun:test";
import { waitFor } from "@linkgeo/testing";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page, Request, Route } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { requestsSettled, type OpenedPage, type OpenOptions, downloaded } from "./support/web-browser.ts";
import { liveUpdateMs } from "../../src/client/lib/live-update.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { stackAdmin } from "../support/web-stack.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

interface CreatedLink {
  short_url: string;
  long_url: string;
  link: string;
  manage_token: string;
}

/** A path of the link `code`'s API (`rest` after its code), as the page asks for it: with or without the trailing slash. */
const linkApiPath = (code: string, rest = "") => new RegExp(`^/shorten/${code}${rest}/?$`);
const isStatsOf = (code: string, url: string) => linkApiPath(code, "/stats").test(new URL(url).pathname);

describe.concurrent("a link's page in a real browser", () => {
  const web = useSharedWebStack();

  /** A link made with the API, as by another client. */
  async function createLink(longUrl: string): Promise<CreatedLink> {
    const response = await fetch(`${web.stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: longUrl }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as CreatedLink;
  }

  const linkStatus = async (code: string) => (await fetch(`${web.stack.url}/shorten/${code}/`)).status;

  /** The link's page in a new profile, given the manage token through its form. */
  async function openWithToken(link: CreatedLink, options: OpenOptions = {}): Promise<OpenedPage> {
    const opened = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`, "desktop", options);
    await opened.page.getByRole("textbox", { name: "Manage token" }).fill(link.manage_token);
    await opened.page.getByRole("button", { name: "Use this token" }).click();
    await opened.page.locator("#chart svg").waitFor();
    return opened;
  }

  /** The page's reads of the link's count from now on (its live poll). */
  function countReads(page: Page, code: string): Request[] {
    const reads: Request[] = [];
    page.on("request", (request) => {
      if (isStatsOf(code, request.url())) reads.push(request);
    });
    return reads;
  }

  /** Resolves when `request` has its answer or has failed (aborted, refused). */
  function ended(page: Page, request: Request): Promise<void> {
    return new Promise((resolve) => {
      const check = (done: Request) => {
        if (done !== request) return;
        page.off("requestfinished", check);
        page.off("requestfailed", check);
        resolve();
      };
      page.on("requestfinished", check);
      page.on("requestfailed", check);
    });
  }

  const savedCodes = async (page: Page) =>
    (await page.evaluate(`JSON.parse(localStorage.getItem("linkgeo.links") ?? "[]").map((link) => link.short_url)`)) as string[];

  test(
    "without a credential it shows the public summary and asks for the token; a wrong one is refused, the right one opens the rest",
    async () => {
      const link = await createLink("https://example.com/public-facts");
      const other = await createLink("https://example.com/another-link");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`);
      try {
        await page.locator("#access-panel").waitFor();
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(`Short link ${link.short_url}`);
        expect(await page.getByLabel("Short link", { exact: true }).inputValue()).toBe(link.link);
        expect(await page.locator("#destination").innerText()).toBe(link.long_url);
        expect(await page.locator("#stat-count").innerText()).toBe("0");
        expect(await page.locator("#stat-last").innerText()).toBe("never");
        expect(await page.locator("#visits-panel").isHidden()).toBe(true);
        expect(await page.locator("#manage-panel").isHidden()).toBe(true);
        await checkPageState(page, "link-public");

        const tokenField = page.getByRole("textbox", { name: "Manage token" });
        await tokenField.fill(other.manage_token);
        await page.getByRole("button", { name: "Use this token" }).click();
        await page.locator("#token-input-error", { hasText: "This token does not manage this link." }).waitFor();
        expect(await tokenField.getAttribute("aria-invalid")).toBe("true");

        await tokenField.fill(link.manage_token);
        await page.getByRole("button", { name: "Use this token" }).click();
        await page.getByRole("img", { name: /^Visits by day from .+: none\.$/ }).waitFor();
        expect(await page.locator("#access-panel").isHidden()).toBe(true);
        expect(await page.locator(".top-lists").getByText("No visits yet").count()).toBe(5);
        expect(await page.locator("#top-bots").innerText()).toBe("No bots yet");
        expect(await savedCodes(page)).toEqual([link.short_url]);

        expect(unexpectedProblems(problems, [401, 403])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "visits arrive while the page is open; each value has its share, countries are shaded on the map; dates chosen, and the report as CSV",
    async () => {
      const link = await createLink("https://example.com/analytics");
      const { page, context, problems } = await openWithToken(link, { clock: true });
      try {
        expect(await page.locator("#visits-live").innerText()).toBe("Updates by itself while open.");
        // Three visits from elsewhere while the page is open (the gateway trusts its loopback proxy's address).
        const desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
        for (const address of ["141.20.5.188", "141.20.5.189", "133.11.0.1"]) {
          const visit = await fetch(`${web.stack.url}/${link.short_url}/`, {
            redirect: "manual",
            headers: { "x-forwarded-for": address, "user-agent": desktop },
          });
          expect(visit.status).toBe(302);
        }
        // The shortener counts visits in batches, and the page's timer below fires once: the report it reads has the three first.
        await waitFor("the 3 visits in the link's report", async () => {
          const report = await fetch(`${web.stack.url}/shorten/${link.short_url}/visits/`, { headers: { authorization: `Bearer ${link.manage_token}` } });
          return ((await report.json()) as { totals?: { visits: number } }).totals?.visits === 3;
        });
        // The page's next update, without waiting for it: its timer fires once.
        await page.clock.fastForward(liveUpdateMs);
        await page.locator("#visits-totals", { hasText: "3 visits in this range: 3 humans, 0 bots." }).waitFor();
        expect(await page.locator("#stat-count").innerText()).toBe("3");
        expect(await page.locator("#top-countries li").allInnerTexts()).toEqual(["Germany\n2 · 67%", "Japan\n1 · 33%"]);

        // The countries on the map: the first in full, the second by its share of it, the rest plain.
        const map = page.locator("#top-countries-map svg.choropleth");
        await map.locator('path[data-country="DE"].visited').waitFor({ state: "attached" });
        expect(await map.locator("path.visited").count()).toBe(2);
        expect(
          await map
            .locator('path[data-country="DE"]')
            .evaluate((path) => (path as unknown as { style: { getPropertyValue(n: string): string } }).style.getPropertyValue("--share")),
        ).toBe("100%");
        expect(
          await map
            .locator('path[data-country="JP"]')
            .evaluate((path) => (path as unknown as { style: { getPropertyValue(n: string): string } }).style.getPropertyValue("--share")),
        ).toBe("60%");
        await checkPageState(page, "link-analytics");

        // Dates chosen: today alone holds the three; a range before the link has none; a backwards one is refused on the spot.
        await page.getByLabel("Range").selectOption("custom");
        const today = new Date().toISOString().slice(0, 10);
        await page.getByLabel("First day").fill(today);
        await page.getByLabel("Last day").fill(today);
        await page.locator("#visits-totals", { hasText: "3 visits in this range" }).waitFor();
        await page.getByLabel("First day").fill("2024-01-01");
        await page.getByLabel("Last day").fill("2024-01-31");
        await page.locator("#visits-totals", { hasText: "0 visits in this range" }).waitFor();
        expect(await page.locator("#visits-live").innerText()).toBe("");
        await page.getByLabel("First day").fill("2024-02-10");
        await page.locator("#range-error", { hasText: "The first day must come before the last, and not after today." }).waitFor();
        await checkPageState(page, "link-analytics-dates");

        // The report of the range shown, as CSV, fetched with the token.
        await page.getByLabel("Range").selectOption("7d");
        await page.locator("#visits-totals", { hasText: "3 visits in this range" }).waitFor();
        const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
        expect(csv.suggestedFilename()).toBe(`${link.short_url}-visits.csv`);
        const text = (await downloaded(csv)).toString("utf8");
        expect(text).toStartWith("section,value,visits,humans,bots");
        expect(text).toContain("countries,DE,2,2,0");
        expect(text).toContain("total,,3,3,0");
        expect(unexpectedProblems(problems, [401, 403])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "humans only leaves the bots out of the chart and the lists, the bots have their own list, and a row chosen charts its visits alone",
    async () => {
      const link = await createLink("https://example.com/humans-and-bots");
      const desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
      const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
      // Two people from Germany, one from Japan; Googlebot three times from the United States, and curl once.
      const visits: Array<[string, string]> = [
        ["141.20.5.188", desktop],
        ["141.20.5.189", desktop],
        ["133.11.0.1", desktop],
        ["128.32.1.1", googlebot],
        ["128.32.1.2", googlebot],
        ["128.32.1.3", googlebot],
        ["128.32.1.4", "curl/8.5.0"],
      ];
      for (const [address, userAgent] of visits) {
        const visit = await fetch(`${web.stack.url}/${link.short_url}/`, {
          redirect: "manual",
          headers: { "x-forwarded-for": address, "user-agent": userAgent },
        });
        expect(visit.status).toBe(302);
      }
      const { page, context, problems } = await openWithToken(link);
      try {
        await page.locator("#visits-totals", { hasText: "7 visits in this range: 3 humans, 4 bots." }).waitFor();
        expect(await page.locator("#top-countries li").allInnerTexts()).toEqual(["United States\n4 · 57%", "Germany\n2 · 29%", "Japan\n1 · 14%"]);
        expect(await page.locator("#top-bots li").allInnerTexts()).toEqual(["Googlebot\n3 · 75%", "curl\n1 · 25%"]);

        // Humans only: the lists rank people, the bots' list stays, the chart's bars are people's.
        await page.getByRole("switch", { name: "Humans only" }).check();
        await page.locator("#visits-totals", { hasText: "3 human visits in this range (4 bots left out)." }).waitFor();
        expect(await page.locator("#top-countries li").allInnerTexts()).toEqual(["Germany\n2 · 67%", "Japan\n1 · 33%"]);
        expect(await page.locator("#top-devices li").allInnerTexts()).toEqual(["Desktop\n3 · 100%"]);
        expect(await page.locator("#top-bots li").allInnerTexts()).toEqual(["Googlebot\n3 · 75%", "curl\n1 · 25%"]);
        expect(await page.locator("#chart svg").getAttribute("aria-label")).toContain("Human visits by day");
        expect(await page.locator("#chart svg g.bar rect.bots").count()).toBe(0);
        await checkPageState(page, "link-analytics-humans");

        // A row chosen, by keyboard: the chart shows that value's visits alone, by day; the row stays focused and pressed.
        const germany = page.locator("#top-countries").getByRole("button", { name: /^Germany/ });
        await germany.focus();
        await page.keyboard.press("Enter");
        await page.locator("#visits-totals", { hasText: "Visits from Germany: 2 human visits in this range (0 bots left out)." }).waitFor();
        expect(await page.locator("#chart-filter-text").innerText()).toBe("The chart shows only visits from Germany, by day.");
        expect(await page.locator("#granularity").isDisabled()).toBe(true);
        const chosen = page.locator("#top-countries").getByRole("button", { name: /^Germany/ });
        expect(await chosen.getAttribute("aria-pressed")).toBe("true");
        expect(
          await chosen.evaluate((button) => (button as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === button),
        ).toBe(true);
        expect(await page.locator("#chart svg").getAttribute("aria-label")).toMatch(/^Human visits from Germany by day .*: 2 visits in all/);
        // The lists stay those of the whole range; "other" is no value to chart.
        expect(await page.locator("#top-countries li").count()).toBe(2);
        await checkPageState(page, "link-analytics-filtered");

        // A bot's row, everyone again: the chart shows that bot's visits; the CSV is the view shown.
        await page.getByRole("switch", { name: "Humans only" }).uncheck();
        await page
          .locator("#top-bots")
          .getByRole("button", { name: /^Googlebot/ })
          .click();
        await page.locator("#visits-totals", { hasText: "Visits of the bot Googlebot: 3 visits in this range: 0 humans, 3 bots." }).waitFor();
        const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
        const text = (await downloaded(csv)).toString("utf8");
        expect(text).toContain("filter,browsers:Googlebot,,,");
        expect(text).toContain("total,,3,0,3");
        expect(text).toContain("bots,Googlebot,3,0,3");

        // Chosen again, or "Chart every visit": every visit, by the chosen bars again.
        await page.getByRole("button", { name: "Chart every visit" }).click();
        await page.locator("#visits-totals", { hasText: /^7 visits in this range/ }).waitFor();
        expect(await page.locator("#chart-filter").isHidden()).toBe(true);
        expect(await page.locator("#granularity").isDisabled()).toBe(false);
        expect(await page.locator("#top-countries").getByRole("button", { pressed: true }).count()).toBe(0);
        expect(unexpectedProblems(problems, [401, 403])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "changes the destination: the next redirect goes to the new one; a refused one is said next to the field",
    async () => {
      const link = await createLink("https://example.com/before");
      const { page, context, problems } = await openWithToken(link);
      try {
        const field = page.getByLabel("New destination");
        expect(await field.inputValue()).toBe(link.long_url);

        // An address without its scheme is taken (link-addresses.test.ts); a stray phrase is not, in the home page's words.
        await field.fill("not an address");
        await page.getByRole("button", { name: "Save destination" }).click();
        await page.locator("#new-url-error", { hasText: "Enter a web address, like example.com/page or https://example.com/page." }).waitFor();
        expect(await field.getAttribute("aria-invalid")).toBe("true");

        await field.fill(`${web.stack.url}/somewhere`);
        await page.getByRole("button", { name: "Save destination" }).click();
        await page.locator("#new-url-error", { hasText: "The address must not point at this service." }).waitFor();

        await field.fill("https://example.net/after");
        await page.getByRole("button", { name: "Save destination" }).click();
        await page.locator("#edit-status", { hasText: "Saved: the short link now goes to https://example.net/after." }).waitFor();
        expect(await field.getAttribute("aria-invalid")).toBeNull();
        expect(await page.locator("#destination").innerText()).toBe("https://example.net/after");

        const redirect = await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" });
        expect(redirect.status).toBe(302);
        expect(redirect.headers.get("location")).toBe("https://example.net/after");

        expect(unexpectedProblems(problems, [401, 400])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "deletes only after an explicit second step: cancel keeps the link, confirming deletes it",
    async () => {
      const link = await createLink("https://example.com/to-delete");
      const { page, context, problems } = await openWithToken(link);
      try {
        const deleteButton = page.getByRole("button", { name: "Delete this link…" });
        await deleteButton.click();
        await page.locator("#delete-confirm").waitFor();
        expect(await page.locator("#delete-confirm").innerText()).toContain(`Are you sure? Delete ${link.link} for good?`);
        expect(await deleteButton.getAttribute("aria-expanded")).toBe("true");
        // The safe answer has the focus.
        expect(await page.evaluate("document.activeElement.id")).toBe("delete-no");
        await checkPageState(page, "link-delete-confirm");

        await page.getByRole("button", { name: "Cancel" }).click();
        await page.locator("#delete-confirm").waitFor({ state: "hidden" });
        expect(await page.evaluate("document.activeElement.id")).toBe("delete-button");
        await deleteButton.click();
        await page.keyboard.press("Escape");
        await page.locator("#delete-confirm").waitFor({ state: "hidden" });
        expect(await linkStatus(link.short_url)).toBe(200);

        await deleteButton.click();
        await page.getByRole("button", { name: "Delete", exact: true }).click();
        await page.locator("#link-deleted").waitFor();
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(`Link ${link.short_url} deleted`);
        expect(await page.getByRole("link", { name: "Back to the home page" }).getAttribute("href")).toBe("/");
        expect(await page.locator("#link-view").isHidden()).toBe(true);
        await checkPageState(page, "link-deleted");

        expect(await linkStatus(link.short_url)).toBe(404);
        expect(await savedCodes(page)).toEqual([]);
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a poll under way when the deletion is confirmed is dropped: nothing asks for the link once it is deleted",
    async () => {
      const link = await createLink("https://example.com/deleted-mid-poll");
      const { page, context, problems } = await openWithToken(link, { clock: true });
      try {
        await requestsSettled(page);
        // The page's next poll, held on its way to the gateway until the link is deleted.
        const held = Promise.withResolvers<Route>();
        await page.route(
          (url) => isStatsOf(link.short_url, url.href),
          (route) => held.resolve(route),
        );
        await page.clock.fastForward(liveUpdateMs);
        const poll = await held.promise;
        const pollEnded = ended(page, poll.request());

        await page.getByRole("button", { name: "Delete this link…" }).click();
        await page.getByRole("button", { name: "Delete", exact: true }).click();
        await page.locator("#link-deleted").waitFor();
        expect(await linkStatus(link.short_url)).toBe(404);
        // Let it go on: a page still waiting for it would be told 404.
        await poll.continue().catch(() => {});
        await pollEnded;
        await requestsSettled(page);

        expect(unexpectedProblems(problems, [401])).toEqual([]);
        expect(poll.request().failure()?.errorText).toBe("net::ERR_ABORTED");
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a deletion that fails leaves the page live: its next tick asks for the count again",
    async () => {
      const link = await createLink("https://example.com/deletion-refused");
      const { page, context, problems } = await openWithToken(link, { clock: true });
      try {
        await requestsSettled(page);
        await page.route(
          (url) => linkApiPath(link.short_url).test(url.pathname),
          (route) =>
            route.request().method() === "DELETE"
              ? route.fulfill({ status: 503, json: { error: { code: "unavailable", message: "The service is busy." } } })
              : route.continue(),
        );
        await page.getByRole("button", { name: "Delete this link…" }).click();
        await page.getByRole("button", { name: "Delete", exact: true }).click();
        await page.locator("#delete-error", { hasText: "The link was not deleted." }).waitFor();

        const answer = page.waitForResponse((response) => isStatsOf(link.short_url, response.url()));
        await page.clock.fastForward(liveUpdateMs);
        expect((await answer).status()).toBe(200);
        expect(await linkStatus(link.short_url)).toBe(200);
        expect(unexpectedProblems(problems, [401, 503])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a link deleted elsewhere while its page is open: the next poll finds it gone, the page says so and asks no more",
    async () => {
      const link = await createLink("https://example.com/deleted-elsewhere");
      const { page, context, problems } = await openWithToken(link, { clock: true });
      try {
        await requestsSettled(page);
        const deleted = await fetch(`${web.stack.url}/shorten/${link.short_url}/`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${link.manage_token}` },
        });
        expect(deleted.status).toBe(204);

        const reads = countReads(page, link.short_url);
        const answer = page.waitForResponse((response) => isStatsOf(link.short_url, response.url()));
        await page.clock.fastForward(liveUpdateMs);
        expect((await answer).status()).toBe(404);
        await page.locator("#link-missing").waitFor();
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("This short link does not exist");
        expect(await page.locator("#link-view").isHidden()).toBe(true);

        // Three more of its ticks: not one asks again.
        await page.clock.fastForward(3 * liveUpdateMs);
        await requestsSettled(page);
        expect(reads.length).toBe(1);
        // The one 404 that told it, and nothing else.
        expect(problems.filter((problem) => problem.includes("status of 404 ")).length).toBe(1);
        expect(unexpectedProblems(problems, [401, 404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "anyone can make the link's QR code to measure and download it as SVG and PNG",
    async () => {
      const link = await createLink("https://example.com/qr-kit");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`);
      try {
        const preview = page.getByRole("img", { name: `QR code of ${link.link}` });
        await preview.waitFor();
        const note = page.locator("#qr-size-note");
        const modules = async () => Number(/, (\d+) modules across$/.exec(await note.innerText())![1]);
        const plain = await modules();
        expect(await note.innerText()).toBe(`${plain * 8} × ${plain * 8} pixels, ${plain} modules across`);

        // More error correction needs more modules for the same link (as many, at least); a margin of 1 module instead of 4 takes 6 away.
        await page.getByLabel("Error correction").selectOption("H");
        const robust = await modules();
        expect(robust).toBeGreaterThanOrEqual(plain);
        await page.getByLabel("Margin").selectOption("1");
        expect(await modules()).toBe(robust - 6);
        await page.getByLabel("Size").selectOption("16");
        await page.getByLabel("Dark colour").fill("#123456");
        await page.getByLabel("Light colour").fill("#fafad2");
        const sized = robust - 6;
        await note.filter({ hasText: `${sized * 16} × ${sized * 16} pixels` }).waitFor();
        await checkPageState(page, "link-qr-kit");

        const [svg] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download SVG" }).click()]);
        expect(svg.suggestedFilename()).toBe(`${link.short_url}.svg`);
        const svgText = (await downloaded(svg)).toString("utf8");
        expect(svgText).toContain(`viewBox="0 0 ${sized} ${sized}" width="${sized * 16}" height="${sized * 16}"`);
        expect(svgText).toContain('fill="#fafad2"');
        expect(svgText).toContain('fill="#123456"');
        expect(await preview.getAttribute("src")).toStartWith("blob:");

        const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PNG" }).click()]);
        expect(png.suggestedFilename()).toBe(`${link.short_url}.png`);
        const bytes = await downloaded(png);
        expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([sized * 16, sized * 16]);
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "an unknown code, one no link could have, or a malformed escape in the address is a 404 that says the short link does not exist",
    async () => {
      for (const path of ["/app/links/NoSuchLink", "/app/links/%3Cb%3Ebold%3C%2Fb%3E", "/app/links/%E0%A4%A", "/app/links/%"]) {
        const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
        try {
          // Answered as such, a 404, not a page whose script finds out later.
          expect((await page.goto(web.stack.url + path))!.status()).toBe(404);
          await page.getByRole("heading", { level: 1, name: "This short link does not exist" }).waitFor();
          expect(unexpectedProblems(problems, [404])).toEqual([]);
        } finally {
          await context.close();
        }
      }
    },
    flowTimeoutMs,
  );

  test(
    "with scripts blocked, it says it needs its script and offers no token form, which could only ever post",
    async () => {
      const link = await createLink("https://example.com/no-script");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`, "desktop", { javaScript: false });
      try {
        // (Playwright's text search skips <noscript>: its text is read directly.)
        expect(await page.locator("main noscript p").isVisible()).toBe(true);
        expect(await page.locator("main noscript").innerText()).toBe("This page shows the link with its script: turn on JavaScript to see it.");
        expect(await page.getByRole("textbox", { name: "Manage token" }).count()).toBe(0);
        expect(await page.locator("#token-form").getAttribute("method")).toBe("post");
        await checkPageState(page, "link-no-script", { scriptsBlocked: true });
        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "an admin signed in with a session sees the visits and changes the link without its token",
    async () => {
      const link = await createLink("https://example.com/for-the-admin");
      expect((await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" })).status).toBe(302);
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        const signIn = await page.request.post(`${web.stack.url}/admin/session`, { data: stackAdmin });
        expect(signIn.status()).toBe(200);

        await page.goto(`${web.stack.url}/app/links/${link.short_url}`);
        await page.locator('#chart svg g.bar[data-visits="1"]').waitFor();
        expect(await page.locator("#access-note").innerText()).toBe(`You are signed in as the admin ${stackAdmin.username}.`);
        expect(await page.locator("#access-panel").isHidden()).toBe(true);

        // A change made with the session cookie carries its CSRF token.
        await page.getByLabel("New destination").fill("https://example.com/moved-by-the-admin");
        await page.getByRole("button", { name: "Save destination" }).click();
        await page.locator("#edit-status", { hasText: "Saved" }).waitFor();
        const redirect = await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" });
        expect(redirect.headers.get("location")).toBe("https://example.com/moved-by-the-admin");

        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
