/**
 * A link's QR code, made to measure (pages/qr-kit-fields.ts: on a link's
 * page, and in the admin table's QR dialog): error correction, quiet zone,
 * size and colours chosen in the form beside it, the preview drawn from the
 * very SVG file the download gives, and SVG and PNG to download. All of it
 * in the browser: nothing is asked of the server.
 */
import { byId, fill, h } from "./dom.ts";
import { OfferedFiles } from "./offered-files.ts";
import { qrCode, qrPng, qrSvgFile, type QrCode, type QrErrorCorrection, type QrLook } from "./qr-code.ts";

const errorCorrections = new Set<string>(["L", "M", "Q", "H"]);
const colour = /^#[0-9a-f]{6}$/i;

export interface QrKit {
  /** Draws the code of `link` (its files named after `code`), with the form's choices as they are. */
  show(link: string, code: string): void;
}

export function qrKit(): QrKit {
  let shown: { link: string; code: string } | null = null;
  const form = byId<HTMLFormElement>("qr-form");
  const preview = byId("qr-preview");
  const svgLink = byId<HTMLAnchorElement>("qr-download-svg");
  const pngLink = byId<HTMLAnchorElement>("qr-download-png");
  const sizeNote = byId("qr-size-note");
  const files = new OfferedFiles();

  const value = (id: string) => byId<HTMLInputElement | HTMLSelectElement>(id).value;
  const whole = (id: string, min: number, max: number, fallback: number) => {
    const number = Number(value(id));
    return Number.isInteger(number) && number >= min && number <= max ? number : fallback;
  };

  const draw = () => {
    if (!shown) return;
    const { link, code } = shown;
    const errorCorrection = (errorCorrections.has(value("qr-ecc")) ? value("qr-ecc") : "M") as QrErrorCorrection;
    const margin = whole("qr-margin", 0, 8, 4);
    const look: QrLook = {
      pixelsPerModule: whole("qr-scale", 2, 32, 8),
      dark: colour.test(value("qr-dark")) ? value("qr-dark") : "#000000",
      light: colour.test(value("qr-light")) ? value("qr-light") : "#ffffff",
    };
    const qr = qrCode(link, { errorCorrection, margin });
    files.clear();
    const svgUrl = offerQrFiles(files, qr, look, { svg: svgLink, png: pngLink }, code);
    fill(preview, h("img", { src: svgUrl, alt: `QR code of ${link}`, width: "200", height: "200" }));
    const side = qr.size * look.pixelsPerModule;
    sizeNote.textContent = `${side} × ${side} pixels, ${qr.size} modules across`;
  };

  form.addEventListener("input", draw);
  form.addEventListener("submit", (event) => event.preventDefault());
  return {
    show(link, code) {
      shown = { link, code };
      draw();
    },
  };
}

/**
 * A QR code's SVG and PNG (`<name>.svg`, `<name>.png`) behind their download
 * links; the PNG's once drawn, its link hidden if it cannot be. Answers the
 * SVG's URL, for a preview.
 */
export function offerQrFiles(files: OfferedFiles, qr: QrCode, look: QrLook, links: { svg: HTMLAnchorElement; png: HTMLAnchorElement }, name: string): string {
  const svgUrl = files.offer(links.svg, qrSvgFile(qr, look), `${name}.svg`);
  links.png.removeAttribute("href");
  qrPng(qr, look).then(
    (png) => files.offer(links.png, png, `${name}.png`),
    () => (links.png.hidden = true),
  );
  return svgUrl;
}
