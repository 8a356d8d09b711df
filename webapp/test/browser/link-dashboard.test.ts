import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { overflowsHorizontally, viewports, type OpenedPage } from "./support/web-browser.ts";
import { useSharedWebStack } from "./support/fixtures.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

interface CreatedLink {
  short_url: string;
  link: string;
  manage_token: string;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const dayMs = 86_400_000;

/** The link's card (by its heading, which it has had since before the dashboard). */
const summarySection = 'section[aria-labelledby="summary-heading"]';

describe.concurrent("a link's page as a dashboard, in a real browser", () => {
  const web = useSharedWebStack();

  async function createLink(longUrl: string, visits = 0): Promise<CreatedLink> {
    const response = await fetch(`${web.stack.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: longUrl }),
    });
    expect(response.status).toBe(201);
    const link = (await response.json()) as CreatedLink;
    for (let i = 0; i < visits; i++) expect((await fetch(`${web.stack.url}/${link.short_url}/`, { redirect: "manual" })).status).toBe(302);
    return link;
  }

  async function openWithToken(link: CreatedLink): Promise<OpenedPage> {
    const opened = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`);
    await opened.page.getByRole("textbox", { name: "Manage token" }).fill(link.manage_token);
    await opened.page.getByRole("button", { name: "Use this token" }).click();
    await opened.page.locator("#chart svg").waitFor();
    return opened;
  }

  const boxOf = async (page: Page, selector: string): Promise<Box> => {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`${selector} is not shown`);
    return box;
  };

  test(
    "on a desktop the link's card, QR code and forms are one column and its visits the other; on a phone one column, the visits after the card",
    async () => {
      const link = await createLink("https://example.com/dashboard", 2);
      const { page, context, problems } = await openWithToken(link);
      try {
        await page.locator('#chart svg g.bar[data-visits="2"]').waitFor();
        const [summary, visits, qr, manage] = await Promise.all([
          boxOf(page, summarySection),
          boxOf(page, "#visits-panel"),
          boxOf(page, "#qr-panel"),
          boxOf(page, "#manage-panel"),
        ]);
        // Side by side, level at the top, each column wide enough for its panels.
        expect(visits.x).toBeGreaterThanOrEqual(summary.x + summary.width);
        expect(Math.abs(visits.y - summary.y)).toBeLessThan(2);
        expect(visits.width).toBeGreaterThan(summary.width);
        expect(summary.width).toBeGreaterThan(400);
        // The card, the QR code and the forms one under the other, on the left.
        expect([qr.x, manage.x]).toEqual([summary.x, summary.x]);
        expect(qr.y).toBeGreaterThanOrEqual(summary.y + summary.height);
        expect(manage.y).toBeGreaterThanOrEqual(qr.y + qr.height);
        // The whole dashboard within the window: nothing to scroll sideways.
        expect(visits.x + visits.width).toBeLessThanOrEqual(viewports.desktop.width);
        expect(await overflowsHorizontally(page)).toBe(false);

        await page.setViewportSize(viewports.phone);
        await page.locator("#chart svg").waitFor();
        const phone = await Promise.all([summarySection, "#visits-panel", "#qr-panel", "#manage-panel"].map((s) => boxOf(page, s)));
        // One column, in this order: the card, the visits, the QR code, the forms.
        expect(new Set(phone.map((box) => Math.round(box.x))).size).toBe(1);
        for (let i = 1; i < phone.length; i++) expect(phone[i]!.y).toBeGreaterThanOrEqual(phone[i - 1]!.y + phone[i - 1]!.height);
        expect(Math.max(...phone.map((box) => box.x + box.width))).toBeLessThanOrEqual(viewports.phone.width);
        await checkPageState(page, "link-dashboard");
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "without a credential the token form stands where the visits will be, beside the card",
    async () => {
      const link = await createLink("https://example.com/dashboard-public");
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links/${link.short_url}`);
      try {
        await page.locator("#access-panel").waitFor();
        const [summary, access] = await Promise.all([boxOf(page, summarySection), boxOf(page, "#access-panel")]);
        expect(access.x).toBeGreaterThanOrEqual(summary.x + summary.width);
        expect(Math.abs(access.y - summary.y)).toBeLessThan(2);
        await checkPageState(page, "link-dashboard-public");
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "the chart's bars fit the range: hours for a day, days for weeks, weeks for months, months for years; only the sizes that fit are offered",
    async () => {
      const link = await createLink("https://example.com/bars-that-fit", 3);
      const { page, context, problems } = await openWithToken(link);
      try {
        const chart = page.locator("#chart svg");
        const barSize = page.getByLabel("Each bar is");
        const offered = () =>
          barSize
            .locator("option")
            .evaluateAll((options) => options.filter((o) => !(o as unknown as { disabled: boolean }).disabled).map((o) => o.getAttribute("value")));
        const shownBy = async (unit: string) => {
          await page.getByRole("img", { name: new RegExp(`^Visits by ${unit} from `) }).waitFor();
          return page.locator("#chart svg g.bar");
        };
        const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
        const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

        // The last 7 days by day, a day by the hour.
        await shownBy("day");
        expect(await barSize.inputValue()).toBe("day");
        await page.getByLabel("Range").selectOption("24h");
        expect(await (await shownBy("hour")).count()).toBe(1);
        expect(await offered()).toEqual(["hour", "day"]);

        // 90 days: by week, this week's bar (from Monday, UTC) holding the three visits; hours are not offered.
        await page.getByLabel("Range").selectOption("90d");
        const weeks = await shownBy("week");
        const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * dayMs;
        expect(await weeks.getAttribute("data-t")).toBe(new Date(monday).toISOString());
        expect(await weeks.getAttribute("data-visits")).toBe("3");
        expect(await barSize.inputValue()).toBe("week");
        expect(await offered()).toEqual(["day", "week", "month"]);
        expect(await page.locator("#chart table caption").innerText()).toBe("Visits by week (weeks without visits are left out)");
        // Another size that fits, chosen: days.
        await barSize.selectOption("day");
        await shownBy("day");
        await checkPageState(page, "link-bars-by-week");

        // The hours of one day, then 35 days chosen: days, not 840 hourly slivers.
        await page.getByLabel("Range").selectOption("24h");
        await shownBy("hour");
        await page.getByLabel("Range").selectOption("custom");
        await page.getByLabel("First day").fill(day(today - 34 * dayMs));
        await page.getByLabel("Last day").fill(day(today));
        expect(await (await shownBy("day")).getAttribute("data-t")).toBe(new Date(today).toISOString());
        expect(await offered()).toEqual(["day", "week"]);

        // Two years: by month, this month's bar holding the visits.
        await page.getByLabel("First day").fill(day(today - 730 * dayMs));
        const months = await shownBy("month");
        expect(await months.getAttribute("data-t")).toBe(new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString());
        expect(await chart.getAttribute("data-total")).toBe("3");
        expect(await offered()).toEqual(["week", "month"]);
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
