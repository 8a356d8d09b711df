import { html, type SafeHtml } from "../../html.ts";
import { tryAgainParts as ui } from "./parts.ts";

/**
 * The panel of a service that is down or slow. With `upstream` known, its
 * script (script.ts) asks every `retryAfterSeconds` whether it answers again
 * and then loads the page again; without it, or without scripts, the panel
 * says when to try and offers the link.
 */
export function tryAgainPanel(retryAfterSeconds: number, upstream: string | undefined): SafeHtml {
  const when = `every ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`;
  const status =
    upstream === undefined
      ? html`<p>Try again in a moment.</p>`
      : html`<p id="try-again-status" role="status" ${ui.mark("status")}>This page checks ${when} and loads again once the service answers.</p>`;
  return html`<section id="try-again" class="panel narrow" aria-labelledby="try-again-heading" data-upstream="${upstream ?? ""}" data-retry-after="${String(retryAfterSeconds)}">
<h1 id="try-again-heading">This service is not available right now</h1>
<p>It could not be reached, or did not answer in time. Nothing you did caused it.</p>
${status}
<p><a class="button" href="">Try again now</a> <button type="button" id="try-again-stop" class="secondary" ${ui.mark("stop")} hidden>Stop checking</button></p>
</section>`;
}
