/**
 * Where a point of the world map (assets/world-map.svg) is on Earth, and back.
 * The map is plate carrée in a viewBox of 0 0 360 180: x = longitude + 180,
 * y = 90 − latitude (scripts/build-world-map.ts draws it so). Pure arithmetic
 * with no imports: the browser bundle uses it as it is.
 */

export const mapWidth = 360;
export const mapHeight = 180;

export interface Coordinates {
  latitude: number;
  longitude: number;
}

export interface MapPoint {
  x: number;
  y: number;
}

/** 5 decimals of a degree are about a metre: finer than any click or any geocoder. */
const coordinateDecimals = 5;

/**
 * The coordinates of a point in the map's user units (what a click becomes
 * through the SVG's screen matrix). Off the map is clamped to its edge; a
 * coordinate that is not a number (NaN) counts as the middle of its axis.
 */
export function pointToCoordinates(x: number, y: number): Coordinates {
  return {
    latitude: round(90 - clamp(y, 0, mapHeight)),
    longitude: round(clamp(x, 0, mapWidth) - 180),
  };
}

/**
 * Where coordinates are drawn on the map. Latitude is clamped to ±90 and
 * longitude to ±180 (not wrapped: a longitude past 180 is a mistake to show
 * at the edge, not a place); NaN counts as 0.
 */
export function coordinatesToPoint(latitude: number, longitude: number): MapPoint {
  return {
    x: clamp(longitude, -180, 180) + 180,
    y: 90 - clamp(latitude, -90, 90),
  };
}

function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return (min + max) / 2;
  return Math.min(max, Math.max(min, value));
}

/** Rounded to coordinateDecimals, and never −0 (which toLocaleString and Intl.NumberFormat print as "-0"). */
function round(value: number): number {
  const factor = 10 ** coordinateDecimals;
  return Math.round(value * factor) / factor + 0;
}
