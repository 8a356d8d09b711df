import { defineParts } from "../../kit/parts.ts";

/** The QR kit's preview, its form's controls, the size it says and the two downloads. */
export const qrKitParts = defineParts({
  preview: "div",
  form: "form",
  scale: "select",
  errorCorrection: "select",
  margin: "select",
  dark: "input",
  light: "input",
  sizeNote: "p",
  svgLink: "a",
  pngLink: "a",
});
