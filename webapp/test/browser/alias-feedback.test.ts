import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Page } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { customize } from "./support/shorten-flow.ts";
import { typingPauseMs } from "../../src/client/lib/typing-pause.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** What the alias field says now, but its standing hint: the check's status and the error, each when it says something. */
async function aliasMessages(page: Page): Promise<string[]> {
  const said = await page.locator("#alias-status, #alias-error").allInnerTexts();
  return said.map((text) => text.trim()).filter((text) => text !== "");
}

/** One message about the alias at a time, and the standing hint never said again. */
async function expectSaidOnce(page: Page): Promise<string | undefined> {
  const messages = await aliasMessages(page);
  expect(messages.length).toBeLessThanOrEqual(1);
  const hint = await page.locator("#alias-hint").innerText();
  for (const message of messages) expect(message).not.toBe(hint);
  return messages[0];
}

describe.concurrent("the alias field says one thing at a time, and forgets it as the alias changes", () => {
  const web = useSharedWebStack();

  test(
    "a reserved word is said to be one while typed, without asking the API, and once on Shorten; a new alias clears it",
    async () => {
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "desktop", { clock: true });
      try {
        const checks: string[] = [];
        page.on("request", (request) => {
          if (request.url().includes("/stats")) checks.push(new URL(request.url()).pathname);
        });
        await customize(page);
        const alias = page.getByLabel(/Custom alias/);
        // Any case: the shortener compares them without it.
        await alias.fill("Admin");
        await page.clock.fastForward(typingPauseMs);
        await page.locator("#alias-status", { hasText: "reserved" }).waitFor();
        expect(await expectSaidOnce(page)).toBe("“Admin” is a reserved word: the service uses it for its own pages. Choose another alias.");
        expect(checks).toEqual([]);
        await checkPageState(page, "home-alias-reserved");

        // Refused on Shorten before anything is sent, said once, on the field.
        await page.getByLabel("URL to shorten").fill("example.com/reserved");
        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#alias-error", { hasText: "reserved" }).waitFor();
        expect(await expectSaidOnce(page)).toBe("“Admin” is a reserved word: the service uses it for its own pages. Choose another alias.");
        expect(await alias.getAttribute("aria-invalid")).toBe("true");
        expect(await page.evaluate("document.activeElement.id")).toBe("alias");

        // Another alias: what was said of the old one goes at once, and the new one is checked.
        await alias.fill("Admin-page");
        expect(await aliasMessages(page)).toEqual([]);
        expect(await alias.getAttribute("aria-invalid")).toBeNull();
        await page.clock.fastForward(typingPauseMs);
        await page.locator("#alias-status", { hasText: "No link has “Admin-page” yet." }).waitFor();
        expect(await expectSaidOnce(page)).toBe("No link has “Admin-page” yet.");
        expect(unexpectedProblems(problems, [404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );

  test(
    "a taken alias is said once: by the check while typed, then by the refusal on Shorten in its place; free variants stay to pick",
    async () => {
      const taken = `taken-${crypto.randomUUID().slice(0, 8)}`;
      const made = await fetch(`${web.stack.url}/shorten/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ long_url: "https://example.com/taken", short_url: taken }),
      });
      expect(made.status).toBe(201);
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "phone", { clock: true });
      try {
        await customize(page);
        const alias = page.getByLabel(/Custom alias/);
        await alias.fill(taken);
        await page.clock.fastForward(typingPauseMs);
        await page.getByRole("button", { name: `Use ${taken}-2` }).waitFor();
        expect(await expectSaidOnce(page)).toBe(`“${taken}” is taken.`);

        await page.getByLabel("URL to shorten").fill("example.com/taken-again");
        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#alias-error", { hasText: "Choose another alias." }).waitFor();
        expect(await expectSaidOnce(page)).toBe(`The alias "${taken}" is already taken. Choose another alias.`);
        expect(await page.getByRole("button", { name: `Use ${taken}-2` }).isVisible()).toBe(true);
        await checkPageState(page, "home-alias-taken-refused");

        // One more character: the refusal was about the old alias, and goes with it.
        await alias.press("End");
        await alias.press("x");
        expect(await aliasMessages(page)).toEqual([]);
        expect(await page.getByRole("button", { name: /^Use / }).count()).toBe(0);
        expect(await alias.getAttribute("aria-invalid")).toBeNull();

        // A malformed alias says what is wrong with it, not the hint again.
        await alias.fill("no spaces please");
        await page.getByRole("button", { name: "Shorten" }).click();
        await page.locator("#alias-error", { hasText: "An alias cannot have spaces." }).waitFor();
        await expectSaidOnce(page);
        expect(unexpectedProblems(problems, [404, 409])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
