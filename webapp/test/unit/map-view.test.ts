import { describe, expect, test } from "bun:test";
import { centreOf, maxZoom, pannedView, viewBoxOf, viewCentredOn, wholeWorld, zoomedView, zoomOf } from "../../src/client/lib/map-view.ts";
import { coordinatesToPoint } from "../../src/world-map.ts";

describe("the part of the world map on show", () => {
  const paris = coordinatesToPoint(48.8566, 2.3522);

  test("zooming about a point keeps that point where it was on screen", () => {
    const view = zoomedView(wholeWorld, 4, paris);
    expect(zoomOf(view)).toBe(4);
    expect((paris.x - view.x) / view.width).toBeCloseTo(paris.x / 360, 10);
    expect((paris.y - view.y) / view.height).toBeCloseTo(paris.y / 180, 10);
  });

  test("zoom stays between the whole world and maxZoom, whatever the factor", () => {
    expect(zoomedView(wholeWorld, 0.1)).toEqual(wholeWorld);
    expect(zoomOf(zoomedView(wholeWorld, 1e9, paris))).toBe(maxZoom);
    for (const factor of [Number.NaN, -2, 0, Number.POSITIVE_INFINITY]) expect(zoomedView(wholeWorld, factor)).toEqual(wholeWorld);
  });

  test("panning and centring stop at the map's edges", () => {
    const close = zoomedView(wholeWorld, 8, paris);
    const far = pannedView(close, -1000, 1000);
    expect(far.x).toBe(0);
    expect(far.y).toBe(180 - close.height);
    expect(pannedView(close, Number.NaN, 0)).toEqual(close);
    const corner = viewCentredOn(close, { x: 359, y: 1 });
    expect(corner.x + corner.width).toBe(360);
    expect(corner.y).toBe(0);
    expect(centreOf(viewCentredOn(close, paris)).x).toBeCloseTo(paris.x, 10);
  });

  test("the viewBox attribute is short and exact enough", () => {
    expect(viewBoxOf(wholeWorld)).toBe("0 0 360 180");
    expect(viewBoxOf({ x: 1 / 3, y: 2, width: 45, height: 22.5 })).toBe("0.3333 2 45 22.5");
  });
});
