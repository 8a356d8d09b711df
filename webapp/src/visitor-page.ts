import { disabledPage, gonePage, quarantinedPage, unlockPage } from "./pages/link-visitor-pages.ts";
import { notFoundPage } from "./pages/not-found-page.ts";
import type { Page } from "./page-shell.ts";

/**
 * The header by which the shortener names the HTML page it answers a visitor
 * with instead of a redirect (shortener/src/links/visitor-pages.ts). It is
 * meant for the gateway only: the gateway drops it from every answer.
 */
export const linkPageHeader = "link-page";

const pages: Record<string, { status: number; page: () => Page }> = {
  "not-found": { status: 404, page: () => notFoundPage("link", "visitor") },
  gone: { status: 410, page: gonePage },
  disabled: { status: 410, page: disabledPage },
  quarantined: { status: 451, page: quarantinedPage },
  unlock: { status: 401, page: () => unlockPage(false) },
  "wrong-password": { status: 401, page: () => unlockPage(true) },
};

/**
 * The web app's own version of the page the shortener answered a visitor
 * with (a browser following or unlocking a short link), or undefined when the
 * answer is not such a page: a redirect, JSON for an API client, or a page
 * whose name and status do not agree. A 404 page without the header (a
 * shortener older than it) is still the link's not-found page.
 */
export function visitorPageOf(response: Response): Page | undefined {
  if (!response.headers.get("content-type")?.startsWith("text/html")) return undefined;
  const name = response.headers.get(linkPageHeader) ?? (response.status === 404 ? "not-found" : "");
  const known = Object.hasOwn(pages, name) ? pages[name] : undefined;
  return known && known.status === response.status ? known.page() : undefined;
}
