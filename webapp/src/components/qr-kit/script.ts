/**
 * A link's QR code, made to measure: error correction, quiet zone, size and
 * colours chosen in the form beside it, the preview drawn from the very SVG
 * file the download gives, and SVG and PNG to download. All of it in the
 * browser: nothing is asked of the server.
 */
import { fill, h } from "../../client/lib/dom.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { OfferedFiles } from "../../client/lib/offered-files.ts";
import { qrCode, type QrErrorCorrection, type QrLook } from "../../client/lib/qr-code.ts";
import { offerQrFiles } from "../../client/lib/qr-files.ts";
import { qrKitParts } from "./parts.ts";

const errorCorrections = new Set<string>(["L", "M", "Q", "H"]);
const colour = /^#[0-9a-f]{6}$/i;

export interface QrKit {
  /** Draws the code of `link` (its files named after `code`), with the form's choices as they are. */
  show(link: string, code: string): void;
}

export function mountQrKit(root: HTMLElement): QrKit {
  const ui = findParts(root, qrKitParts);
  const files = new OfferedFiles();
  let shown: { link: string; code: string } | null = null;
  const draw = () => {
    // Draws resolve in the order they were asked (one encoder), so the form's last choice is what stays.
    if (shown)
      void drawQr(ui, files, shown.link, shown.code).catch(() =>
        fill(ui.preview, h("p", { class: "muted" }, "The QR code could not be drawn: reload the page.")),
      );
  };
  ui.form.addEventListener("input", draw);
  ui.form.addEventListener("submit", (event) => event.preventDefault());
  return {
    show(link, code) {
      shown = { link, code };
      draw();
    },
  };
}

/** A whole number from a menu, or `fallback` when it holds anything else (the page's menus are hostile input too). */
function whole(control: HTMLSelectElement, min: number, max: number, fallback: number): number {
  const number = Number(control.value);
  return Number.isInteger(number) && number >= min && number <= max ? number : fallback;
}

async function drawQr(ui: FoundParts<typeof qrKitParts.spec>, files: OfferedFiles, link: string, code: string): Promise<void> {
  const errorCorrection = (errorCorrections.has(ui.errorCorrection.value) ? ui.errorCorrection.value : "M") as QrErrorCorrection;
  const look: QrLook = {
    pixelsPerModule: whole(ui.scale, 2, 32, 8),
    dark: colour.test(ui.dark.value) ? ui.dark.value : "#000000",
    light: colour.test(ui.light.value) ? ui.light.value : "#ffffff",
  };
  const qr = await qrCode(link, { errorCorrection, margin: whole(ui.margin, 0, 8, 4) });
  files.clear();
  const svgUrl = offerQrFiles(files, qr, look, { svg: ui.svgLink, png: ui.pngLink }, code);
  fill(ui.preview, h("img", { src: svgUrl, alt: `QR code of ${link}`, width: "200", height: "200" }));
  const side = qr.size * look.pixelsPerModule;
  ui.sizeNote.textContent = `${side} × ${side} pixels, ${qr.size} modules across`;
}
