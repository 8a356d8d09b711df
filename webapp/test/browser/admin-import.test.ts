import { beforeAll, describe, expect, test } from "bun:test";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { stackAdmin, type WebStack, withoutLocalGeocoder } from "../support/web-stack.ts";
import { useWebStack } from "./support/fixtures.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** A plain CSV as people write one: two links to import, a reserved code, a code already taken and an address that is no web address. */
const linksCsv = [
  "long_url,short_url,title,tags",
  "https://example.com/imported-one,imported-one,Imported one,import",
  "https://example.com/reserved,admin,,",
  "https://example.com/taken,already-here,,",
  "javascript:alert(1),bad-scheme,,",
  "https://example.com/imported-two,imported-two,Second import,import",
].join("\n");

/** Shlink's CSV export of one link (docs/migrating.md). */
const shlinkCsv = [
  '"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"',
  '"2025-03-01 10:00:00",,"spring-24","https://s.test/spring-24","https://example.com/spring","Spring","sale",12',
].join("\n");

describe("importing links on the admin page", () => {
  const web = useWebStack(withoutLocalGeocoder);
  let stack: WebStack;
  let page: Page;
  let problems: string[];

  const panel = () => page.locator("#link-import");
  const choose = (name: string, text: string, mimeType = "text/csv") =>
    panel()
      .getByLabel("File")
      .setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
  const stat = async (label: string) =>
    (
      await panel()
        .locator(".stat", { has: page.getByText(label, { exact: true }) })
        .locator("dd")
        .innerText()
    ).trim();
  const linkStatus = async (code: string) => (await fetch(`${stack.url}/shorten/${code}/`)).status;

  beforeAll(async () => {
    stack = web.stack;
    const taken = await fetch(`${stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: "https://example.com/already", short_url: "already-here" }),
    });
    expect(taken.status).toBe(201);
    ({ page, problems } = await web.browser.open(`${stack.url}/`));
    expect((await page.request.post(`${stack.url}/admin/session`, { data: stackAdmin })).status()).toBe(200);
    await page.goto(`${stack.url}/app/admin`);
    await page.locator('#links-body tr[data-code="already-here"]').waitFor();
  }, browserSetupTimeoutMs);

  test(
    "a file is checked first: what would be imported, and each row refused with its line and reason; nothing is stored yet",
    async () => {
      await page.getByRole("heading", { name: "Import links" }).waitFor();
      // No file: said on the field.
      await panel().getByRole("button", { name: "Check the file" }).click();
      await panel().getByRole("alert").filter({ hasText: "Choose a file to import." }).waitFor();

      await choose("links.csv", linksCsv);
      await panel().getByRole("button", { name: "Check the file" }).click();
      await panel().getByRole("heading", { name: "Dry run of links.csv (CSV with a URL column): nothing is stored yet" }).waitFor();
      expect([await stat("Lines"), await stat("Would import"), await stat("Skipped"), await stat("Problems")]).toEqual(["6", "2", "2", "1"]);
      await panel().getByRole("status").filter({ hasText: "2 links would be imported; 3 rows would not be imported, see below." }).waitFor();
      const refused = await panel()
        .locator(".import-refusals tbody tr")
        .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent)));
      expect(refused.map(([line, code]) => [line, code])).toEqual([
        ["3", "admin"],
        ["4", "already-here"],
        // A row that cannot be read is reported by its line alone.
        ["5", "—"],
      ]);
      expect(refused[0]![2]).toMatch(/^Skipped: .*reserved/);
      expect(refused[1]![2]).toMatch(/^Skipped: .*taken/);
      expect(refused[2]![2]).toStartWith("Problem: ");
      // A dry run: nothing stored.
      expect(await linkStatus("imported-one")).toBe(404);
      await panel().getByRole("button", { name: "Import 2 links" }).waitFor();
      await checkPageState(page, "admin-import-dry-run");
    },
    flowTimeoutMs,
  );

  test(
    "confirmed, it imports with the admin's session: the summary, and the new links in the table",
    async () => {
      const sent = page.waitForRequest((request) => request.url().endsWith("/admin/import") && request.method() === "POST");
      await panel().getByRole("button", { name: "Import 2 links" }).click();
      expect((await sent).headers()["x-csrf-token"]).toBeTruthy();
      await panel().getByRole("heading", { name: "Imported from links.csv (CSV with a URL column)" }).waitFor();
      expect([await stat("Imported"), await stat("Skipped"), await stat("Problems")]).toEqual(["2", "2", "1"]);
      await panel().getByRole("status").filter({ hasText: "2 links imported; 3 rows not imported, see below." }).waitFor();
      await page.locator("#links-status", { hasText: "2 links imported from links.csv." }).waitFor();
      await page.locator('#links-body tr[data-code="imported-two"]').waitFor();
      expect(await page.locator('#links-body tr[data-code="imported-one"] td.title').innerText()).toBe("Imported one");
      expect(await linkStatus("imported-one")).toBe(200);
      expect(
        await panel()
          .getByRole("button", { name: /^Import \d/ })
          .count(),
      ).toBe(0);
      await checkPageState(page, "admin-import-done");

      // Once more: every code is taken now, so nothing would be imported.
      await panel().getByRole("button", { name: "Check the file" }).click();
      await panel().getByRole("status").filter({ hasText: "Nothing to import; 5 rows would not be imported, see below." }).waitFor();
      expect(
        await panel()
          .getByRole("button", { name: /^Import \d/ })
          .count(),
      ).toBe(0);
    },
    flowTimeoutMs,
  );

  test(
    "another tool's export is told by its first line; a file that is no text is refused in words",
    async () => {
      await panel().getByRole("button", { name: "Import another file" }).click();
      expect(await panel().locator("#import-report").isHidden()).toBe(true);
      await choose("export.csv", shlinkCsv);
      await panel().getByRole("button", { name: "Check the file" }).click();
      await panel().getByRole("heading", { name: "Dry run of export.csv (Shlink export): nothing is stored yet" }).waitFor();
      await panel().getByRole("button", { name: "Import 1 link" }).click();
      await panel().getByRole("heading", { name: "Imported from export.csv (Shlink export)" }).waitFor();
      expect(((await (await fetch(`${stack.url}/shorten/spring-24/`)).json()) as { long_url: string }).long_url).toBe("https://example.com/spring");

      await panel().getByRole("button", { name: "Import another file" }).click();
      await panel()
        .getByLabel("File")
        .setInputFiles({ name: "archive.csv", mimeType: "text/csv", buffer: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]) });
      await panel().getByRole("button", { name: "Check the file" }).click();
      await panel()
        .getByRole("alert")
        .filter({ hasText: /^The file could not be checked: / })
        .waitFor();
      expect(await panel().locator("#import-report").isHidden()).toBe(true);
      // Chromium logs the refusal of the binary file (415) as a console error.
      expect(unexpectedProblems(problems, [415])).toEqual([]);
    },
    flowTimeoutMs,
  );
});
