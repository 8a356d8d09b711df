import type { Coordinates } from "../../world-map.ts";
import { findParts, type FoundParts } from "../../client/lib/find-parts.ts";
import { fill, h, show } from "../../client/lib/dom.ts";
import { fetchWorldMap } from "../../client/lib/world-map-file.ts";
import { wholeWorld } from "../../client/lib/map-view.ts";
import { moveByKeys, panByDragPickByClick, zoomByWheel, zoomStep } from "./gestures.ts";
import { MapScreen } from "./map-screen.ts";
import { geocoderMapParts } from "./parts.ts";

/**
 * The world map of the geocoder playground (view.ts): assets/world-map.svg
 * fetched from the URL the view names and put into the page as SVG, so a
 * click has coordinates and a pin can be drawn on it. It zooms (wheel,
 * buttons, + and −) and pans (drag, arrow keys) by changing the viewBox
 * (map-screen.ts), so a click lands as precisely as the view is close.
 * Focused, it is a map widget: Enter looks up the point under the
 * crosshair at its centre; the form's fields do the same.
 */
export interface WorldMapView {
  /** Draws the pin at these coordinates (one pin; it moves), moving a zoomed map to it when it is out of view. */
  placePin(coordinates: Coordinates): void;
  /** Takes the pin away (coordinates that are not on the map). */
  removePin(): void;
  /** Draws these points as dots (many points' answers), replacing the last ones; [] takes them away. */
  showPoints(points: readonly Coordinates[]): void;
}

export interface GeocoderMapDeps {
  /** A click on the map, or Enter on it: the coordinates picked. */
  onPick(coordinates: Coordinates): void;
}

/** Starts loading the map; what is drawn before it is there is not drawn (the form works without it). */
export function mount(root: HTMLElement, deps: GeocoderMapDeps): WorldMapView {
  const parts = findParts(root, geocoderMapParts);
  let screen: MapScreen | null = null;
  void load(parts, deps).then(
    (loaded) => {
      screen = loaded;
    },
    () => fill(parts.frame, h("p", { class: "map-note muted" }, "The map could not be loaded. Type the coordinates below instead.")),
  );
  return {
    placePin: (coordinates) => screen?.placePin(coordinates),
    removePin: () => screen?.removePin(),
    showPoints: (points) => screen?.showPoints(points),
  };
}

type Parts = FoundParts<typeof geocoderMapParts.spec>;

async function load(parts: Parts, deps: GeocoderMapDeps): Promise<MapScreen> {
  const { frame } = parts;
  const url = frame.dataset.mapUrl;
  if (!url) throw new Error("the page names no map");
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
  show(parts.controls, true);

  const screen = new MapScreen(svg, frame, parts.zoomNote);
  parts.zoomIn.addEventListener("click", () => screen.zoom(zoomStep));
  parts.zoomOut.addEventListener("click", () => screen.zoom(1 / zoomStep));
  parts.wholeWorld.addEventListener("click", () => screen.show(wholeWorld));
  zoomByWheel(screen);
  panByDragPickByClick(screen, deps.onPick);
  moveByKeys(frame, screen, deps.onPick);
  return screen;
}
