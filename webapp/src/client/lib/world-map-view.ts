import { coordinatesToPoint, pointToCoordinates, type Coordinates, type MapPoint } from "../../world-map.ts";
import { byId, fill, h, s, show } from "./dom.ts";
import { centreOf, pannedView, viewBoxOf, wholeWorld, zoomedView, zoomOf, type MapView } from "./map-view.ts";

/**
 * The world map of the geocoder playground: assets/world-map.svg (plate
 * carrée, viewBox 0 0 360 180) fetched from its fingerprinted URL and put
 * into the page as SVG, so a click has coordinates and a pin can be drawn
 * on it. It zooms (wheel, buttons, + and −) and pans (drag, arrow keys) by
 * changing the viewBox (lib/map-view.ts), so a click lands as precisely as
 * the view is close. Focused, it is a map widget: Enter looks up the point
 * under the crosshair at its centre; the form's fields do the same.
 */
export interface WorldMapView {
  /** Draws the pin at these coordinates (one pin; it moves). */
  placePin(coordinates: Coordinates): void;
  /** Takes the pin away (coordinates that are not on the map). */
  removePin(): void;
  /** Draws these points as dots (many points' answers), replacing the last ones; [] takes them away. */
  showPoints(points: readonly Coordinates[]): void;
}

const svgNs = "http://www.w3.org/2000/svg";

/**
 * What is kept of the file: the map is our own, but it is inserted as live
 * SVG, so anything else (script, foreignObject, use, links, event handler
 * attributes, styles) is dropped rather than trusted.
 */
const keptElements = new Set(["svg", "g", "path", "title", "desc"]);
const keptAttributes = new Set(["viewBox", "d", "class", "data-country", "fill-rule"]);

/** The pin's radius on screen, whatever the map's size; a dot of many points is smaller. */
const pinRadiusPx = 6;
const dotRadiusPx = 2.5;

/** One press of a zoom button or key doubles or halves the zoom; the wheel goes by its distance. */
const zoomStep = 2;
const wheelPixelsPerDoubling = 300;
/** An arrow key moves a tenth of the view (Shift: half). */
const panShare = 0.1;
/** A press that moves less than this is a click, not a drag. */
const dragThresholdPx = 4;

