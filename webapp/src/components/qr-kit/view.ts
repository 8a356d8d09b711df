import { html, type SafeHtml } from "../../html.ts";
import { qrKitParts as ui } from "./parts.ts";

const margins = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/**
 * The QR kit: a preview, the form that makes the code to measure (size,
 * error correction, margin, colours) and its SVG and PNG downloads. On a
 * link's page and in the admin table's QR dialog, one per page (its root is
 * `qr-kit`, its labels need fixed ids); the component's script draws it.
 * `rootPart` marks its root for a page that finds it among its parts.
 */
export function qrKitView(rootPart: SafeHtml | null = null): SafeHtml {
  return html`<div class="qr-kit" id="qr-kit" ${rootPart}>
<div id="qr-preview" class="qr-preview" ${ui.mark("preview")}></div>
<div>
<form id="qr-form" class="qr-form" ${ui.mark("form")} novalidate>
<div class="field"><label for="qr-scale">Size</label>
<select id="qr-scale" ${ui.mark("scale")}><option value="4">Small, 4 px a module</option><option value="8" selected>Medium, 8 px a module</option><option value="16">Large, 16 px a module</option><option value="32">Print, 32 px a module</option></select></div>
<div class="field"><label for="qr-ecc">Error correction</label>
<select id="qr-ecc" ${ui.mark("errorCorrection")} aria-describedby="qr-ecc-hint"><option value="L">Low, 7 %</option><option value="M" selected>Medium, 15 %</option><option value="Q">Quartile, 25 %</option><option value="H">High, 30 %</option></select>
<p id="qr-ecc-hint" class="hint">How much of the code may be covered or damaged and still scan.</p></div>
<div class="field"><label for="qr-margin">Margin</label>
<select id="qr-margin" ${ui.mark("margin")}>${margins.map((n) => html`<option value="${n}"${n === 4 ? html` selected` : null}>${n} ${n === 1 ? "module" : "modules"}</option>`)}</select></div>
<div class="field"><label for="qr-dark">Dark colour</label><input id="qr-dark" ${ui.mark("dark")} type="color" value="#000000"></div>
<div class="field"><label for="qr-light">Light colour</label><input id="qr-light" ${ui.mark("light")} type="color" value="#ffffff"></div>
</form>
<p id="qr-size-note" class="hint" ${ui.mark("sizeNote")} aria-live="polite"></p>
<p class="row"><a id="qr-download-svg" class="button secondary small" ${ui.mark("svgLink")} download>Download SVG</a><a id="qr-download-png" class="button secondary small" ${ui.mark("pngLink")} download>Download PNG</a></p>
</div>
</div>`;
}
