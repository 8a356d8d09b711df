import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runChromium } from "@linkgeo/testing/offline-browser";
import type { BrowserContext, Download, Page, Request } from "playwright-core";

/** Where every page is screenshotted, at each width, for a reviewer to look at (git-ignored). */
export const screenshotDir = join(import.meta.dir, "..", "screenshots");

/** A desktop and a phone (iPhone SE/mini width). */
export const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 740 } } as const;
export type ViewportName = keyof typeof viewports;

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /**
   * Script errors, console errors (a CSP refusal is one), failed or refused
   * requests and any request to another origin, collected since the page opened.
   */
  problems: string[];
}

export interface OpenOptions {
  /** False: a profile whose pages run no script, as with scripts blocked. */
  javaScript?: boolean;
  /** The system's colour scheme the profile reports (`prefers-color-scheme`); light unless said. */
  colorScheme?: "light" | "dark";
  /**
   * Playwright's clock installed before the first navigation: time flows as
   * usual, and a test may jump it forward (`page.clock.fastForward`) instead
   * of waiting for a page's timer.
   */
  clock?: boolean;
}

export interface WebBrowser extends AsyncDisposable {
  /** A new browser profile (own cookies and localStorage) on `url`, at a viewport. */
  open(url: string, viewport?: ViewportName, options?: OpenOptions): Promise<OpenedPage>;
}

/**
 * A file's use of the run's headless Chromium with no internet
 * (`runChromium`): each `open` is a fresh profile, and disposing it closes
 * every profile it opened, leaving the browser to the next file.
 */
export async function launchWebBrowser(): Promise<WebBrowser> {
  const browser = await runChromium();
  const contexts = new Set<BrowserContext>();
  return {
    async open(url, viewport = "desktop", { javaScript = true, colorScheme = "light", clock = false } = {}) {
      const context = await browser.newContext({
        viewport: viewports[viewport],
        permissions: ["clipboard-read", "clipboard-write"],
        javaScriptEnabled: javaScript,
        colorScheme,
      });
      contexts.add(context);
      if (clock) await context.clock.install();
      const page = await context.newPage();
      const problems = watchProblems(page, new URL(url).origin);
      await page.goto(url);
      return { page, context, problems };
    },
    async [Symbol.asyncDispose]() {
      await Promise.all([...contexts].map((context) => context.close().catch(() => {})));
    },
  };
}

/** A download's bytes, read through Playwright's connection: the browser runs in the run's host, and its files are not this process's to open. */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The same page in a new profile of the same browser, for a second visitor. */
export async function openAs(opened: OpenedPage, url: string): Promise<OpenedPage> {
  const page = await opened.context.newPage();
  const problems = watchProblems(page, new URL(url).origin);
  await page.goto(url);
  return { page, context: opened.context, problems };
}

/** The requests each opened page has in flight (from before its first navigation). */
const inFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page): void {
  const requests = new Set<Request>();
  inFlight.set(page, requests);
  page.on("request", (request) => requests.add(request));
  page.on("requestfinished", (request) => requests.delete(request));
  page.on("requestfailed", (request) => requests.delete(request));
}

/**
 * Waits until an opened page has no request in flight and starts none in
 * its next frame and task: what it asked for as it loaded is answered and
 * drawn. (Playwright's "networkidle" waits for 500 ms of quiet instead, on
 * every page.) Request events and evaluate's answer come in order on one
 * connection, so a request the page starts before that frame is seen.
 */
export async function requestsSettled(page: Page): Promise<void> {
  const requests = inFlight.get(page);
  if (!requests) throw new Error("requestsSettled: the page was not opened by the web browser's open()");
  for (;;) {
    if (requests.size > 0) {
      await new Promise<void>((resolve) => {
        const check = () => {
          if (requests.size > 0) return;
          page.off("requestfinished", check);
          page.off("requestfailed", check);
          resolve();
        };
        page.on("requestfinished", check);
        page.on("requestfailed", check);
      });
    }
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))");
    if (requests.size === 0) return;
  }
}

export function watchProblems(page: Page, origin: string): string[] {
  trackRequests(page);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("requestfailed", (request) => {
    // A navigation away (following a short link to an offline host) cancels what the page was loading.
    if (request.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on("request", (request) => {
    const target = new URL(request.url());
    if (target.protocol.startsWith("http") && target.origin !== origin && request.isNavigationRequest() === false)
      problems.push(`request to another origin: ${request.url()}`);
  });
  return problems;
}

export interface AccessibilityViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's check of the page as it is now, keeping only serious and
 * critical violations. axe is evaluated through the debugging protocol, which
 * the page's Content Security Policy does not govern: the policy stays on.
 * A navigation drops it, and the next check gives it again.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  // Once per document: a state checked at both widths and in both themes is given axe's 650 KB of script once.
  if (await page.evaluate(`typeof axe === "undefined"`)) await page.evaluate(axeSource);
  // A string, evaluated in the page: this file is type-checked without the DOM's types.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact || "unknown", help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) })))`)) as AccessibilityViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Screenshots are for a person reviewing the pages, not for the checks: taken only with WEB_SCREENSHOTS=1. */
const screenshotsWanted = process.env.WEB_SCREENSHOTS === "1";

/** With WEB_SCREENSHOTS=1, saves the whole page as `<name>-<width>.png` in `screenshotDir`; otherwise nothing. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  mkdirSync(screenshotDir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`), fullPage: true });
}

/** True when the page's content is wider than its viewport (a phone would scroll sideways). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return (await page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth + 1")) as boolean;
}