export async function loadWorldMap(frame: HTMLElement, url: string, onPick: (coordinates: Coordinates) => void): Promise<WorldMapView> {
  const svg = await fetchWorldMap(url);
  svg.setAttribute("class", "world-map");
  // The frame is the widget a person meets (focus, name, keys); the drawing itself says nothing more.
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  fill(frame, svg);
  frame.tabIndex = 0;
  frame.setAttribute("role", "application");
  frame.setAttribute("aria-roledescription", "map");
  frame.setAttribute("aria-label", "World map");
  frame.setAttribute("aria-describedby", "map-hint map-zoom");
  const zoomNote = byId("map-zoom");
  show(byId("map-controls"), true);

  let view: MapView = wholeWorld;
  let pin: SVGCircleElement | null = null;
  const scale = () => svg.getScreenCTM()?.a;
  const sizePin = () => {
    const pixelsPerUnit = scale();
    if (pin && pixelsPerUnit) pin.setAttribute("r", String(pinRadiusPx / pixelsPerUnit));
  };
  addEventListener("resize", sizePin);

  // Many points' dots, in one group under the pin, each kept as small on screen as the pin is kept large.
  const dots = s("g", { class: "points" });
  svg.appendChild(dots);
  const sizeDots = () => {
    const pixelsPerUnit = scale();
    if (pixelsPerUnit) for (const dot of dots.children) dot.setAttribute("r", String(dotRadiusPx / pixelsPerUnit));
  };
  addEventListener("resize", sizeDots);

  const showView = (next: MapView) => {
    view = next;
    svg.setAttribute("viewBox", viewBoxOf(view));
    frame.classList.toggle("zoomed", zoomOf(view) > 1);
    const zoom = Math.round(zoomOf(view));
    zoomNote.textContent = zoom <= 1 ? "The whole world" : `${zoom} times closer`;
    sizePin();
    sizeDots();
  };
  /** Where on the map a point of the screen is. */
  const mapPointAt = (clientX: number, clientY: number): MapPoint | null => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  };
  /** Zooming by button or key keeps the pin in place when it is in view, else the centre. */
  const zoomAnchor = (): MapPoint => {
    if (!pin) return centreOf(view);
    const at = { x: Number(pin.getAttribute("cx")), y: Number(pin.getAttribute("cy")) };
    const inView = at.x >= view.x && at.x <= view.x + view.width && at.y >= view.y && at.y <= view.y + view.height;
    return inView ? at : centreOf(view);
  };

  byId("map-zoom-in").addEventListener("click", () => showView(zoomedView(view, zoomStep, zoomAnchor())));
  byId("map-zoom-out").addEventListener("click", () => showView(zoomedView(view, 1 / zoomStep, zoomAnchor())));
  byId("map-whole-world").addEventListener("click", () => showView(wholeWorld));

  svg.addEventListener(
    "wheel",
    (event) => {
      const anchor = mapPointAt(event.clientX, event.clientY);
      if (!anchor) return;
      event.preventDefault();
      showView(zoomedView(view, 2 ** (-event.deltaY / wheelPixelsPerDoubling), anchor));
    },
    { passive: false },
  );

  // A drag pans; a press that hardly moved is a click, which picks.
  let press: { pointerId: number; clientX: number; clientY: number; from: MapView; dragged: boolean } | null = null;
  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    press = { pointerId: event.pointerId, clientX: event.clientX, clientY: event.clientY, from: view, dragged: false };
  });
  svg.addEventListener("pointermove", (event) => {
    const pixelsPerUnit = scale();
    if (!press || press.pointerId !== event.pointerId || !pixelsPerUnit) return;
    const dx = event.clientX - press.clientX;
    const dy = event.clientY - press.clientY;
    if (!press.dragged && Math.hypot(dx, dy) < dragThresholdPx) return;
    if (!press.dragged) svg.setPointerCapture(event.pointerId);
    press.dragged = true;
    showView(pannedView(press.from, -dx / pixelsPerUnit, -dy / pixelsPerUnit));
  });
  const release = (event: PointerEvent) => {
    if (press?.pointerId !== event.pointerId) return;
    const { dragged } = press;
    press = null;
    if (!dragged) {
      const point = mapPointAt(event.clientX, event.clientY);
      if (point) onPick(pointToCoordinates(point.x, point.y));
    }
  };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", () => {
    press = null;
  });

  frame.addEventListener("keydown", (event) => {
    const step = event.shiftKey ? 5 * panShare : panShare;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-view.width * step, 0],
      ArrowRight: [view.width * step, 0],
      ArrowUp: [0, -view.height * step],
      ArrowDown: [0, view.height * step],
    };
    const move = moves[event.key];
    if (move) showView(pannedView(view, ...move));
    else if (event.key === "+" || event.key === "=") showView(zoomedView(view, zoomStep, zoomAnchor()));
    else if (event.key === "-" || event.key === "_") showView(zoomedView(view, 1 / zoomStep, zoomAnchor()));
    else if (event.key === "0") showView(wholeWorld);
    else if (event.key === "Enter" || event.key === " ") {
      const centre = centreOf(view);
      onPick(pointToCoordinates(centre.x, centre.y));
    } else return;
    event.preventDefault();
  });

  showView(wholeWorld);
  return {
    showPoints(points) {
      fill(
        dots,
        points.map(({ latitude, longitude }) => {
          const { x, y } = coordinatesToPoint(latitude, longitude);
          return s("circle", { class: "point", cx: String(x), cy: String(y) });
        }),
      );
      sizeDots();
      if (pin) svg.appendChild(pin);
    },
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
      pin = null;
    },
  };
}

/** Shows why the map is missing; the form still works. */
export function showMapUnavailable(container: HTMLElement): void {
  fill(container, h("p", { class: "map-note muted" }, "The map could not be loaded. Type the coordinates below instead."));
}

/** The map file as SVG of the kept elements only (see keptElements); the link page's countries map uses it too. */
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
