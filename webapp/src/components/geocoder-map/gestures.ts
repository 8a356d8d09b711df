import { pointToCoordinates, type Coordinates } from "../../world-map.ts";
import { centreOf, pannedView, wholeWorld } from "../../client/lib/map-view.ts";
import type { MapScreen } from "./map-screen.ts";

/**
 * How a person moves the map and picks a point on it: the wheel zooms about
 * the pointer, a drag pans, a press that hardly moved is a click that picks,
 * and the focused frame takes keys (arrows pan, + − 0 zoom, Enter picks the
 * centre, where the crosshair is).
 */

type Pick = (coordinates: Coordinates) => void;

/** One press of a zoom button or key doubles or halves the zoom; the wheel goes by its distance. */
export const zoomStep = 2;
const wheelPixelsPerDoubling = 300;
/** An arrow key moves a tenth of the view (Shift: half). */
const panShare = 0.1;
/** A press that moves less than this is a click, not a drag. */
const dragThresholdPx = 4;

export function zoomByWheel(screen: MapScreen): void {
  screen.svg.addEventListener(
    "wheel",
    (event) => {
      const anchor = screen.mapPointAt(event.clientX, event.clientY);
      if (!anchor) return;
      event.preventDefault();
      screen.zoom(2 ** (-event.deltaY / wheelPixelsPerDoubling), anchor);
    },
    { passive: false },
  );
}

export function panByDragPickByClick(screen: MapScreen, onPick: Pick): void {
  const { svg } = screen;
  let press: { pointerId: number; clientX: number; clientY: number; from: typeof screen.view; dragged: boolean } | null = null;
  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    press = { pointerId: event.pointerId, clientX: event.clientX, clientY: event.clientY, from: screen.view, dragged: false };
  });
  svg.addEventListener("pointermove", (event) => {
    const pixelsPerUnit = screen.pixelsPerUnit();
    if (!press || press.pointerId !== event.pointerId || !pixelsPerUnit) return;
    const dx = event.clientX - press.clientX;
    const dy = event.clientY - press.clientY;
    if (!press.dragged && Math.hypot(dx, dy) < dragThresholdPx) return;
    if (!press.dragged) svg.setPointerCapture(event.pointerId);
    press.dragged = true;
    screen.show(pannedView(press.from, -dx / pixelsPerUnit, -dy / pixelsPerUnit));
  });
  svg.addEventListener("pointerup", (event) => {
    if (press?.pointerId !== event.pointerId) return;
    const { dragged } = press;
    press = null;
    const point = dragged ? null : screen.mapPointAt(event.clientX, event.clientY);
    if (point) onPick(pointToCoordinates(point.x, point.y));
  });
  svg.addEventListener("pointercancel", () => {
    press = null;
  });
}

export function moveByKeys(frame: HTMLElement, screen: MapScreen, onPick: Pick): void {
  frame.addEventListener("keydown", (event) => {
    if (!keyMoves(screen, event.key, event.shiftKey, onPick)) return;
    event.preventDefault();
  });
}

/** Does what `key` does to the map; false for a key the map leaves alone. */
function keyMoves(screen: MapScreen, key: string, shift: boolean, onPick: Pick): boolean {
  const { view } = screen;
  const step = shift ? 5 * panShare : panShare;
  const moves: Record<string, [number, number]> = {
    ArrowLeft: [-view.width * step, 0],
    ArrowRight: [view.width * step, 0],
    ArrowUp: [0, -view.height * step],
    ArrowDown: [0, view.height * step],
  };
  const move = moves[key];
  if (move) screen.show(pannedView(view, ...move));
  else if (key === "+" || key === "=") screen.zoom(zoomStep);
  else if (key === "-" || key === "_") screen.zoom(1 / zoomStep);
  else if (key === "0") screen.show(wholeWorld);
  else if (key === "Enter" || key === " ") {
    const centre = centreOf(view);
    onPick(pointToCoordinates(centre.x, centre.y));
  } else return false;
  return true;
}
