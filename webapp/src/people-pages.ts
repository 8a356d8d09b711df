import { prefersHtml } from "@linkgeo/shared";
import { renderPage, type Page } from "./page-shell.ts";
import { notFoundPage } from "./pages/not-found-page.ts";
import { rateLimitedPage, unavailablePage } from "./pages/try-again-pages.ts";
import type { WebAssets } from "./web-assets.ts";

/** How long a person's page waits before it asks again for a service that did not answer, when nothing says otherwise. */
export const unavailableRetrySeconds = 5;

/** The answer's headers a page keeps: when to come back, and what to quote when asking for help. */
const keptHeaders = ["retry-after", "x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"];

/**
 * HTML for people, JSON for programs: an error answer the gateway gives a
 * browser's navigation (GET or HEAD whose Accept names text/html) becomes
 * the web app's page for it, with the same status, `Retry-After` and
 * request id; any other request keeps the JSON body of the API. Pages for
 * an unknown path (404), too many requests (429) and a service that is
 * down or slow (502, 503, 504: `Retry-After` added when it had none; the
 * page checks every so often whether `upstream` answers again and then
 * loads itself again).
 */
export function pageForPerson(assets: WebAssets, request: Request, answer: Response, upstream: string | undefined): Response {
  if ((request.method !== "GET" && request.method !== "HEAD") || !prefersHtml(request.headers.get("accept"))) return answer;
  const retryAfter = Number(answer.headers.get("retry-after") ?? unavailableRetrySeconds);
  const seconds = Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : unavailableRetrySeconds;
  const page = pageFor(answer.status, seconds, upstream);
  if (!page) return answer;
  void answer.body?.cancel();
  const rendered = renderPage(assets, page);
  for (const name of keptHeaders) {
    const value = answer.headers.get(name);
    if (value !== null) rendered.headers.set(name, value);
  }
  if (answer.status === 429 || answer.status >= 502) rendered.headers.set("retry-after", String(seconds));
  return rendered;
}

function pageFor(status: number, retryAfterSeconds: number, upstream: string | undefined): Page | undefined {
  if (status === 404) return notFoundPage("page", "visitor");
  if (status === 429) return rateLimitedPage(retryAfterSeconds);
  if (status === 502 || status === 503 || status === 504) return unavailablePage(status, retryAfterSeconds, upstream);
  return undefined;
}
