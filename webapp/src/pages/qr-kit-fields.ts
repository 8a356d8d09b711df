import { html } from "../html.ts";

/**
 * The QR kit: a preview, the form that makes the code to measure (size,
 * error correction, margin, colours) and its SVG and PNG downloads. On a
 * link's page and in the admin table's QR dialog, one per page (its ids are
 * fixed); client/lib/qr-kit.ts draws it.
 */
export const qrKitFields = html`<div class="qr-kit">
<div id="qr-preview" class="qr-preview"></div>
<div>
<form id="qr-form" class="qr-form" novalidate>
<div class="field"><label for="qr-scale">Size</label>
<select id="qr-scale"><option value="4">Small, 4 px a module</option><option value="8" selected>Medium, 8 px a module</option><option value="16">Large, 16 px a module</option><option value="32">Print, 32 px a module</option></select></div>
<div class="field"><label for="qr-ecc">Error correction</label>
<select id="qr-ecc" aria-describedby="qr-ecc-hint"><option value="L">Low, 7 %</option><option value="M" selected>Medium, 15 %</option><option value="Q">Quartile, 25 %</option><option value="H">High, 30 %</option></select>
<p id="qr-ecc-hint" class="hint">How much of the code may be covered or damaged and still scan.</p></div>
<div class="field"><label for="qr-margin">Margin</label>
<select id="qr-margin"><option value="0">0 modules</option><option value="1">1 module</option><option value="2">2 modules</option><option value="3">3 modules</option><option value="4" selected>4 modules</option><option value="5">5 modules</option><option value="6">6 modules</option><option value="7">7 modules</option><option value="8">8 modules</option></select></div>
<div class="field"><label for="qr-dark">Dark colour</label><input id="qr-dark" type="color" value="#000000"></div>
<div class="field"><label for="qr-light">Light colour</label><input id="qr-light" type="color" value="#ffffff"></div>
</form>
<p id="qr-size-note" class="hint" aria-live="polite"></p>
<p class="row"><a id="qr-download-svg" class="button secondary small" download>Download SVG</a><a id="qr-download-png" class="button secondary small" download>Download PNG</a></p>
</div>
</div>`;
