import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { customize, result, shorten } from "./support/shorten-flow.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { typingPauseMs } from "../../src/client/lib/typing-pause.ts";
import { downloaded } from "./support/web-browser.ts";

/** A flow that visits several pages and checks each at two widths. */
const flowTimeoutMs = 3 * browserTestTimeoutMs;

// Side by side: each case opens its own profile and makes its own links. The one that reads the
// clipboard, which every profile of the browser shares, runs alone (test.serial), before the others.
describe.concurrent("the home page in a real browser", () => {
  const web = useSharedWebStack();

  test.serial(
    "shortens a URL: short link, copy, QR code and its downloads, the token; following it is counted on its page and in Your links",
    async () => {
      const target = "https://example.com/landing?from=home-flow";
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        await page.locator("#links-empty").waitFor();
        await checkPageState(page, "home-empty");

        await shorten(page, target);
        const { shortLink, code, token } = await result(page, target);
        expect(shortLink).toMatch(new RegExp(`^${web.stack.url}/[A-Za-z0-9]{7}/$`));
        // The short link is shown once, in its field; Open goes to it.
        expect(await page.getByRole("link", { name: "Open", exact: true }).getAttribute("href")).toBe(shortLink);
        expect(await page.getByText(shortLink, { exact: true }).count()).toBe(0);
        expect(await page.locator("#result-destination").innerText()).toBe(target);
        // The QR code is drawn once its encoder (a file of its own, fetched when first needed) has come: waited for, then one path.
        const qrPath = page.getByRole("img", { name: `QR code of ${shortLink}` }).locator("path.dark");
        await qrPath.first().waitFor();
        expect(await qrPath.count()).toBe(1);
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(await page.locator(".token-box").innerText()).toContain(
          "Saved in this browser: it lets you change or delete this link. Copy it, or download your links from Your links, to keep it elsewhere.",
        );
        // No share sheet in this browser: no Share button.
        expect(await page.getByRole("button", { name: "Share" }).count()).toBe(0);

        await page.getByRole("button", { name: "Copy", exact: true }).click();
        await page.locator("#copy-link-status", { hasText: "Copied" }).waitFor();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(shortLink);
        await page.getByRole("button", { name: "Copy token" }).click();
        await page.locator("#copy-token-status", { hasText: "Copied" }).waitFor();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(token);

        const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PNG" }).click()]);
        expect(png.suggestedFilename()).toBe(`${code}.png`);
        expect([...(await downloaded(png)).subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        const [svg] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download SVG" }).click()]);
        expect(svg.suggestedFilename()).toBe(`${code}.svg`);
        const svgText = (await downloaded(svg)).toString("utf8");
        expect(svgText).toStartWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"');
        expect(svgText).toContain('fill="#000000"');

        await checkPageState(page, "home-result");

        // A real navigation, in a tab of its own: the browser gets the 302 and
        // follows it to the destination, whose host does not resolve offline.
        const tab = await context.newPage();
        const followed = tab.waitForRequest(target);
        await tab.goto(shortLink).then(
          () => expect.unreachable("the destination's host resolved offline"),
          (error: Error) => expect(error.message).toContain("net::ERR_NAME_NOT_RESOLVED"),
        );
        expect((await followed).redirectedFrom()?.url()).toBe(shortLink);
        await tab.close();

        await page.goto(`${web.stack.url}/app/links/${code}`);
        await page.locator("#stat-count", { hasText: /^1$/ }).waitFor();
        const bar = page.locator('#chart svg g.bar[data-visits="1"]');
        await bar.waitFor();
        expect(await page.locator("#chart svg g.bar").count()).toBe(1);
        expect(await page.locator("#chart table tbody td").last().innerText()).toBe("1");
        expect(await page.getByRole("img", { name: /^Visits by day from .+: 1 visit in all/ }).count()).toBe(1);
        expect(await page.locator("#visits-totals").innerText()).toStartWith("1 visit in this range");
        expect(await page.locator("#top-referrers li").allInnerTexts()).toEqual(["Direct (no referrer)\n1 · 100%"]);
        await checkPageState(page, "link-chart");

        // By the hour for the last 24 hours: the visit is in this hour's bar, the last.
        await page.getByLabel("Range").selectOption("24h");
        expect(await page.getByLabel("Each bar is").inputValue()).toBe("hour");
        await page.getByRole("img", { name: /^Visits by hour/ }).waitFor();
        expect(await page.locator('#chart svg g.bar[data-visits="1"]').count()).toBe(1);

        await page.goto(`${web.stack.url}/`);
        const saved = page.locator(`li[data-code="${code}"]`);
        await saved.locator(".count", { hasText: "1 visit" }).waitFor();
        expect(await saved.getByRole("link").getAttribute("href")).toBe(`/app/links/${code}`);
        expect(await saved.locator(".saved-link-destination").getAttribute("title")).toBe(target);
        await checkPageState(page, "home-links");

        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "the URL field has the focus; an address typed without https:// is shortened as https and the page says so; a failed attempt takes the last result away",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        await page.locator("#links-empty").waitFor();
        expect(await page.evaluate("document.activeElement.id")).toBe("long-url");

        await shorten(page, "example.com/typed-bare?from=home-flow");
        const { code } = await result(page, "https://example.com/typed-bare?from=home-flow");
        expect(await page.locator("#result-scheme-note").innerText()).toBe("You typed no http:// or https://, so the link uses https://.");
        await checkPageState(page, "home-result-added-scheme");

        // The same alias again: refused, and the card of the link just made is gone rather than left above the error.
        await shorten(page, "https://example.com/another", code);
        await page.locator("#alias-error", { hasText: "Choose another alias." }).waitFor();
        expect(await page.locator("#result").isHidden()).toBe(true);
        await checkPageState(page, "home-failed-after-success");

        // A stray word is no address: said under the field, nothing sent.
        await shorten(page, "notanaddress");
        await page.locator("#long-url-error", { hasText: "Enter a web address, like example.com/page or https://example.com/page." }).waitFor();

        // Typed with its scheme, nothing is said about it.
        await shorten(page, "http://example.com/with-scheme");
        await result(page, "http://example.com/with-scheme");
        expect(await page.locator("#result-scheme-note").isHidden()).toBe(true);

        // 404: the alias check's answers for the free variants of the taken alias typed.
        expect(unexpectedProblems(problems, [404, 409])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test("where the browser has a share sheet, Share hands it the short link", async () => {
    const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
    try {
      // A stand-in for the phone's share sheet, which headless Chromium has not: it keeps what it was given.
      await page.evaluate(`navigator.share = (data) => { document.body.dataset.shared = JSON.stringify(data); return Promise.resolve(); }`);
      await shorten(page, "https://example.com/to-share");
      const { shortLink } = await result(page, "https://example.com/to-share");
      await page.getByRole("button", { name: "Share" }).click();
      await page.locator("body[data-shared]").waitFor({ state: "attached" });
      expect(JSON.parse((await page.locator("body").getAttribute("data-shared"))!)).toEqual({ url: shortLink });
      expect(unexpectedProblems(problems)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("at first sight the form is the URL field and Shorten; Customize holds the alias and opens itself for an alias it refuses", async () => {
    const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "phone");
    try {
      expect(await page.evaluate("document.activeElement.id")).toBe("long-url");
      expect(await page.getByLabel(/Custom alias/).isVisible()).toBe(false);
      expect(await page.locator("#customize > summary").innerText()).toContain("Customize");
      await checkPageState(page, "home-first-sight");

      await customize(page);
      await page.getByLabel(/Custom alias/).fill("no spaces please");
      // Folded again with the refused alias inside: the error must not stay out of sight.
      await page.locator("#customize > summary").click();
      await page.getByLabel("URL to shorten").fill("example.com/first-sight");
      await page.getByRole("button", { name: "Shorten" }).click();
      // What is wrong with it, rather than the hint's rule again.
      await page.locator("#alias-error", { hasText: "An alias cannot have spaces." }).waitFor();
      expect(await page.locator("#customize").getAttribute("open")).toBe("");
      expect(await page.evaluate("document.activeElement.id")).toBe("alias");
      expect(unexpectedProblems(problems)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("an alias is checked while it is typed: a taken one comes with free variants to pick", async () => {
    // On the profile's clock, moved past each pause in typing instead of waiting for it.
    const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "desktop", { clock: true });
    try {
      await shorten(page, "https://example.com/spring", "spring-sale");
      await result(page, "https://example.com/spring");
      await customize(page);
      const aliasField = page.getByLabel(/Custom alias/);
      await aliasField.fill("spring-sale");
      await page.clock.fastForward(typingPauseMs);
      await page.locator("#alias-status", { hasText: "“spring-sale” is taken." }).waitFor();
      await page.getByRole("button", { name: "Use spring-sale-2" }).click();
      expect(await aliasField.inputValue()).toBe("spring-sale-2");
      await page.clock.fastForward(typingPauseMs);
      await page.locator("#alias-status", { hasText: "No link has “spring-sale-2” yet." }).waitFor();
      expect(await page.getByRole("button", { name: /^Use / }).count()).toBe(0);
      await checkPageState(page, "home-alias-free");

      await shorten(page, "https://example.com/spring-again", "spring-sale-2");
      await result(page, "https://example.com/spring-again");
      expect(await page.locator("#alias-status").innerText()).toBe("");
      expect(unexpectedProblems(problems, [404])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the focus ring is the accent's blue, and red only on a field with an error", async () => {
    const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
    try {
      const urlField = page.getByLabel("URL to shorten");
      const ringOf = () => urlField.evaluate((input) => input.ownerDocument.defaultView!.getComputedStyle(input).outlineColor);
      // A text field shows its ring however it got the focus (:focus-visible).
      await urlField.focus();
      expect(await ringOf()).toBe("rgb(29, 78, 216)");

      // Refused, the field takes the focus back with the error's red.
      await urlField.fill("notanaddress");
      await urlField.press("Enter");
      await page.locator("#long-url-error", { hasText: "Enter a web address" }).waitFor();
      expect(await page.evaluate("document.activeElement.id")).toBe("long-url");
      expect(await ringOf()).toBe("rgb(180, 35, 24)");
      expect(unexpectedProblems(problems)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test(
    "errors are said in plain words next to the field they are about",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      try {
        const urlField = page.getByLabel("URL to shorten");
        const aliasField = page.getByLabel(/Custom alias/);

        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#long-url-error", { hasText: "Paste the URL you want to shorten." }).waitFor();
        expect(await urlField.getAttribute("aria-invalid")).toBe("true");

        // Refused by the service itself: a link back to it would loop.
        await shorten(page, `${web.stack.url}/app/geocoder`);
        await page.locator("#long-url-error", { hasText: "The address must not point at this service." }).waitFor();
        expect(await urlField.getAttribute("aria-invalid")).toBe("true");

        await shorten(page, "https://example.com/launch", "launch-day");
        await result(page, "https://example.com/launch");
        await shorten(page, "https://example.com/other-launch", "launch-day");
        await page.locator("#alias-error", { hasText: 'The alias "launch-day" is already taken. Choose another alias.' }).waitFor();
        expect(await aliasField.getAttribute("aria-invalid")).toBe("true");
        expect(await urlField.getAttribute("aria-invalid")).toBeNull();
        expect(await page.evaluate("document.activeElement.id")).toBe("alias");
        await checkPageState(page, "home-error");

        // The gateway's rate limit, and no network at all (the browser's own request, refused here).
        await page.route(`${web.stack.url}/shorten/`, (route) =>
          route.fulfill({
            status: 429,
            headers: { "retry-after": "30" },
            contentType: "application/json",
            body: '{"error":{"code":"rate_limited","message":"slow down"}}',
          }),
        );
        await shorten(page, "https://example.com/too-soon");
        await page.locator("#shorten-error", { hasText: "Too many requests: try again in 30 s." }).waitFor();
        await page.unroute(`${web.stack.url}/shorten/`);
        await page.route(`${web.stack.url}/shorten/`, (route) => route.abort("internetdisconnected"));
        await shorten(page, "https://example.com/offline");
        await page.locator("#shorten-error", { hasText: "The server could not be reached. Check your connection and try again." }).waitFor();
        await page.unroute(`${web.stack.url}/shorten/`);

        // A clipboard the browser refuses: the text is selected for the person to copy.
        await shorten(page, "https://example.com/no-clipboard");
        const { shortLink } = await result(page, "https://example.com/no-clipboard");
        await page.evaluate(`navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"))`);
        await page.getByRole("button", { name: "Copy", exact: true }).click();
        await page.locator("#copy-link-status", { hasText: "Copying was refused: the text is selected, press Ctrl+C" }).waitFor();
        expect(
          await page.evaluate(
            `[document.activeElement.id, document.activeElement.value.slice(document.activeElement.selectionStart, document.activeElement.selectionEnd)]`,
          ),
        ).toEqual(["result-url", shortLink]);

        const offline = [
          `request failed: ${web.stack.url}/shorten/ (net::ERR_INTERNET_DISCONNECTED)`,
          "console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED",
        ];
        // 404: the alias check's answers for the free variants of the taken alias typed.
        expect(unexpectedProblems(problems, [400, 404, 409, 429]).filter((problem) => !offline.includes(problem))).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "markup in a long URL, or in what this browser stored, is shown as text",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`);
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      try {
        const markup = "<img src=x onerror=alert(1)>";
        await shorten(page, `https://example.com/?q=${markup}`);
        // Stored percent-encoded, shown decoded, as an address bar shows it: as text.
        const { code } = await result(page, `https://example.com/?q=${markup}`);
        await page.locator(`li[data-code="${code}"] .count`).waitFor();
        expect(await page.locator(`li[data-code="${code}"] .saved-link-destination`).innerText()).toBe(`https://example.com/?q=${markup}`);

        // Whatever another script left in localStorage is read as hostile too.
        await page.evaluate(`localStorage.setItem("linkgeo.links", JSON.stringify([
          { short_url: "gone-link", manage_token: "x", link: "http://x/<b>bold</b>", long_url: "<script>alert(2)</script>", created_at: "<i>then</i>" },
          ...JSON.parse(localStorage.getItem("linkgeo.links")),
        ]))`);
        await page.reload();
        const gone = page.locator('li[data-code="gone-link"]');
        await gone.locator(".badge", { hasText: "deleted" }).waitFor();
        expect(await gone.locator(".saved-link-destination").innerText()).toBe("<script>alert(2)</script>");
        expect(await gone.getByRole("link").innerText()).toStartWith("x/<b>bold</b>");
        expect(await page.locator("main img, main b, main i, main script").count()).toBe(0);

        // A deleted link is forgotten on request.
        await gone.getByRole("button", { name: "Forget gone-link" }).click();
        await gone.waitFor({ state: "detached" });
        expect(await page.locator(`li[data-code="${code}"]`).count()).toBe(1);

        expect(dialogs).toEqual([]);
        expect(unexpectedProblems(problems, [404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
