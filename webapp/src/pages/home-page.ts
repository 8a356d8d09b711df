import { latestLinksView } from "../components/latest-links/view.ts";
import { shortenFormView, type SentShortenForm } from "../components/shorten-form/view.ts";
import { shortenResultView } from "../components/shorten-result/view.ts";
import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

export type { SentShortenForm } from "../components/shorten-form/view.ts";

/**
 * Shorten a URL (shorten-form), see the result once (shorten-result: short
 * link, QR code, manage token), and the latest links this browser keeps
 * (latest-links; all of them are on the Your links page). client/home.ts
 * mounts the three.
 *
 * The shorten form posts too (it may carry a link's password): sent by the
 * browser itself, the gateway answers with this page again, `sent` filled in
 * (but the password) and a note that shortening needs the script, so
 * nothing typed is lost and nothing lands in an address.
 */
export function homePage(sent?: SentShortenForm): Page {
  return {
    title: "Shorten a URL",
    current: "home",
    script: "home",
    main: html`<h1>Shorten a URL</h1>
${shortenFormView(sent)}
${shortenResultView()}
${latestLinksView()}`,
  };
}
