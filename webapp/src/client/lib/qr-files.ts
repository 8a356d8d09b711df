import type { OfferedFiles } from "./offered-files.ts";
import { qrPng, qrSvgFile, type QrCode, type QrLook } from "./qr-code.ts";

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
