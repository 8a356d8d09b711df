import { noticePanel } from "../components/notice-panel/view.ts";
import type { Audience, Page } from "../page-shell.ts";

/**
 * What a person sees for a short link that does not exist, or a page that
 * does not, or the root of a domain that sets no root URL (`root`: its home
 * is no one's, so the page offers no way on). `audience`: "visitor" for an
 * address anyone may have followed (a short link, a path the gateway has
 * no page for), "app" for a page under /app/, reached from the app's own
 * pages.
 */
export function notFoundPage(what: "link" | "page" | "root", audience: Audience): Page {
  const main =
    what === "link"
      ? noticePanel({
          heading: "This short link does not exist",
          says: ["It may have been deleted, or the address was mistyped. Check the address, or make a new short link."],
          action: { href: "/", label: "Shorten a URL" },
        })
      : what === "root"
        ? noticePanel({ heading: "Page not found", says: ["There is no page at this address: each short link here has an address of its own."] })
        : noticePanel({ heading: "Page not found", says: ["There is no page at this address."], action: { href: "/", label: "Go to the home page" } });
  return { title: what === "link" ? "Link not found" : "Page not found", audience, main, status: 404 };
}
