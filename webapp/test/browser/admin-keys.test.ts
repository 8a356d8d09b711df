import { beforeAll, describe, expect, test } from "bun:test";
import { browserSetupTimeoutMs, browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { stackAdmin, type WebStack, withoutLocalGeocoder } from "../support/web-stack.ts";
import { useWebStack } from "./support/fixtures.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

describe("the admin page's API keys in a real browser", () => {
  // A stack of the file's own (useWebStack: the admin's table lists every key there is) and the browser;
  // `stack` is read in the tests, set once it is up.
  const web = useWebStack(withoutLocalGeocoder);
  let stack: WebStack;
  let page: Page;
  let problems: string[];
  /** The key the flow makes, as the page showed it once. */
  let shownKey = "";

  const section = () => page.locator("#api-keys");
  const row = (name: string) => page.locator("#keys-body tr", { hasText: name });
  const listingWith = async (key: string) => (await fetch(`${stack.url}/shorten/`, { headers: { authorization: `Bearer ${key}` } })).status;

  beforeAll(async () => {
    stack = web.stack;
    ({ page, problems } = await web.browser.open(`${stack.url}/`));
    expect((await page.request.post(`${stack.url}/admin/session`, { data: stackAdmin })).status()).toBe(200);
    await page.goto(`${stack.url}/app/admin`);
  }, browserSetupTimeoutMs);

  test(
    "signed in, the keys have a section of their own: none yet, and a form with a name, the five scopes and an optional expiry",
    async () => {
      await page.getByRole("heading", { name: "API keys" }).waitFor();
      await section().getByText("No API keys yet.").waitFor();
      expect(await section().getByRole("group", { name: "Scopes" }).getByRole("checkbox").count()).toBe(5);
      for (const label of ["Read links", "Change links", "Make links only", "Read visits", "Admin"])
        expect(await section().getByLabel(label).isChecked()).toBe(false);
      expect(await section().getByLabel("Expires").getAttribute("type")).toBe("datetime-local");
      expect(await page.locator("#key-created").isHidden()).toBe(true);
      await checkPageState(page, "admin-keys-empty");
    },
    flowTimeoutMs,
  );

  test(
    "a missing name or scope is said on its field; the API's refusal of an expiry already past is said on the expiry",
    async () => {
      const create = section().getByRole("button", { name: "Create key" });
      await create.click();
      await page.locator("#key-name-error", { hasText: "Enter a name" }).waitFor();
      expect(await section().getByLabel("Name").getAttribute("aria-invalid")).toBe("true");

      await section().getByLabel("Name").fill("import script");
      await create.click();
      await page.locator("#key-scopes-error", { hasText: "Choose at least one scope." }).waitFor();
      expect(await page.locator("#key-name-error").innerText()).toBe("");
      expect(await section().getByLabel("Read links").getAttribute("aria-invalid")).toBe("true");

      await section().getByLabel("Read links").check();
      await section().getByLabel("Expires").fill("2020-01-01T00:00");
      await create.click();
      await page.locator("#key-expires-error", { hasText: "The expiry is already past." }).waitFor();
      expect(await section().getByLabel("Expires").getAttribute("aria-invalid")).toBe("true");
      expect(await page.evaluate("document.activeElement.id")).toBe("key-expires");
      expect(await section().getByText("No API keys yet.").isVisible()).toBe(true);
      await checkPageState(page, "admin-keys-errors");
    },
    flowTimeoutMs,
  );

  test(
    "a new key is shown once, with a copy button and a plain warning; it works, and is in the table without its text",
    async () => {
      await section().getByLabel("Expires").fill("");
      await section().getByLabel("Read visits").check();
      await section().getByRole("button", { name: "Create key" }).click();

      const shown = page.getByRole("group", { name: "Copy the new key now: you will not see it again" });
      await shown.waitFor();
      expect(await page.evaluate("document.activeElement.id")).toBe("key-created-title");
      shownKey = await shown.getByLabel("New API key").inputValue();
      expect(shownKey).toMatch(/^lgk_[A-Za-z0-9_-]{43}$/);
      expect(await shown.locator("#key-created-name").innerText()).toBe("import script");
      await shown.getByRole("button", { name: "Copy key" }).click();
      await page.locator("#copy-key-status", { hasText: "Copied" }).waitFor();
      expect(await page.evaluate("navigator.clipboard.readText()")).toBe(shownKey);
      // The form is emptied for the next key, its errors gone.
      expect(await section().getByLabel("Name").inputValue()).toBe("");
      expect(await page.locator("#key-expires-error").innerText()).toBe("");

      await row("import script").waitFor();
      const cell = (label: string) => row("import script").locator(`td[data-label="${label}"]`);
      expect({
        name: await cell("Name").innerText(),
        scopes: await cell("Scopes").locator("li").allInnerTexts(),
        expires: await cell("Expires").innerText(),
        lastUsed: await cell("Last used").innerText(),
      }).toEqual({ name: "import script", scopes: ["links:read", "visits:read"], expires: "never", lastUsed: "never" });
      expect(await cell("Created").innerText()).toMatch(/\d{4}/);
      expect(await page.locator("#keys-body").innerText()).not.toContain("lgk_");
      await checkPageState(page, "admin-key-created");
      await page.emulateMedia({ colorScheme: "dark" });
      await checkPageState(page, "admin-key-created-dark");
      await page.emulateMedia({ colorScheme: "light" });

      expect(await listingWith(shownKey)).toBe(200);
      // "I have copied it" puts the key away; a reload never shows it again.
      await shown.getByRole("button", { name: "I have copied it" }).click();
      expect(await page.locator("#key-created").isHidden()).toBe(true);
      expect(await page.locator("#key-value").inputValue()).toBe("");
      await page.reload();
      await row("import script").waitFor();
      expect(await page.locator("#key-created").isHidden()).toBe(true);
      expect(await page.content()).not.toContain(shownKey);
    },
    flowTimeoutMs,
  );

  test(
    "a key with an expiry says when it expires",
    async () => {
      await section().getByLabel("Name").fill("CMS <b>until summer</b>");
      await section().getByLabel("Change links").check();
      await section().getByLabel("Expires").fill("2099-06-30T18:00");
      await section().getByRole("button", { name: "Create key" }).click();
      await page.getByRole("group", { name: "Copy the new key now: you will not see it again" }).waitFor();
      const cms = row("CMS <b>until summer</b>");
      await cms.waitFor();
      expect(await cms.locator('td[data-label="Expires"]').innerText()).toMatch(/2099/);
      expect(await page.locator("#keys-body b").count()).toBe(0);
      // Newest first.
      expect(await page.locator("#keys-body tr td:first-child").allInnerTexts()).toEqual(["CMS <b>until summer</b>", "import script"]);
      const [listed] = ((await (await page.request.get(`${stack.url}/admin/api-keys`)).json()) as { results: Array<Record<string, unknown>> }).results;
      expect(listed).toMatchObject({ name: "CMS <b>until summer</b>", scopes: ["links:write"], expires_at: expect.stringMatching(/^2099-06-30T/) });
      expect(listed).not.toHaveProperty("key");
    },
    flowTimeoutMs,
  );

  test(
    "revoking asks first, in the row; cancelling keeps the key, confirming revokes it and it stops working",
    async () => {
      const target = row("import script");
      await target.getByRole("button", { name: "Revoke import script" }).click();
      const question = target.getByRole("group", { name: "Revoke import script?" });
      await question.waitFor();
      expect(await page.evaluate("document.activeElement.textContent")).toBe("Cancel");
      await checkPageState(page, "admin-key-revoke");

      await page.keyboard.press("Escape");
      await question.waitFor({ state: "detached" });
      expect(await listingWith(shownKey)).toBe(200);

      await target.getByRole("button", { name: "Revoke import script" }).click();
      await target.getByRole("button", { name: "Yes, revoke" }).click();
      await page.getByRole("status").filter({ hasText: "Key import script revoked." }).waitFor();
      await target.waitFor({ state: "detached" });
      expect(await page.locator("#keys-body tr td:first-child").allInnerTexts()).toEqual(["CMS <b>until summer</b>"]);
      // One shortener here, the one that revoked it: it forgets the key at once.
      expect(await listingWith(shownKey)).toBe(401);

      // Chromium logs the API's expected refusals (400 for the past expiry) as console errors.
      expect(unexpectedProblems(problems, [400])).toEqual([]);
    },
    flowTimeoutMs,
  );

  test(
    "signing out forgets the keys on the page",
    async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await page.locator("#keys-body tr").count()).toBe(0);
      expect(await page.locator("#key-value").inputValue()).toBe("");
    },
    flowTimeoutMs,
  );
});
