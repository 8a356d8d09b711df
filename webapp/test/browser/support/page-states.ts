import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { overflowsHorizontally, screenshot, seriousAccessibilityViolations, viewports, type ViewportName } from "./web-browser.ts";

/**
 * Checks a state a flow has reached (a result, a refusal, an open menu):
 * no serious axe violation at the desktop width, where every part of the
 * page is shown, and no sideways scroll at either width; with
 * WEB_SCREENSHOTS=1 it is screenshotted at both as `<name>-<width>.png`.
 * The page is resized, not reopened, so the state is kept; it ends at the
 * desktop width. Axe at both widths is every-page.test.ts's, for every page
 * (the phone's menu open): a flow pays for axe once per state.
 *
 * A page opened with scripts blocked gets the width check only: axe, like
 * the wait for charts, needs timers, and such a page never fires one.
 */
export async function checkPageState(page: Page, name: string, { scriptsBlocked = false } = {}): Promise<void> {
  for (const viewport of Object.keys(viewports) as ViewportName[]) {
    await page.setViewportSize(viewports[viewport]);
    if (!scriptsBlocked) {
      // Charts are drawn at the width they are shown at: wait, frame by frame, until those
      // shown have been redrawn. (Evaluated through the debugging protocol, as the page's
      // CSP refuses the eval a string given to waitForFunction needs.)
      await page.evaluate(`new Promise((resolve) => {
        const redrawn = () => [...document.querySelectorAll("svg.chart")].every((svg) => {
          const shown = svg.parentElement.clientWidth;
          return shown === 0 || Math.abs(svg.viewBox.baseVal.width - shown) <= 1;
        });
        const check = () => (redrawn() ? resolve() : requestAnimationFrame(check));
        check();
      })`);
      if (viewport === "desktop")
        expect({ name, viewport, violations: await seriousAccessibilityViolations(page) }).toEqual({ name, viewport, violations: [] });
    }
    expect({ name, viewport, overflows: await overflowsHorizontally(page) }).toEqual({ name, viewport, overflows: false });
    await screenshot(page, name);
  }
  await page.setViewportSize(viewports.desktop);
}

/**
 * The page's problems but those a test expects: Chromium logs every API
 * answer of `statuses` (a 404 for a deleted link, a 401 without a session)
 * as a console error.
 */
export function unexpectedProblems(problems: readonly string[], statuses: number[] = []): string[] {
  return problems.filter(
    (problem) => !statuses.some((status) => problem.startsWith(`console: Failed to load resource: the server responded with a status of ${status} `)),
  );
}
