import { chromium } from "playwright-core";
import { installDebianPackageIfMissing } from "./debian-package.ts";
import { forTheRun } from "./for-the-run.ts";
import { type Hosted, hostedForTheRun } from "./run-host.ts";

/**
 * Debian's build of Chromium's headless shell (package chromium-headless-shell):
 * what Playwright itself runs for headless tests, the same Blink and V8 as
 * Debian's /usr/bin/chromium without the desktop browser around them, at
 * half its CPU per page here. Playwright's own browser download cannot work
 * here (no internet, only Debian's packages). TEST_CHROMIUM=/usr/bin/chromium
 * runs the suites in the full browser instead (it must be installed).
 */
const headlessShellPath = "/usr/bin/chromium-headless-shell";
const chromiumPath = process.env.TEST_CHROMIUM || headlessShellPath;

/** For the tests that drive the browser: Swagger UI's 1.7 MB bundle takes seconds to run on a loaded 2-core machine. */
export const browserTestTimeoutMs = 60_000;

/** For the hook that launches it: on a fresh machine that includes installing Chromium with apt-get. */
export const browserSetupTimeoutMs = 600_000;

/** What the API page showed once Swagger UI had rendered, and what it took to get there. */
export interface RenderedDocsPage {
  /** The browser tab's title. */
  title: string;
  /** Every operation the page lists, as "GET /path", once each, sorted. */
  operations: string[];
  /** Every URL the page asked for, in order. */
  requests: string[];
  /** Failed requests, script errors and console errors (a CSP refusal is one). */
  problems: string[];
}

export interface OfflineBrowser extends AsyncDisposable {
  /** Opens the API page at `url` (on 127.0.0.1) and waits until it lists operations, or `timeoutMs` passes. */
  renderDocsPage(url: string, timeoutMs?: number): Promise<RenderedDocsPage>;
}

/** What Chromium is started with: every host name but 127.0.0.1 fails to resolve, and no QUIC. */
const offlineArgs = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--disable-quic"];

function installedChromium(): string {
  if (chromiumPath === headlessShellPath) installDebianPackageIfMissing(headlessShellPath, "chromium-headless-shell");
  return chromiumPath;
}

/**
 * The run's Chromium as its host keeps it (run-host.ts): a browser server
 * that the test files of every process connect to. Offline: every host name
 * but 127.0.0.1 fails to resolve, so a page that needs a CDN breaks here as
 * it would for an operator offline, instead of quietly fetching it.
 */
export async function hostedChromium(): Promise<Hosted<{ wsEndpoint: string }>> {
  const server = await chromium.launchServer({ executablePath: installedChromium(), args: offlineArgs });
  let running = true;
  server.process().once("exit", () => {
    running = false;
  });
  return { description: { wsEndpoint: server.wsEndpoint() }, usable: () => running, [Symbol.asyncDispose]: () => server.close() };
}

const askForChromium = hostedForTheRun<{ wsEndpoint: string }>({ module: import.meta.path, exportName: "hostedChromium" });

/**
 * The run's one offline Chromium: launched by the run's host for the first
 * file that asks, in whichever process (`bun test --parallel` has several),
 * closed after the last, launched again if it crashed. This process connects
 * to it once (`forTheRun`); a file opens its own contexts in it and closes
 * them, and never closes the browser.
 */
export const runChromium = forTheRun(
  async () => {
    const browser = await chromium.connect((await askForChromium()).wsEndpoint);
    return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
  },
  (browser) => browser.isConnected(),
);

/** The API page (Swagger UI) as an operator offline would see it, in the run's browser (`runChromium`). */
export async function launchOfflineBrowser(): Promise<OfflineBrowser> {
  const browser = await runChromium();

  return {
    // Swagger UI reads the whole spec before it lists anything: in a run whose browser files share the machine
    // (every-page's 24 pages at once) that took past 15 s once in CI. The wait ends as soon as the list shows.
    async renderDocsPage(url, timeoutMs = 40_000) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const requests: string[] = [];
        const problems: string[] = [];
        page.on("request", (request) => requests.push(request.url()));
        page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
        page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(`console: ${message.text()}`);
        });

        await page.goto(url);
        // Swagger UI lists operations once it has fetched and read the spec; a
        // page that never does is reported with no operations, not as a timeout.
        await page.waitForSelector(".swagger-ui .opblock", { timeout: timeoutMs }).catch(() => problems.push(`no operation shown within ${timeoutMs} ms`));
        const operations = await page.$$eval(".swagger-ui .opblock", (blocks) =>
          blocks.map((block) => {
            const method = block.querySelector(".opblock-summary-method")?.textContent?.trim() ?? "?";
            const path = block.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "?";
            return `${method} ${path}`;
          }),
        );
        return { title: await page.title(), operations: [...new Set(operations)].sort(), requests, problems };
      } finally {
        await context.close();
      }
    },
    // Each page's context is closed as it is rendered; the browser is the run's.
    [Symbol.asyncDispose]: async () => {},
  };
}
