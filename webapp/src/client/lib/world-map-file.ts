/**
 * The world map file (assets/world-map.svg) as live SVG: the map is our own,
 * but it is inserted into the page, so only the elements and attributes a
 * drawing of countries needs are kept (see keptElements); anything else
 * (script, foreignObject, use, links, event handler attributes, styles) is
 * dropped rather than trusted. The geocoder playground's map and the link
 * page's countries map both read it through here.
 */

const svgNs = "http://www.w3.org/2000/svg";

const keptElements = new Set(["svg", "g", "path", "title", "desc"]);
const keptAttributes = new Set(["viewBox", "d", "class", "data-country", "fill-rule"]);

/** The map file at `url`, as SVG of the kept elements only. */
export async function fetchWorldMap(url: string): Promise<SVGSVGElement> {
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
