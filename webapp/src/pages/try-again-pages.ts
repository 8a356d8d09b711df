import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/**
 * What a person sees when the service behind the gateway is down or slow
 * (502, 503, 504): its script (client/try-again.ts) asks the gateway every
 * `retryAfterSeconds` whether `upstream` answers again and then loads the
 * page again. Not a meta refresh: a person must be able to stop it (WCAG
 * 2.2.1), and a reload would be one more visit of a short link each time.
 */
export function unavailablePage(status: 502 | 503 | 504, retryAfterSeconds: number, upstream: string | undefined): Page {
  const when = `every ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`;
  return {
    title: "Not available right now",
    status,
    script: upstream === undefined ? undefined : "try-again",
    main: html`<section id="try-again" class="panel narrow" aria-labelledby="try-again-heading" data-upstream="${upstream ?? ""}" data-retry-after="${String(retryAfterSeconds)}">
<h1 id="try-again-heading">This service is not available right now</h1>
<p>It could not be reached, or did not answer in time. Nothing you did caused it.</p>
${upstream === undefined ? html`<p>Try again in a moment.</p>` : html`<p id="try-again-status" role="status">This page checks ${when} and loads again once the service answers.</p>`}
<p><a class="button" href="">Try again now</a> <button type="button" id="try-again-stop" class="secondary" hidden>Stop checking</button></p>
</section>`,
  };
}

/** Too many requests from this browser's address (429): when it may ask again. */
export function rateLimitedPage(retryAfterSeconds: number): Page {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const when = retryAfterSeconds < 120 ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}` : `${minutes} minutes`;
  return {
    title: "Too many requests",
    status: 429,
    main: html`<section class="panel narrow" aria-labelledby="rate-limited-heading">
<h1 id="rate-limited-heading">Too many requests</h1>
<p>This address has asked for many pages in a short time. Try again in ${when}.</p>
<p><a class="button" href="/">Go to the home page</a></p>
</section>`,
  };
}
