import { coordinatesToPoint, type Coordinates, type MapPoint } from "../../world-map.ts";
import { fill, s } from "../../client/lib/dom.ts";
import { centreOf, viewBoxOf, viewCentredOn, wholeWorld, zoomedView, zoomOf, type MapView } from "../../client/lib/map-view.ts";

/** The pin's radius on screen, whatever the map's size; a dot of many points is smaller. */
const pinRadiusPx = 6;
const dotRadiusPx = 2.5;

/**
 * The map as drawn: the part of it in view (its viewBox, lib/map-view.ts),
 * the pin and the dots of many points, each kept the same size on screen
 * whatever the zoom. What moves the view (gestures.ts) and what is drawn
 * (the page's answers) both go through here.
 */
export class MapScreen {
  private current: MapView = wholeWorld;
  private pin: SVGCircleElement | null = null;
  /** Many points' dots, in one group under the pin. */
  private readonly dots = s("g", { class: "points" });

  constructor(
    readonly svg: SVGSVGElement,
    private readonly frame: HTMLElement,
    private readonly zoomNote: HTMLElement,
  ) {
    svg.appendChild(this.dots);
    addEventListener("resize", () => this.sizeMarks());
    this.show(wholeWorld);
  }

  get view(): MapView {
    return this.current;
  }

  /** Shows `next` of the map, and says how close it is. */
  show(next: MapView): void {
    this.current = next;
    this.svg.setAttribute("viewBox", viewBoxOf(next));
    this.frame.classList.toggle("zoomed", zoomOf(next) > 1);
    const zoom = Math.round(zoomOf(next));
    this.zoomNote.textContent = zoom <= 1 ? "The whole world" : `${zoom} times closer`;
    this.sizeMarks();
  }

  /** `factor` times closer (below 1: farther), about `anchor`, else the pin when it is in view, else the centre. */
  zoom(factor: number, anchor: MapPoint = this.zoomAnchor()): void {
    this.show(zoomedView(this.current, factor, anchor));
  }

  /** Screen pixels per map unit: undefined while the map is not laid out. */
  pixelsPerUnit(): number | undefined {
    return this.svg.getScreenCTM()?.a;
  }

  /** Where on the map a point of the screen is. */
  mapPointAt(clientX: number, clientY: number): MapPoint | null {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  }

  /** The pin at these coordinates; a pin out of view (typed, or a place searched by name) brings the view to it, at the same zoom. */
  placePin({ latitude, longitude }: Coordinates): void {
    const { x, y } = coordinatesToPoint(latitude, longitude);
    if (!inView(this.current, { x, y })) this.show(viewCentredOn(this.current, { x, y }));
    this.pin ??= s("circle", { class: "pin" });
    this.pin.setAttribute("cx", String(x));
    this.pin.setAttribute("cy", String(y));
    this.svg.appendChild(this.pin); // last, so it is drawn over every country
    this.sizeMarks();
  }

  removePin(): void {
    this.pin?.remove();
    this.pin = null;
  }

  /** Draws these points as dots, replacing the last ones; [] takes them away. */
  showPoints(points: readonly Coordinates[]): void {
    fill(
      this.dots,
      points.map(({ latitude, longitude }) => {
        const { x, y } = coordinatesToPoint(latitude, longitude);
        return s("circle", { class: "point", cx: String(x), cy: String(y) });
      }),
    );
    this.sizeMarks();
    if (this.pin) this.svg.appendChild(this.pin);
  }

  /** Zooming by button or key keeps the pin in place when it is in view, else the centre. */
  private zoomAnchor(): MapPoint {
    const view = this.current;
    if (!this.pin) return centreOf(view);
    const at = { x: Number(this.pin.getAttribute("cx")), y: Number(this.pin.getAttribute("cy")) };
    return inView(view, at) ? at : centreOf(view);
  }

  /** The pin and the dots their size on screen at this zoom. */
  private sizeMarks(): void {
    const pixelsPerUnit = this.pixelsPerUnit();
    if (!pixelsPerUnit) return;
    this.pin?.setAttribute("r", String(pinRadiusPx / pixelsPerUnit));
    for (const dot of this.dots.children) dot.setAttribute("r", String(dotRadiusPx / pixelsPerUnit));
  }
}

function inView(view: MapView, at: MapPoint): boolean {
  return at.x >= view.x && at.x <= view.x + view.width && at.y >= view.y && at.y <= view.y + view.height;
}
