import type { Address } from "../addresses/address.ts";

/** One forward-geocoding question (a name or an address to places), already validated. */
export interface ForwardQuery {
  /** What to look for, as the person wrote it. */
  text: string;
  /** At most this many places. */
  limit: number;
  /** Only places of these countries (ISO 3166-1 alpha-2, upper case); absent, any. */
  countries?: readonly string[];
  /** BCP 47 language tag the caller prefers (`de`, `en-GB`), if any. */
  language?: string;
  /** Places near this point first. */
  near?: { latitude: number; longitude: number };
  /** Places in this box first. */
  bbox?: { south: number; west: number; north: number; east: number };
}

/** One place a provider found for a forward query: the address, where it is, how sure the provider is, and its own id. */
export interface ForwardPlace {
  address: Address;
  latitude: number;
  longitude: number;
  /** 0 to 1, as the provider scores its match (or ranks its importance). */
  confidence: number;
  /** The provider's own id of the place (Geoapify's place_id, HERE's id, Nominatim's osm_type/osm_id). */
  providerId: string | null;
}

/** A provider's coordinates, as numbers or as the strings Nominatim sends; undefined when either is not a coordinate. */
export function coordinatesOf(latitude: unknown, longitude: unknown): { latitude: number; longitude: number } | undefined {
  const lat = typeof latitude === "string" ? decimalOf(latitude) : latitude;
  const lon = typeof longitude === "string" ? decimalOf(longitude) : longitude;
  if (typeof lat !== "number" || typeof lon !== "number" || !Number.isFinite(lat) || !Number.isFinite(lon)) return undefined;
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return undefined;
  return { latitude: lat, longitude: lon };
}

/** A provider's score as a confidence from 0 to 1 (a number out of range, or none, is `fallback`). */
export function confidenceOf(score: unknown, fallback = 0.5): number {
  const value = typeof score === "string" ? Number(score) : score;
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}

/** A decimal number as a provider writes one in a string (`"48.8588897"`); NaN for anything else (`""`, `"0x10"`). */
function decimalOf(text: string): number {
  return /^[+-]?\d{1,3}(\.\d{1,15})?$/.test(text) ? Number(text) : Number.NaN;
}

/** Whether a box crosses the antimeridian (its west edge east of its east edge): the providers' boxes cannot say so. */
export function crossesAntimeridian(box: NonNullable<ForwardQuery["bbox"]>): boolean {
  return box.west > box.east;
}

/** A box's centre, for a provider that takes a point to bias by and no box (or not this one). */
export function boxCentre(box: NonNullable<ForwardQuery["bbox"]>): { latitude: number; longitude: number } {
  const width = crossesAntimeridian(box) ? box.east + 360 - box.west : box.east - box.west;
  const longitude = box.west + width / 2;
  return { latitude: (box.south + box.north) / 2, longitude: longitude > 180 ? longitude - 360 : longitude };
}

/**
 * The forward endpoint beside a configured reverse one (GEOAPIFY_URL, HERE_URL, NOMINATIM_URL, a replica's):
 * its path's last segment `reverse` (`reverse.php`, `revgeocode`) is replaced by the forward one; a path
 * without it gets the forward segment added. The query string is kept.
 */
export function siblingEndpoint(configured: string, reverseSegment: RegExp, forwardSegment: string): URL {
  const url = new URL(configured);
  const path = url.pathname.replace(/\/+$/, "");
  const last = path.slice(path.lastIndexOf("/") + 1);
  url.pathname = reverseSegment.test(last) ? `${path.slice(0, path.length - last.length)}${forwardSegment}` : `${path}/${forwardSegment}`;
  return url;
}

/** Degrees as every provider parses them: fixed-point, never `1e-7`. */
export function degreesText(value: number): string {
  return value.toFixed(7);
}
