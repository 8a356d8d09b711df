import { s } from "./dom.ts";

/** A QR code's modules, quiet zone included: `dark[y][x]`. */
export interface QrCode {
  size: number;
  dark: boolean[][];
}

/** How much of the code may be damaged and still read: L 7 %, M 15 %, Q 25 %, H 30 %. */
export type QrErrorCorrection = "L" | "M" | "Q" | "H";

/** The colours and scale of a QR code's files. */
export interface QrLook {
  pixelsPerModule: number;
  dark: string;
  light: string;
}

export const plainLook: QrLook = { pixelsPerModule: 8, dark: "#000000", light: "#ffffff" };

/**
 * The encoder (uqr: two thirds of the QR code's bytes) is fetched the first
 * time a code is drawn, not with every page that may draw one; a fetch that
 * failed (an outage) is tried again by the next code.
 */
let encoder: Promise<typeof import("uqr")> | undefined;
const loadEncoder = () =>
  (encoder ??= import("uqr").catch((error: unknown) => {
    encoder = undefined;
    throw error;
  }));

/** By default error correction M, and the 4-module quiet zone (`margin`) the standard asks for. */
export async function qrCode(
  text: string,
  { errorCorrection = "M", margin = 4 }: { errorCorrection?: QrErrorCorrection; margin?: number } = {},
): Promise<QrCode> {
  const { encode } = await loadEncoder();
  const { size, data } = encode(text, { ecc: errorCorrection, border: margin });
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

/** A file of its own, black on white unless `look` says otherwise, drawn by attributes, as no stylesheet comes with it. */
export function qrSvgFile(qr: QrCode, look: QrLook = plainLook): Blob {
  const side = qr.size * look.pixelsPerModule;
  const svg = s(
    "svg",
    { viewBox: `0 0 ${qr.size} ${qr.size}`, width: side, height: side, "shape-rendering": "crispEdges" },
    s("rect", { width: qr.size, height: qr.size, fill: look.light }),
    s("path", { d: modulesPath(qr), fill: look.dark }),
  );
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
  return new Blob([text], { type: "image/svg+xml" });
}

/** The same as a PNG, drawn on a canvas, `look.pixelsPerModule` pixels a module. */
export function qrPng(qr: QrCode, look: QrLook = plainLook): Promise<Blob> {
  const { pixelsPerModule } = look;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = qr.size * pixelsPerModule;
  const context = canvas.getContext("2d");
  if (!context) return Promise.reject(new Error("this browser cannot draw on a canvas"));
  context.fillStyle = look.light;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = look.dark;
  for (const [y, row] of qr.dark.entries()) {
    for (const [x, dark] of row.entries()) if (dark) context.fillRect(x * pixelsPerModule, y * pixelsPerModule, pixelsPerModule, pixelsPerModule);
  }
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the PNG could not be made"))), "image/png"));
}
