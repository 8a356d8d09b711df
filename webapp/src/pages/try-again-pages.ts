import { noticePanel } from "../components/notice-panel/view.ts";
import { tryAgainPanel } from "../components/try-again/view.ts";
import type { Page } from "../page-shell.ts";

/**
 * What a person sees when the service behind the gateway is down or slow
 * (502, 503, 504): its script (components/try-again) asks the gateway every
 * `retryAfterSeconds` whether `upstream` answers again and then loads the
 * page again. Not a meta refresh: a person must be able to stop it (WCAG
 * 2.2.1), and a reload would be one more visit of a short link each time.
 * Anyone may get it, a short link's visitor first: the brand only.
 */
export function unavailablePage(status: 502 | 503 | 504, retryAfterSeconds: number, upstream: string | undefined): Page {
  return {
    title: "Not available right now",
    audience: "visitor",
    status,
    script: upstream === undefined ? undefined : "try-again",
    main: tryAgainPanel(retryAfterSeconds, upstream),
  };
}

/** Too many requests from this browser's address (429): when it may ask again. */
export function rateLimitedPage(retryAfterSeconds: number): Page {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const when = retryAfterSeconds < 120 ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}` : `${minutes} minutes`;
  return {
    title: "Too many requests",
    audience: "visitor",
    status: 429,
    main: noticePanel({
      heading: "Too many requests",
      says: [`This address has asked for many pages in a short time. Try again in ${when}.`],
      action: { href: "/", label: "Go to the home page" },
    }),
  };
}
