import { describe, expect, test } from "bun:test";
import { browserTestTimeoutMs } from "@linkgeo/testing/offline-browser";
import type { Locator } from "playwright-core";
import { checkPageState, unexpectedProblems } from "./support/page-states.ts";
import { useSharedWebStack } from "./support/fixtures.ts";
import { result, shorten } from "./support/shorten-flow.ts";
import { viewports, type ViewportName } from "./support/web-browser.ts";

/** A flow that checks some states at two widths. */
const flowTimeoutMs = 2 * browserTestTimeoutMs;

/** Whether a field shows all it holds: nothing scrolled out of it, sideways or down. */
function showsWhole(field: Locator): Promise<boolean> {
  return field.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight + 1);
}

describe.concurrent("the home page's result on a phone: the short link and its token shown whole", () => {
  const web = useSharedWebStack();

  test(
    "the short link of a long alias and the manage token are shown whole at both widths, wrapped rather than cut",
    async () => {
      const alias = `a-long-alias-${crypto.randomUUID().replaceAll("-", "")}`.slice(0, 32);
      const { page, context, problems } = await web.browser.open(`${web.stack.url}/`, "phone");
      try {
        await shorten(page, "example.com/a-long-short-link", alias);
        const { shortLink, token } = await result(page, "https://example.com/a-long-short-link");
        expect(shortLink).toBe(`${web.stack.url}/${alias}/`);
        const shortLinkField = page.locator("#result-url");
        const tokenField = page.locator("#token");
        expect(await tokenField.inputValue()).toBe(token);
        for (const viewport of Object.keys(viewports) as ViewportName[]) {
          await page.setViewportSize(viewports[viewport]);
          expect({ viewport, shortLinkWhole: await showsWhole(shortLinkField) }).toEqual({ viewport, shortLinkWhole: true });
          expect({ viewport, tokenWhole: await showsWhole(tokenField) }).toEqual({ viewport, tokenWhole: true });
          expect(await tokenField.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).textOverflow)).not.toBe("ellipsis");
        }
        await checkPageState(page, "home-result-long-alias");
        expect(unexpectedProblems(problems, [404])).toEqual([]);
      } finally {
        await context.close();
      }
    },
    flowTimeoutMs,
  );
});
