/**
 * The part of the world map on show: a viewBox in the map's units (see
 * world-map.ts), zoomed about a point and panned, never past the map's
 * edges nor closer than `maxZoom`. Pure arithmetic, so that its rules are
 * tested without a browser.
 */
import { mapHeight, mapWidth, type MapPoint } from "../../world-map.ts";

export interface MapView {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The whole world. */
export const wholeWorld: MapView = { x: 0, y: 0, width: mapWidth, height: mapHeight };

/** At most 32 times closer: a 540 px map then shows about 11° across, 48 px a degree (the outlines are simplified to 0.1°). */
export const maxZoom = 32;

export const zoomOf = (view: MapView): number => mapWidth / view.width;

/** `view` `factor` times closer (below 1: farther), the map point `anchor` staying where it is on screen. */
export function zoomedView(view: MapView, factor: number, anchor: MapPoint = centreOf(view)): MapView {
  const zoom = Math.min(maxZoom, Math.max(1, zoomOf(view) * (Number.isFinite(factor) && factor > 0 ? factor : 1)));
  const width = mapWidth / zoom;
  const height = mapHeight / zoom;
  // The anchor keeps its place as a share of the view's width and height.
  const shareX = (anchor.x - view.x) / view.width;
  const shareY = (anchor.y - view.y) / view.height;
  return within({ x: anchor.x - shareX * width, y: anchor.y - shareY * height, width, height });
}

/** `view` moved by `dx`, `dy` map units, stopping at the edges. */
export function pannedView(view: MapView, dx: number, dy: number): MapView {
  return within({ ...view, x: view.x + (Number.isFinite(dx) ? dx : 0), y: view.y + (Number.isFinite(dy) ? dy : 0) });
}

/** `view`'s size, centred on `point` as far as the edges allow. */
export function viewCentredOn(view: MapView, point: MapPoint): MapView {
  return within({ ...view, x: point.x - view.width / 2, y: point.y - view.height / 2 });
}

export function centreOf(view: MapView): MapPoint {
  return { x: view.x + view.width / 2, y: view.y + view.height / 2 };
}

export const viewBoxOf = (view: MapView): string => [view.x, view.y, view.width, view.height].map((n) => Number(n.toFixed(4))).join(" ");

function within(view: MapView): MapView {
  return {
    ...view,
    x: Math.min(mapWidth - view.width, Math.max(0, view.x)),
    y: Math.min(mapHeight - view.height, Math.max(0, view.y)),
  };
}
