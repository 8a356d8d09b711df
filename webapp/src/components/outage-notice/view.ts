import { html, type SafeHtml } from "../../html.ts";
import { outageParts as ui } from "./parts.ts";

/**
 * What a page says while the service behind the gateway does not answer. The
 * live region stays in the page and only its message is shown or hidden, so
 * a screen reader hears it appear; the page asks again by itself (script.ts).
 */
export function outageNoticeView(mark: SafeHtml): SafeHtml {
  return html`<div id="outage" class="outage" role="status" ${mark}>
  <div class="message warning" ${ui.mark("outageMessage")} hidden>
    <p><strong>The link service is not answering right now.</strong> It may be restarting. This page tries again by itself and shows everything once it answers: there is no need to reload.</p>
    <button type="button" class="secondary small" ${ui.mark("outageTryNow")}>Try again now</button>
  </div>
</div>`;
}
