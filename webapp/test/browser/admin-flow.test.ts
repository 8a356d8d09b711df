import { beforeAll, describe, expect, test } from "bun:test";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { waitFor } from "@linkgeo/testing";
import type { BrowserContext, Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { downloaded, viewports } from "./support/web-browser.ts";
import { stackAdmin, type WebStack, withoutLocalGeocoder } from "../support/web-stack.ts";
import { useWebStack } from "./support/fixtures.ts";
import { typingPauseMs } from "../../src/client/lib/typing-pause.ts";

interface CreatedLink {
  short_url: string;
  long_url: string;
  link: string;
  manage_token: string;
}

/**
 * The links the admin finds, made through the API as their owners would
 * (oldest first). `someone-else` is deleted by the admin without ever having
 * seen its manage token; `to-edit` gets a new destination.
 */
const seeds = [
  { short_url: "docs-home", long_url: "https://docs.example.com/start", visits: 3 },
  { short_url: "blog-post", long_url: "https://blog.example.org/2026/hello-world", visits: 1 },
  { short_url: "hostile", long_url: `https://example.net/<img src=x onerror=alert(1)>?q="><script>alert(2)</script>`, visits: 0 },
  { short_url: "to-edit", long_url: "https://old.example.com/landing", visits: 0 },
  { short_url: "someone-else", long_url: "https://private.example.com/their/own/page", visits: 0 },
];

/** RFC 4180 as a spreadsheet reads it: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  for (const match of text.matchAll(/("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n|$)/g)) {
    const [, raw = "", end] = match;
    fields.push(raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw);
    if (end !== ",") {
      records.push(fields);
      fields = [];
      if (end === "") break;
    }
  }
  return records.filter((record) => record.length > 1 || record[0] !== "");
}

describe("the admin page in a real browser", () => {
  // A stack of the file's own (useWebStack: the admin's table lists every link there is) and the browser;
  // `stack` is read in the tests, set once it is up.
  const web = useWebStack(withoutLocalGeocoder);
  let stack: WebStack;
  let page: Page;
  let context: BrowserContext;
  let problems: string[];
  const created = new Map<string, CreatedLink>();

  const rows = () => page.locator("#links-body tr");
  const row = (code: string) => page.locator(`#links-body tr[data-code="${code}"]`);
  const menuButton = (code: string) => row(code).getByRole("button", { name: `Actions for ${code}` });
  /** A row's action, chosen in its one menu. */
  const menuItem = async (code: string, item: string) => {
    await menuButton(code).click();
    return page.getByRole("menu", { name: `Actions for ${code}` }).getByRole("menuitem", { name: item });
  };
  const codesShown = () => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-code")));
  const pageInfo = (text: string) => page.locator("#page-info", { hasText: text }).waitFor();
  const apiStatus = async (path: string, init: RequestInit = {}) => (await fetch(stack.url + path, init)).status;

  beforeAll(async () => {
    stack = web.stack;
    for (const seed of seeds) {
      const response = await fetch(`${stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: seed.long_url, short_url: seed.short_url }),
      });
      expect(response.status).toBe(201);
      created.set(seed.short_url, (await response.json()) as CreatedLink);
      for (let i = 0; i < seed.visits; i++) expect((await fetch(`${stack.url}/${seed.short_url}/`, { redirect: "manual" })).status).toBe(302);
    }
    // The shortener counts visits in batches: wait until every one is in.
    for (const seed of seeds.filter((s) => s.visits > 0)) {
      await waitFor(`${seed.short_url}'s ${seed.visits} visits to be counted`, async () => {
        const stats = (await (await fetch(`${stack.url}/shorten/${seed.short_url}/stats/`)).json()) as { access_count: number };
        return stats.access_count === seed.visits;
      });
    }
    // On the profile's clock: a search typed is asked for once typing pauses, and the tests move the clock past that pause.
    ({ page, context, problems } = await web.browser.open(`${stack.url}/app/admin`, "desktop", { clock: true }));
  }, browserSetupTimeoutMs);

  test(
    "signed out, it offers a sign-in form; a wrong password is refused in plain words",
    async () => {
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await page.getByLabel("Username").getAttribute("autocomplete")).toBe("username");
      expect(await page.getByLabel("Password").getAttribute("autocomplete")).toBe("current-password");
      expect(await page.locator("#admin-view").isHidden()).toBe(true);
      await checkPageState(page, "admin-login");

      await page.getByLabel("Username").fill(stackAdmin.username);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "Wrong username or password." }).waitFor();
      expect(await page.locator("#admin-view").isHidden()).toBe(true);
      await checkPageState(page, "admin-login-error");
    },
    browserTestTimeoutMs,
  );

  test(
    "signed in, every link is in the table with its count, dates and a 14-day sparkline; markup in a destination stays text",
    async () => {
      await page.getByLabel("Password").fill(stackAdmin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText(`Signed in as ${stackAdmin.username}`).waitFor();
      await pageInfo("Page 1 of 1 · 5 links");
      // Newest first.
      expect(await codesShown()).toEqual(seeds.map((seed) => seed.short_url).reverse());

      await row("docs-home").getByRole("img", { name: "14 days: 3 visits" }).waitFor();
      await row("blog-post").getByRole("img", { name: "14 days: 1 visit" }).waitFor();
      await row("to-edit").getByRole("img", { name: "14 days: 0 visits" }).waitFor();
      expect(await page.locator("svg.sparkline polyline").count()).toBe(5);
      expect(await row("docs-home").locator("td.number").innerText()).toBe("3");
      // A row's page names the link's domain (docs/domains.md): the default one's host here.
      const pageOfRow = `/app/links/docs-home?domain=${new URL(stack.url).hostname}`;
      expect(await row("docs-home").getByRole("link", { name: "docs-home", exact: true }).getAttribute("href")).toBe(pageOfRow);
      expect(await (await menuItem("docs-home", "Open its page")).getAttribute("href")).toBe(pageOfRow);
      await page.keyboard.press("Escape");
      // Links never visited say so once their stats arrive.
      await row("to-edit").locator("td", { hasText: "never" }).waitFor();

      const hostile = created.get("hostile")!;
      // Its host, then the rest as text: the markup is read, never run.
      expect(await row("hostile").locator(".destination-host").innerText()).toBe("example.net");
      expect(await row("hostile").locator(".destination-rest").innerText()).toStartWith("/<img src=x onerror=alert(1)>");
      expect(await row("hostile").locator(".destination-link").getAttribute("title")).toBe(hostile.long_url);
      expect(await page.locator("#links-body img, #links-body script").count()).toBe(0);

      // The summary across all links: 4 visits, docs-home first.
      await page.getByRole("heading", { name: /Visits across all links/ }).waitFor();
      expect(await page.locator("#visit-totals .stat").first().innerText()).toMatch(/Visits\s+4/);
      expect(await page.locator("#top-links li").first().innerText()).toMatch(/docs-home\s+3 visits/);

      await checkPageState(page, "admin-table");
      // On a phone each row is a card, its destination across the whole card.
      await page.setViewportSize(viewports.phone);
      const card = (await row("docs-home").boundingBox())!;
      const destination = (await row("docs-home").locator("td.destination").boundingBox())!;
      expect(card.width).toBeLessThan(viewports.phone.width);
      expect(destination.width).toBeGreaterThan(card.width * 0.8);
      await page.setViewportSize(viewports.desktop);
      // Dark follows the system: the same contrast rules hold there.
      await page.emulateMedia({ colorScheme: "dark" });
      await checkPageState(page, "admin-table-dark");
      await page.emulateMedia({ colorScheme: "light" });
    },
    browserTestTimeoutMs,
  );

  test(
    "search narrows the table (typing or Enter), survives a reload through the URL, and says when nothing matches",
    async () => {
      await page.getByLabel("Search").fill("blog");
      await page.clock.fastForward(typingPauseMs);
      await pageInfo("Page 1 of 1 · 1 link");
      expect(await codesShown()).toEqual(["blog-post"]);
      expect(new URL(page.url()).search).toBe("?q=blog");

      await page.reload();
      await pageInfo("Page 1 of 1 · 1 link");
      expect(await page.getByLabel("Search").inputValue()).toBe("blog");
      expect(await codesShown()).toEqual(["blog-post"]);

      await page.getByLabel("Search").fill("<b>nothing like this</b>");
      await page.getByLabel("Search").press("Enter");
      await page.getByText("No links match.").waitFor();
      await pageInfo("Page 1 of 1 · 0 links");
      expect(await rows().count()).toBe(0);
      await checkPageState(page, "admin-empty");

      await page.getByLabel("Search").fill("");
      await page.getByLabel("Search").press("Enter");
      await pageInfo("Page 1 of 1 · 5 links");
      expect(new URL(page.url()).search).toBe("");
    },
    browserTestTimeoutMs,
  );

  test(
    "Back and Forward step through searches and sorts without leaving the page",
    async () => {
      await page.goto(`${stack.url}/app/admin`);
      await pageInfo("Page 1 of 1 · 5 links");
      await page.getByLabel("Search").fill("example.com");
      await page.clock.fastForward(typingPauseMs);
      await pageInfo("Page 1 of 1 · 3 links");
      await page.getByLabel("Sort by").selectOption("most_visited");
      await page.locator("#links-body tr").first().and(row("docs-home")).waitFor();
      expect(new URL(page.url()).search).toBe("?q=example.com&sort=most_visited");

      await page.goBack();
      await pageInfo("Page 1 of 1 · 3 links");
      expect(new URL(page.url()).search).toBe("?q=example.com");
      expect(await page.getByLabel("Sort by").inputValue()).toBe("newest");
      expect(await page.getByLabel("Search").inputValue()).toBe("example.com");

      await page.goBack();
      await pageInfo("Page 1 of 1 · 5 links");
      expect(new URL(page.url()).pathname).toBe("/app/admin");
      expect(await page.getByLabel("Search").inputValue()).toBe("");

      await page.goForward();
      await pageInfo("Page 1 of 1 · 3 links");
      expect(await page.getByLabel("Search").inputValue()).toBe("example.com");
      await page.getByLabel("Search").fill("");
      await page.clock.fastForward(typingPauseMs);
      await pageInfo("Page 1 of 1 · 5 links");
    },
    browserTestTimeoutMs,
  );

  test(
    "each row copies its short link; rows per page is asked of the API and kept in the address",
    async () => {
      await page.goto(`${stack.url}/app/admin`);
      await pageInfo("Page 1 of 1 · 5 links");
      await (await menuItem("docs-home", "Copy short link")).click();
      const link = created.get("docs-home")!.link;
      await page.locator("#links-status", { hasText: `Copied ${link}.` }).waitFor();
      expect(await page.evaluate("navigator.clipboard.readText()")).toBe(link);

      const asked = page.waitForRequest((request) => request.url().includes("/shorten/?") && request.url().includes("page_size=50"));
      await page.getByLabel("Rows per page").selectOption("50");
      await asked;
      await pageInfo("Page 1 of 1 · 5 links");
      expect(new URL(page.url()).search).toBe("?page_size=50");
      await page.reload();
      await pageInfo("Page 1 of 1 · 5 links");
      expect(await page.getByLabel("Rows per page").inputValue()).toBe("50");
      await page.getByLabel("Rows per page").selectOption("20");
      await page.waitForURL(`${stack.url}/app/admin`);
      await checkPageState(page, "admin-table-tools");
    },
    browserTestTimeoutMs,
  );

  test(
    "sorting by most visited orders the links by their count, and the URL keeps it",
    async () => {
      await page.getByLabel("Sort by").selectOption({ label: "Most visited" });
      await page.locator('#links-body tr:first-child[data-code="docs-home"]').waitFor();
      // Ties (no visits) go to the newest link.
      expect(await codesShown()).toEqual(["docs-home", "blog-post", "someone-else", "to-edit", "hostile"]);
      expect(new URL(page.url()).searchParams.get("sort")).toBe("most_visited");

      await page.reload();
      await page.locator('#links-body tr:first-child[data-code="docs-home"]').waitFor();
      expect(await page.getByLabel("Sort by").inputValue()).toBe("most_visited");
    },
    browserTestTimeoutMs,
  );

  test(
    "deleting another person's link asks first, in the row; cancelling keeps it, confirming removes it for good",
    async () => {
      const target = row("someone-else");
      await (await menuItem("someone-else", "Delete")).click();
      const question = target.getByRole("group", { name: "Delete someone-else?" });
      await question.waitFor();
      await checkPageState(page, "admin-delete-confirmation");

      await question.getByRole("button", { name: "Cancel" }).click();
      await question.waitFor({ state: "detached" });
      expect(await apiStatus("/shorten/someone-else/")).toBe(200);

      await (await menuItem("someone-else", "Delete")).click();
      await target.getByRole("button", { name: "Yes, delete" }).click();
      await page.getByRole("status").filter({ hasText: "Link someone-else deleted." }).waitFor();
      await pageInfo("Page 1 of 1 · 4 links");
      expect(await target.count()).toBe(0);
      expect(await apiStatus("/shorten/someone-else/")).toBe(404);
    },
    browserTestTimeoutMs,
  );

  test(
    "editing a destination happens in the row: a refused address is explained, a good one is saved",
    async () => {
      const target = row("to-edit");
      await (await menuItem("to-edit", "Edit destination")).click();
      const field = target.getByLabel("New destination for to-edit");
      expect(await field.inputValue()).toBe(created.get("to-edit")!.long_url);
      await checkPageState(page, "admin-edit-row");

      // No web address: said before anything is sent.
      await field.fill("javascript:alert(1)");
      await target.getByRole("button", { name: "Save" }).click();
      await target.getByRole("alert").filter({ hasText: "That is not a web address" }).waitFor();
      // A web address the service refuses (one that points back at it): its reason, in the row.
      await field.fill("http://localhost/loop");
      await target.getByRole("button", { name: "Save" }).click();
      await target.getByRole("alert").filter({ hasText: "That destination cannot be used" }).waitFor();
      expect(((await (await fetch(`${stack.url}/shorten/to-edit/`)).json()) as { long_url: string }).long_url).toBe(created.get("to-edit")!.long_url);

      await field.fill("https://new.example.com/landing?from=admin");
      await target.getByRole("button", { name: "Save" }).click();
      await target.locator('.destination-link[title="https://new.example.com/landing?from=admin"]').waitFor();
      await page.getByRole("status").filter({ hasText: "The destination of to-edit is now https://new.example.com/landing?from=admin." }).waitFor();
      const record = (await (await fetch(`${stack.url}/shorten/to-edit/`)).json()) as { long_url: string };
      expect(record.long_url).toBe("https://new.example.com/landing?from=admin");
    },
    browserTestTimeoutMs,
  );

  test(
    "the Visits, Created and Last visited headers sort: said by aria-sort, kept in the address and in the Sort by menu",
    async () => {
      const header = (name: string) => page.locator("#links-table thead th", { has: page.getByRole("button", { name, exact: true }) });
      await page.getByRole("button", { name: "Created", exact: true }).click();
      await page.waitForURL((url) => !url.searchParams.has("sort"));
      expect(await header("Created").getAttribute("aria-sort")).toBe("descending");
      expect(await header("Visits").getAttribute("aria-sort")).toBeNull();
      expect(await page.getByLabel("Sort by").inputValue()).toBe("newest");

      await page.getByRole("button", { name: "Visits", exact: true }).click();
      await page.locator('#links-body tr:first-child[data-code="docs-home"]').waitFor();
      expect(new URL(page.url()).searchParams.get("sort")).toBe("most_visited");
      expect(await header("Visits").getAttribute("aria-sort")).toBe("descending");
      expect(await header("Created").getAttribute("aria-sort")).toBeNull();
      expect(await page.getByLabel("Sort by").inputValue()).toBe("most_visited");
      // Back: the order before, its header marked again.
      await page.goBack();
      await page.waitForURL((url) => !url.searchParams.has("sort"));
      await page.locator("#links-table thead th[aria-sort]", { hasText: "Created" }).waitFor();
    },
    browserTestTimeoutMs,
  );

  test(
    "selected links are downloaded as CSV, or deleted at once after one question; the page's box selects every row; every link downloads as CSV",
    async () => {
      for (const code of ["bulk-a", "bulk-b", "bulk-c"]) {
        const made = await fetch(`${stack.url}/shorten/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          // bulk-a's tag is one a spreadsheet would run (-2-3): the download writes it as text.
          body: JSON.stringify({ long_url: `https://example.com/${code}`, short_url: code, ...(code === "bulk-a" ? { tags: ["-2-3", "launch"] } : {}) }),
        });
        expect(made.status).toBe(201);
      }
      await page.reload();
      await row("bulk-c").waitFor();
      const bar = page.getByRole("group", { name: /selected$/ });
      const pageBox = page.getByRole("checkbox", { name: "Select every link on this page" });

      // Two rows ticked: the page's box is half-ticked, and the two download as CSV, quoted where they must be, a cell a spreadsheet would run marked as text.
      await row("hostile").getByRole("checkbox", { name: "Select hostile" }).check();
      await row("bulk-a").getByRole("checkbox", { name: "Select bulk-a" }).check();
      await bar.getByText("2 links selected").waitFor();
      expect(await pageBox.evaluate((box) => (box as unknown as { indeterminate: boolean }).indeterminate)).toBe(true);
      const [download] = await Promise.all([page.waitForEvent("download"), bar.getByRole("link", { name: "Download as CSV" }).click()]);
      expect(download.suggestedFilename()).toBe("linkgeo-selected-links.csv");
      const csv = parseCsv((await downloaded(download)).toString("utf8"));
      expect(csv[0]).toEqual(["short_url", "link", "long_url", "visits", "created_at", "last_accessed_at", "state", "tags"]);
      const byCode = new Map(csv.slice(1).map((fields) => [fields[0], fields]));
      expect([...byCode.keys()].sort()).toEqual(["bulk-a", "hostile"]);
      expect(byCode.get("hostile")!.slice(1, 4)).toEqual([created.get("hostile")!.link, created.get("hostile")!.long_url, "0"]);
      expect(byCode.get("bulk-a")!.slice(6)).toEqual(["active", "'-2-3 launch"]);
      await page.getByRole("button", { name: "Clear selection" }).click();
      await bar.waitFor({ state: "hidden" });

      // The page's box ticks every row, and unticks them.
      await pageBox.check();
      await bar.getByText(`${await rows().count()} links selected`).waitFor();
      expect(await page.locator(".select-link:not(:checked)").count()).toBe(0);
      await pageBox.uncheck();
      await bar.waitFor({ state: "hidden" });

      // Three deleted at once: one question first; Cancel and Escape keep them.
      for (const code of ["bulk-a", "bulk-b", "bulk-c"])
        await row(code)
          .getByRole("checkbox", { name: `Select ${code}` })
          .check();
      await bar.getByRole("button", { name: "Delete" }).click();
      const question = page.getByRole("group", { name: "Delete 3 links? Their visits go with them; this cannot be undone." });
      await question.waitFor();
      await checkPageState(page, "admin-bulk-delete");
      await question.getByRole("button", { name: "Cancel" }).click();
      await question.waitFor({ state: "hidden" });
      await bar.getByRole("button", { name: "Delete" }).click();
      await page.keyboard.press("Escape");
      await question.waitFor({ state: "hidden" });
      for (const code of ["bulk-a", "bulk-b", "bulk-c"]) expect(await apiStatus(`/shorten/${code}/`)).toBe(200);

      await bar.getByRole("button", { name: "Delete" }).click();
      await question.getByRole("button", { name: "Yes, delete 3 links" }).click();
      await page.getByRole("status").filter({ hasText: "3 links deleted." }).waitFor();
      for (const code of ["bulk-a", "bulk-b", "bulk-c"]) {
        expect(await row(code).count()).toBe(0);
        expect(await apiStatus(`/shorten/${code}/`)).toBe(404);
      }
      await bar.waitFor({ state: "hidden" });

      // Every link, from the shortener's own export, with the admin's session.
      const everything = page.getByRole("link", { name: "Download every link (CSV)" });
      const answer = await page.request.get(stack.url + (await everything.getAttribute("href"))!);
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-type"]).toStartWith("text/csv");
      expect(await answer.text()).toContain("docs-home");
    },
    browserTestTimeoutMs,
  );

  test(
    "a row's QR code opens in a dialog, made to measure and downloaded; Escape closes it and the focus returns to the row",
    async () => {
      const link = created.get("docs-home")!.link;
      const opener = menuButton("docs-home");
      await (await menuItem("docs-home", "QR code")).click();
      const dialog = page.getByRole("dialog", { name: "QR code of docs-home" });
      await dialog.waitFor();
      expect(await dialog.locator("#qr-dialog-link").innerText()).toBe(link);
      await dialog.getByRole("img", { name: `QR code of ${link}` }).waitFor();
      await dialog.getByLabel("Size").selectOption("16");
      await dialog.locator("#qr-size-note", { hasText: /^\d+ × \d+ pixels/ }).waitFor();
      const side = Number((await dialog.locator("#qr-size-note").innerText()).split(" ")[0]);
      const [svg] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download SVG" }).click()]);
      expect(svg.suggestedFilename()).toBe("docs-home.svg");
      expect((await downloaded(svg)).toString("utf8")).toContain(`width="${side}" height="${side}"`);
      await checkPageState(page, "admin-qr-dialog");

      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await opener.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);

      // Another row's: the same dialog, that link's code.
      await (await menuItem("blog-post", "QR code")).click();
      await page
        .getByRole("dialog", { name: "QR code of blog-post" })
        .getByRole("img", { name: `QR code of ${created.get("blog-post")!.link}` })
        .waitFor();
      await page.getByRole("button", { name: "Close" }).click();
      await page.getByRole("dialog").waitFor({ state: "hidden" });
    },
    browserTestTimeoutMs,
  );

  test(
    "signing out shows the form again, and the old cookie no longer works anywhere",
    async () => {
      const cookie = (await context.cookies(stack.url)).find((c) => c.name === "linkgeo_admin");
      expect(cookie).toBeDefined();
      expect(cookie!.httpOnly).toBe(true);
      expect(cookie!.sameSite).toBe("Strict");
      const header = { cookie: `${cookie!.name}=${cookie!.value}` };
      expect(await apiStatus("/admin/session", { headers: header })).toBe(200);

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await page.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
      expect(await page.locator("#admin-view").isHidden()).toBe(true);
      expect(await rows().count()).toBe(0);
      await checkPageState(page, "admin-logged-out");

      expect(await apiStatus("/admin/session", { headers: header })).toBe(401);
      expect(await apiStatus("/shorten/", { headers: header })).toBe(401);
      await page.reload();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();

      // Chromium logs the API's expected refusals (401 signed out, 400 for the bad destination) as console errors.
      expect(unexpectedProblems(problems, [400, 401])).toEqual([]);
    },
    browserTestTimeoutMs,
  );
});
