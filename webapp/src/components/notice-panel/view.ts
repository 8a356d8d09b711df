import { html, type SafeHtml } from "../../html.ts";

export interface Notice {
  heading: string;
  /** Its sentences, each a paragraph. */
  says: readonly string[];
  /** The one way on: a button-like link; none where there is no way on (a domain's root without a page). */
  action?: { href: string; label: string };
}

/**
 * A page's one message, in a narrow panel: what happened, why, and where to
 * go from here (a link gone, unknown, refused for now). Plain HTML, no
 * script: it reads the same with scripts blocked.
 */
export function noticePanel(notice: Notice): SafeHtml {
  return html`<section class="panel narrow" aria-labelledby="notice-heading">
<h1 id="notice-heading">${notice.heading}</h1>
${notice.says.map((sentence) => html`<p>${sentence}</p>`)}
${notice.action ? html`<p><a class="button" href="${notice.action.href}">${notice.action.label}</a></p>` : null}
</section>`;
}
