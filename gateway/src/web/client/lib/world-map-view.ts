import { coordinatesToPoint, pointToCoordinates, type Coordinates } from "../../world-map.ts";
import { fill, h, s } from "./dom.ts";

/**
 * The clickable world map of the geocoder playground: assets/world-map.svg
 * (plate carrée, viewBox 0 0 360 180) fetched from its fingerprinted URL
 * and put into the page as SVG, so a click has coordinates and a pin can be
 * drawn on it. The map is a pointer convenience: the form's inputs do the
 * same for keyboards and screen readers, so the map takes no focus.
 */
export interface WorldMapView {
  /** Draws the pin at these coordinates (one pin; it moves). */
  placePin(coordinates: Coordinates): void;
  /** Takes the pin away (coordinates that are not on the map). */
  removePin(): void;
}

const svgNs = "http://www.w3.org/2000/svg";

/**
 * What is kept of the file: the map is our own, but it is inserted as live
 * SVG, so anything else (script, foreignObject, use, links, event handler
 * attributes, styles) is dropped rather than trusted.
 */
const keptElements = new Set(["svg", "g", "path", "title", "desc"]);
const keptAttributes = new Set(["viewBox", "d", "class", "data-country", "fill-rule"]);

/** The pin's radius on screen, whatever the map's size. */
const pinRadiusPx = 6;

export async function loadWorldMap(container: HTMLElement, url: string, onPick: (coordinates: Coordinates) => void): Promise<WorldMapView> {
  const svg = await fetchMap(url);
  svg.setAttribute("class", "world-map");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "World map. Clicking it picks a point; the coordinate fields below do the same.");
  svg.setAttribute("focusable", "false");
  fill(container, svg);

  let pin: SVGCircleElement | null = null;
  const sizePin = () => {
    const scale = svg.getScreenCTM()?.a;
    if (pin && scale) pin.setAttribute("r", String(pinRadiusPx / scale));
  };
  addEventListener("resize", sizePin);

  svg.addEventListener("click", (event) => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    onPick(pointToCoordinates(point.x, point.y));
  });

  return {
    placePin({ latitude, longitude }) {
      const { x, y } = coordinatesToPoint(latitude, longitude);
      pin ??= s("circle", { class: "pin" });
      pin.setAttribute("cx", String(x));
      pin.setAttribute("cy", String(y));
      svg.appendChild(pin); // last, so it is drawn over every country
      sizePin();
    },
    removePin() {
      pin?.remove();
    },
  };
}

/** Shows why the map is missing; the form still works. */
export function showMapUnavailable(container: HTMLElement): void {
  fill(container, h("p", { class: "map-note muted" }, "The map could not be loaded. Type the coordinates below instead."));
}

async function fetchMap(url: string): Promise<SVGSVGElement> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the map answered ${response.status}`);
  const parsed = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
  const root = parsed.documentElement;
  if (root.getElementsByTagName("parsererror").length > 0) throw new Error("the map is not well-formed SVG");
  const svg = safeCopy(root);
  if (!(svg instanceof SVGSVGElement)) throw new Error("the map's root is not <svg>");
  return svg;
}

/** A copy of an element made of the kept elements and attributes only; null when the element itself is not kept. */
function safeCopy(source: Element): Element | null {
  if (source.namespaceURI !== svgNs || !keptElements.has(source.localName)) return null;
  const copy = document.createElementNS(svgNs, source.localName);
  if (source.localName === "title" || source.localName === "desc") {
    copy.textContent = source.textContent;
    return copy;
  }
  for (const attribute of source.attributes) {
    if (attribute.namespaceURI === null && keptAttributes.has(attribute.name)) copy.setAttribute(attribute.name, attribute.value);
  }
  for (const child of source.children) {
    const kept = safeCopy(child);
    if (kept) copy.appendChild(kept);
  }
  return copy;
}
