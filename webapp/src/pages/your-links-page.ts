import { bringLinksView } from "../components/bring-links/view.ts";
import { yourLinksView } from "../components/your-links/view.ts";
import { html } from "../html.ts";
import type { Page } from "../page-shell.ts";

/**
 * Every link this browser keeps (your-links: searched, sorted, paged, each
 * with its copy button, QR code, state and visits; downloaded as a file with
 * their tokens), and links brought from another browser or by a manage
 * token (bring-links). client/links.ts mounts both. The links live in this
 * browser's storage, which only the script can read.
 */
export const yourLinksPage: Page = {
  title: "Your links",
  current: "links",
  script: "links",
  main: html`<h1>Your links</h1>
<p class="lead">The links made in this browser, with their manage tokens. They are kept in this browser only: clearing its data forgets them, so download them to keep them or to move them to another browser.</p>
<noscript><p class="message error">Your links are kept in this browser by the page's script: turn on JavaScript to see them or to add one.</p></noscript>
${yourLinksView()}
${bringLinksView()}`,
};
