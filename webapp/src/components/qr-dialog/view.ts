import { html, type SafeHtml } from "../../html.ts";
import { qrKitView } from "../qr-kit/view.ts";
import { qrDialogParts as ui } from "./parts.ts";

/** A row's QR code in a modal dialog: the link page's QR kit (components/qr-kit). */
export function qrDialogView(mark: SafeHtml): SafeHtml {
  return html`<dialog id="qr-dialog" class="qr-dialog" aria-labelledby="qr-dialog-title" ${mark}>
  <div class="row spread">
    <h2 id="qr-dialog-title" ${ui.mark("qrTitle")}>QR code</h2>
    <button type="button" id="qr-dialog-close" class="secondary small" ${ui.mark("qrClose")}>Close</button>
  </div>
  <p id="qr-dialog-link" class="mono" ${ui.mark("qrLink")}></p>
  ${qrKitView(ui.mark("qrKitRoot"))}
</dialog>`;
}
