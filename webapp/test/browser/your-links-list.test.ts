import { describe, expect, test } from "bun:test";
import { waitFor } from "@linkgeo/testing";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { downloaded } from "./support/web-browser.ts";

/** A flow that visits several states and checks each at two widths. */
const flowTimeoutMs = 4 * browserTestTimeoutMs;

interface Made {
  short_url: string;
  manage_token: string;
  link: string;
  long_url: string;
  created_at: string;
}

/** The codes of the rows shown, top to bottom. */
const rowCodes = (page: Page) => page.locator("#links-list li[data-code]").evaluateAll((items) => items.map((item) => item.getAttribute("data-code")));

// One case: it reads the clipboard, which every profile of the browser shares.
describe("Your links as a list: a row's copy and QR code, state badges, sort, pages, deleted links forgotten", () => {
  const web = useSharedWebStack();

  async function make(body: Record<string, unknown>): Promise<Made> {
    const answer = await fetch(`${web.stack.url}/shorten/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(answer.status).toBe(201);
    const { short_url, manage_token, link, long_url, created_at } = (await answer.json()) as Made;
    return { short_url, manage_token, link, long_url, created_at };
  }

  async function visit(link: Made, times: number, until: (stats: { access_count: number; state?: string }) => boolean): Promise<void> {
    for (let i = 0; i < times; i++) expect((await fetch(link.link, { redirect: "manual" })).status).toBe(302);
    // Counted behind the redirect: the list is read once the count says so.
    await waitFor(`the visits of ${link.short_url}`, async () =>
      until((await (await fetch(`${web.stack.url}/shorten/${link.short_url}/stats/`)).json()) as { access_count: number; state?: string }),
    );
  }

  test(
    "every row copies and shows its QR code, says what state the link is in; the list sorts, pages, and forgets the deleted ones on request",
    async () => {
      const visited = await make({ long_url: "https://example.com/list-visited" });
      const usedUp = await make({ long_url: "https://example.com/list-used-up", max_visits: 1 });
      const expired = await make({ long_url: "https://example.com/list-expired" });
      const locked = await make({ long_url: "https://example.com/list-locked", password: "open sesame, please" });
      const deleted = await make({ long_url: "https://example.com/list-deleted" });
      const plain: Made[] = [];
      for (let i = 0; i < 25; i++) plain.push(await make({ long_url: `https://example.com/list-plain-${i}` }));
      await visit(visited, 2, (stats) => stats.access_count === 2);
      await visit(usedUp, 1, (stats) => stats.access_count === 1);
      const change = await fetch(`${web.stack.url}/shorten/${expired.short_url}/`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${expired.manage_token}` },
        body: JSON.stringify({ expires_at: "2020-01-01T00:00:00Z" }),
      });
      expect(change.status).toBe(200);
      const gone = await fetch(`${web.stack.url}/shorten/${deleted.short_url}/`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${deleted.manage_token}` },
      });
      expect(gone.status).toBe(204);
      // As this browser would keep them, the latest added first.
      const kept = [visited, usedUp, expired, locked, deleted, ...plain];

      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links`, "phone");
      try {
        await page.evaluate(`localStorage.setItem("linkgeo.links", ${JSON.stringify(JSON.stringify(kept))})`);
        await page.reload();
        const row = (link: Made) => page.locator(`#links-list li[data-code="${link.short_url}"]`);
        await row(visited).locator(".count", { hasText: "2 visits" }).waitFor();

        // Twenty a page, in the order they were added.
        expect(await page.locator("#links-summary").innerText()).toBe("30 links");
        expect(await rowCodes(page)).toEqual(kept.slice(0, 20).map((link) => link.short_url));
        expect(await page.getByText("Page 1 of 2", { exact: true }).isVisible()).toBe(true);

        // What state each link is in, from the same one request that counts them.
        const badges = async (link: Made) => (await row(link).locator(".badge").allInnerTexts()).map((text) => text.toLowerCase());
        expect(await badges(visited)).toEqual([]);
        expect(await badges(usedUp)).toEqual(["used up"]);
        expect(await badges(expired)).toEqual(["expired"]);
        expect(await badges(locked)).toEqual(["password"]);
        expect(await badges(deleted)).toEqual(["deleted"]);

        // Copy and QR code in the row itself.
        await row(visited)
          .getByRole("button", { name: `Copy ${visited.short_url}` })
          .click();
        await row(visited).getByText("Copied", { exact: true }).waitFor();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(visited.link);
        const qrButton = row(visited).getByRole("button", { name: `QR code of ${visited.short_url}` });
        expect(await qrButton.getAttribute("aria-expanded")).toBe("false");
        await qrButton.click();
        expect(await qrButton.getAttribute("aria-expanded")).toBe("true");
        await row(visited)
          .getByRole("img", { name: `QR code of ${visited.link}` })
          .waitFor();
        const [png] = await Promise.all([page.waitForEvent("download"), row(visited).getByRole("link", { name: "Download PNG" }).click()]);
        expect(png.suggestedFilename()).toBe(`${visited.short_url}.png`);
        expect([...(await downloaded(png)).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
        // A deleted link has nothing to copy nor to scan.
        expect(
          await row(deleted)
            .getByRole("button", { name: /^(Copy|QR code)/ })
            .count(),
        ).toBe(0);
        await checkPageState(page, "your-links-list");

        // Sorted by the visits, the most first; by when the links were made, either way.
        await page.getByLabel("Sort by").selectOption({ label: "Most visited" });
        expect((await rowCodes(page)).slice(0, 2)).toEqual([visited.short_url, usedUp.short_url]);
        await page.getByLabel("Sort by").selectOption({ label: "Oldest first" });
        expect((await rowCodes(page)).slice(0, 2)).toEqual([visited.short_url, usedUp.short_url]);
        await page.getByLabel("Sort by").selectOption({ label: "Newest first" });
        // Links made in the same millisecond tie, and a tie keeps the order they were added in.
        const newestAt = Math.max(...kept.map((link) => Date.parse(link.created_at)));
        expect((await rowCodes(page))[0]).toBe(kept.find((link) => Date.parse(link.created_at) === newestAt)!.short_url);

        // The second page, and back.
        await page.getByRole("button", { name: "Next page" }).click();
        await page.getByText("Page 2 of 2", { exact: true }).waitFor();
        expect(await page.locator("#links-list li[data-code]").count()).toBe(10);
        expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
        await checkPageState(page, "your-links-page-2");
        await page.getByRole("button", { name: "Previous page" }).click();
        await page.getByText("Page 1 of 2", { exact: true }).waitFor();
        // A search starts again at the first page of what matches.
        await page.getByRole("button", { name: "Next page" }).click();
        await page.getByRole("searchbox", { name: "Search your links" }).fill("list-plain-1");
        expect(await page.locator("#links-summary").innerText()).toBe("11 of 30 links match “list-plain-1”.");
        expect(await page.locator("#links-list li[data-code]").count()).toBe(11);
        expect(await page.getByRole("navigation", { name: "Pages of your links" }).count()).toBe(0);
        await page.getByRole("searchbox", { name: "Search your links" }).fill("");

        // The links the API no longer has: said once above the list, and forgotten together on request.
        const notice = page.locator("#links-deleted");
        expect(await notice.innerText()).toContain("1 of your links no longer exists: it was deleted.");
        await notice.getByRole("button", { name: "Forget the deleted link" }).click();
        await page.locator("#links-forgotten", { hasText: "Forgot 1 deleted link." }).waitFor();
        expect(await page.locator("#links-summary").innerText()).toBe("29 links");
        expect(await notice.isHidden()).toBe(true);
        const stored = JSON.parse((await page.evaluate(`localStorage.getItem("linkgeo.links")`)) as string) as Made[];
        expect(stored.map((link) => link.short_url)).toEqual(kept.filter((link) => link !== deleted).map((link) => link.short_url));
        await checkPageState(page, "your-links-forgotten");

        expect(unexpectedProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
