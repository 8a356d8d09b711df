import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { stackAdmin } from "../support/web-stack.ts";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { stackApi } from "./support/stack-api.ts";

/**
 * A code taken on two domains (docs/domains.md) in the web app: the admin's
 * table names the one on another host with its host and opens its own
 * page, and that page reads, changes and deletes that link, never the one
 * of the same code on the page's host.
 */
describe("links on another domain, in a real browser", () => {
  const web = useSharedWebStack();
  const unique = crypto.randomUUID().slice(0, 8);
  const code = `dom-${unique}`;
  const brand = `brand-${unique}.test`;

  const api = stackApi(() => web.stack.url);

  test(
    "the admin's row says the host, its page is that link's: a new destination and the deletion reach it alone",
    async () => {
      const admin = (await api("POST", "/admin/login", stackAdmin)).body.token as string;
      expect((await api("POST", "/admin/domains", { host: brand }, admin)).status).toBe(201);
      expect((await api("POST", "/shorten/", { long_url: "https://example.com/here", short_url: code })).status).toBe(201);
      const branded = await api("POST", "/shorten/", { long_url: "https://brand.example/there", short_url: code, domain: brand });
      expect(branded.body).toMatchObject({ domain: brand, link: `http://${brand}/${code}/` });

      // A code only the brand has: its page is served (the gateway asks about it on its domain), not a 404.
      const only = `${code}-only`;
      expect((await api("POST", "/shorten/", { long_url: "https://brand.example/only", short_url: only, domain: brand })).status).toBe(201);
      expect((await fetch(`${web.stack.url}/app/links/${only}?domain=${brand}`)).status).toBe(200);
      expect((await fetch(`${web.stack.url}/app/links/${only}`)).status).toBe(404);

      const { page } = await web.browser.open(`${web.stack.url}/app/admin?q=${code}`);
      await page.getByLabel("Username").fill(stackAdmin.username);
      await page.getByLabel("Password").fill(stackAdmin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      const brandRow = page.locator(`tr[data-code="${code}"][data-domain="${brand}"]`);
      await brandRow.getByRole("link", { name: `${brand}/${code}`, exact: true }).waitFor();
      await page.locator(`tr[data-code="${only}"]`).waitFor();
      expect(await page.locator(`tr[data-code="${code}"]`).count()).toBe(2);
      expect(await brandRow.getByRole("link", { name: `${brand}/${code}`, exact: true }).getAttribute("href")).toBe(`/app/links/${code}?domain=${brand}`);
      const plainRow = page.locator(`tr[data-code="${code}"]:not([data-domain="${brand}"])`);
      expect(await plainRow.getByRole("link", { name: code, exact: true }).getAttribute("href")).toBe(
        `/app/links/${code}?domain=${new URL(web.stack.url).hostname}`,
      );

      // Its page, as the admin opens it from the row: the brand's link, not the one of the same code here.
      await brandRow.getByRole("link", { name: `${brand}/${code}`, exact: true }).click();
      const destination = page.getByRole("textbox", { name: "New destination" });
      await destination.waitFor();
      expect(await destination.inputValue()).toBe("https://brand.example/there");
      await destination.fill("https://brand.example/moved");
      await page.getByRole("button", { name: "Save destination" }).click();
      await page.getByText("https://brand.example/moved").first().waitFor();
      expect((await api("GET", `/shorten/${code}/?domain=${brand}`)).body.long_url).toBe("https://brand.example/moved");
      expect((await api("GET", `/shorten/${code}/`)).body.long_url).toBe("https://example.com/here");

      await page.getByRole("button", { name: "Delete this link…" }).click();
      await page.locator("#delete-yes").click();
      await page.locator("#link-deleted").waitFor();
      expect((await api("GET", `/shorten/${code}/?domain=${brand}`)).status).toBe(404);
      expect((await api("GET", `/shorten/${code}/`)).status).toBe(200);
    },
    2 * browserTestTimeoutMs,
  );

  test(
    "Your links keeps a brand's link apart from the default domain's of the same code: its own visits, its own page",
    async () => {
      const admin = (await api("POST", "/admin/login", stackAdmin)).body.token as string;
      const host = `saved-${unique}.test`;
      const shared = `${code}-saved`;
      expect((await api("POST", "/admin/domains", { host }, admin)).status).toBe(201);
      expect((await api("POST", "/shorten/", { long_url: "https://example.com/plain", short_url: shared })).status).toBe(201);
      const branded = await api("POST", "/shorten/", { long_url: "https://brand.example/saved", short_url: shared, domain: host });
      expect(branded.status).toBe(201);
      // Three visits on the brand's host, none on the default domain's link of the same code.
      for (let i = 0; i < 3; i++) {
        const visit = await fetch(`${web.stack.url}/${shared}`, { redirect: "manual", headers: { host } });
        expect(visit.status).toBe(302);
      }

      const { page, context, problems } = await web.browser.open(`${web.stack.url}/app/links`);
      try {
        await page.getByRole("textbox", { name: "Manage token" }).fill(branded.body.manage_token);
        await page.getByRole("button", { name: "Add link" }).click();
        const row = page.locator(`li[data-code="${shared}"]`);
        await row.locator(".count", { hasText: "3 visits" }).waitFor();
        const title = row.getByRole("link", { name: new RegExp(`^${host}/${shared}/`) });
        expect(await title.getAttribute("href")).toBe(`/app/links/${shared}?domain=${host}`);
        expect(await row.getByRole("button", { name: `Copy ${host}/${shared}` }).count()).toBe(1);

        // Its page reads the brand's link with the token saved for it: its visits, without asking.
        await title.click();
        await page.locator("#chart svg").waitFor();
        expect(await page.getByRole("textbox", { name: "New destination" }).inputValue()).toBe("https://brand.example/saved");
        // The default domain's link of the same code is not this browser's: its page asks for a token.
        await page.goto(`${web.stack.url}/app/links/${shared}`);
        await page.getByRole("textbox", { name: "Manage token" }).waitFor();
        expect(unexpectedProblems(problems, [401])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    2 * browserTestTimeoutMs,
  );
});

describe("the admin page's domains, in a real browser", () => {
  const web = useSharedWebStack();
  const unique = crypto.randomUUID().slice(0, 8);

  test(
    "adds a domain in its one spelling, says why a host is refused, and deletes one with its links only after asking again",
    async () => {
      const { page } = await web.browser.open(`${web.stack.url}/app/admin`);
      await page.getByLabel("Username").fill(stackAdmin.username);
      await page.getByLabel("Password").fill(stackAdmin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      const panel = page.locator("#domains");
      await panel.locator("tr[data-domain-id='0']").waitFor();

      await panel.getByLabel("Host").fill("https://nope.example/");
      await panel.getByRole("button", { name: "Add domain" }).click();
      await panel.locator("#domain-host-error").filter({ hasText: "The host must be a host name alone" }).waitFor();
      expect(await panel.getByLabel("Host").getAttribute("aria-invalid")).toBe("true");

      const host = `panel-${unique}.test`;
      await panel.getByLabel("Host").fill(`Panel-${unique}.TEST`);
      await panel.getByLabel("Address for unknown links").fill("https://example.com/nothing-here");
      await panel.getByRole("button", { name: "Add domain" }).click();
      await panel
        .getByRole("status")
        .filter({ hasText: `Domain ${host} added` })
        .waitFor();
      const row = panel.locator("tr", { has: page.getByRole("cell", { name: host, exact: true }) });
      await row.getByRole("cell", { name: "https://example.com/nothing-here" }).waitFor();
      await checkPageState(page, "admin-domains");

      // A link on it: deleting the domain asks again, naming its links, and takes them with it.
      const made = await fetch(`${web.stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: "https://example.com/on-panel", domain: host }),
      });
      const link = (await made.json()) as { short_url: string };
      await row.getByRole("button", { name: `Delete ${host}` }).click();
      await row.getByRole("button", { name: "Yes, delete", exact: true }).click();
      await row.getByText(`${host} has links.`).waitFor();
      await row.getByRole("button", { name: "Yes, delete it and its links" }).click();
      await panel
        .getByRole("status")
        .filter({ hasText: `Domain ${host} deleted, with its links.` })
        .waitFor();
      await row.waitFor({ state: "detached" });
      expect((await fetch(`${web.stack.url}/shorten/${link.short_url}/?domain=${host}`)).status).toBe(404);
    },
    2 * browserTestTimeoutMs,
  );
});
