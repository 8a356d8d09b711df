import type { Page } from "playwright-core";

/** Opens "Customize", where the alias waits, unless it is open. */
export async function customize(page: Page): Promise<void> {
  if ((await page.locator("#customize").getAttribute("open")) === null) await page.locator("#customize > summary").click();
}

/** Shortens `longUrl` on the home page, with `alias` when given (or clearing one left in an open Customize). */
export async function shorten(page: Page, longUrl: string, alias?: string): Promise<void> {
  await page.getByLabel("URL to shorten").fill(longUrl);
  if (alias !== undefined || (await page.locator("#customize").getAttribute("open")) !== null) {
    await customize(page);
    await page.getByLabel(/Custom alias/).fill(alias ?? "");
  }
  await page.getByRole("button", { name: "Shorten" }).click();
}

/** Waits for the result of shortening `longUrl` and returns what it shows. */
export async function result(page: Page, longUrl: string): Promise<{ shortLink: string; code: string; token: string }> {
  await page.locator("#result-destination").getByText(longUrl, { exact: true }).waitFor();
  const shortLink = await page.locator("#result-url").inputValue();
  return { shortLink, code: shortLink.split("/").at(-2)!, token: await page.locator("#token").inputValue() };
}
