import { encode } from "uqr";
import { s } from "./dom.ts";

/** A QR code's modules, quiet zone included: `dark[y][x]`. */
export interface QrCode {
  size: number;
  dark: boolean[][];
}

/** Error correction M (15 %), and the 4-module quiet zone the standard asks for. */
export function qrCode(text: string): QrCode {
  const { size, data } = encode(text, { ecc: "M", border: 4 });
  return { size, dark: data };
}

/** Every dark module as one path, a run of modules in a row being one rectangle. */
function modulesPath(qr: QrCode): string {
  let d = "";
  qr.dark.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      const start = x;
      while (row[x + 1]) x++;
      const run = x - start + 1;
      d += `M${start} ${y}h${run}v1h-${run}z`;
    }
  });
  return d;
}

/**
 * The QR code for the page: one path of class "dark", sized and coloured by
 * the stylesheet. Half the quiet zone is cut off: the white box it sits in
 * (.qr) gives the rest.
 */
export function qrSvg(qr: QrCode, label: string): SVGSVGElement {
  return s(
    "svg",
    { viewBox: `2 2 ${qr.size - 4} ${qr.size - 4}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges" },
    s("path", { class: "dark", d: modulesPath(qr) }),
  );
}

/** A file of its own: black on white, drawn by attributes, as no stylesheet comes with it. */
export function qrSvgFile(qr: QrCode, pixelsPerModule = 8): Blob {
  const side = qr.size * pixelsPerModule;
  const svg = s(
    "svg",
    { viewBox: `0 0 ${qr.size} ${qr.size}`, width: side, height: side, "shape-rendering": "crispEdges" },
    s("rect", { width: qr.size, height: qr.size, fill: "#ffffff" }),
    s("path", { d: modulesPath(qr), fill: "#000000" }),
  );
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
  return new Blob([text], { type: "image/svg+xml" });
}

/** The same as a PNG, drawn on a canvas, `pixelsPerModule` pixels a module. */
export function qrPng(qr: QrCode, pixelsPerModule = 8): Promise<Blob> {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = qr.size * pixelsPerModule;
  const context = canvas.getContext("2d");
  if (!context) return Promise.reject(new Error("this browser cannot draw on a canvas"));
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#000000";
  for (const [y, row] of qr.dark.entries()) {
    for (const [x, dark] of row.entries()) if (dark) context.fillRect(x * pixelsPerModule, y * pixelsPerModule, pixelsPerModule, pixelsPerModule);
  }
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the PNG could not be made"))), "image/png"));
}
