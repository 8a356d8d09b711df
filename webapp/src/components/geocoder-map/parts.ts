import { defineParts } from "../../kit/parts.ts";

/** The geocoder playground's map: the frame the map is drawn in, and its zoom controls. */
export const geocoderMapParts = defineParts({
  frame: "div",
  controls: "div",
  zoomIn: "button",
  zoomOut: "button",
  wholeWorld: "button",
  zoomNote: "p",
});
