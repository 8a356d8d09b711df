import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import { stackAdmin } from "../support/web-stack.ts";
import { checkPageState } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { stackApi } from "./support/stack-api.ts";

/**
 * The admin page's reports queue (docs/abuse.md): a link people reported
 * shows with why, where it leads and who made it; each action is one
 * click, done at once, and the link's reports leave the queue.
 */
describe("the admin page's reports queue, in a real browser", () => {
  const web = useSharedWebStack();
  const unique = crypto.randomUUID().slice(0, 8);

  const api = stackApi(() => web.stack.url);

  test(
    "shows each report with its link and maker; quarantine and dismiss are one click, and the row goes",
    async () => {
      const admin = (await api("POST", "/admin/login", stackAdmin)).body.token as string;
      const key = (await api("POST", "/admin/api-keys", { name: `maker-${unique}`, scopes: ["links:create"] }, admin)).body;
      const phish = `phish-${unique}`;
      const fine = `fine-${unique}`;
      expect((await api("POST", "/shorten/", { long_url: `https://login.${unique}.example/`, short_url: phish }, key.key)).status).toBe(201);
      expect((await api("POST", "/shorten/", { long_url: "https://example.com/fine", short_url: fine })).status).toBe(201);
      expect((await api("POST", "/report", { short_url: phish, reason: "phishing", note: "asks for a bank password" })).status).toBe(202);
      expect((await api("POST", "/report", { short_url: `${web.stack.url}/${fine}`, reason: "spam" })).status).toBe(202);

      const { page } = await web.browser.open(`${web.stack.url}/app/admin`);
      await page.getByLabel("Username").fill(stackAdmin.username);
      await page.getByLabel("Password").fill(stackAdmin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      const panel = page.locator("#reports");
      const phishRow = panel.locator("tr", { hasText: phish });
      await phishRow.getByText("asks for a bank password").waitFor();
      expect(await phishRow.textContent()).toContain(`https://login.${unique}.example/`);
      expect(await phishRow.textContent()).toContain(`key ${key.id}`);
      const fineRow = panel.locator("tr", { hasText: fine });
      // A link no key made offers no key to revoke.
      expect(await fineRow.getByRole("button", { name: /^Revoke key/ }).count()).toBe(0);
      await checkPageState(page, "admin-reports");

      await phishRow.getByRole("button", { name: /^Quarantine/ }).click();
      await panel.getByRole("status").filter({ hasText: "quarantined" }).waitFor();
      await phishRow.waitFor({ state: "detached" });
      expect((await fetch(`${web.stack.url}/${phish}`, { redirect: "manual" })).status).toBe(451);

      await fineRow.getByRole("button", { name: /^Dismiss/ }).click();
      await panel.getByRole("status").filter({ hasText: "the report is dismissed" }).waitFor();
      await fineRow.waitFor({ state: "detached" });
      expect((await fetch(`${web.stack.url}/${fine}`, { redirect: "manual" })).status).toBe(302);
    },
    2 * browserTestTimeoutMs,
  );
});
