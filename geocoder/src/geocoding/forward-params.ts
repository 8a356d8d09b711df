import { InvalidRequest } from "@linkgeo/shared";
import type { ForwardQuery } from "../providers/forward-query.ts";
import { checkedLanguage, parseReverseQuery } from "./coordinates.ts";
import { InvalidCoordinates } from "./geocode-errors.ts";
import { isCountryCode } from "../addresses/country.ts";

/** The longest query text taken (a place's name with its region and country is far shorter). */
export const maxQueryLength = 200;
/** Places answered at most, and by default. */
export const maxForwardLimit = 20;
export const defaultForwardLimit = 5;
/** Countries one query may name. */
const maxCountries = 20;

const decimalNumber = /^[+-]?(\d{1,3}(\.\d{1,15})?|\.\d{1,15})$/;

/** Reads and checks the query string of `GET /geocode` (docs/geocoder.md: "Forward geocoding"). */
export function parseForwardQuery(raw: { q?: string; limit?: string; country?: string; language?: string; near?: string; bbox?: string }): ForwardQuery {
  const text = (raw.q ?? "").trim();
  if (text === "") throw InvalidRequest.because("q is required: the name or address to look for");
  // Characters, not UTF-16 units: a query in another script is not cut short for its surrogates.
  if ([...text].length > maxQueryLength) throw InvalidRequest.because(`q must be at most ${maxQueryLength} characters`);
  if (/[\u0000-\u001f\u007f]/.test(text)) throw InvalidRequest.because("q must not hold control characters");
  const query: ForwardQuery = { text, limit: limitOf(raw.limit) };
  if (raw.country !== undefined) query.countries = countriesOf(raw.country);
  const language = checkedLanguage(raw.language);
  if (language !== undefined) query.language = language;
  if (raw.near !== undefined) query.near = nearOf(raw.near);
  if (raw.bbox !== undefined) query.bbox = boxOf(raw.bbox);
  return query;
}

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return defaultForwardLimit;
  const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= maxForwardLimit)) throw InvalidRequest.because(`limit must be a whole number from 1 to ${maxForwardLimit}`);
  return limit;
}

function countriesOf(raw: string): string[] {
  const codes = raw.split(",").map((code) => code.trim().toUpperCase());
  if (codes.length > maxCountries || !codes.every(isCountryCode)) {
    throw InvalidRequest.because(`country must be one to ${maxCountries} ISO 3166-1 alpha-2 codes, comma-separated, such as fr or us,ca`);
  }
  return [...new Set(codes)];
}

/** `near=lat,lon`: a point as /reverse-geocode takes one (its 400 invalid_coordinates names near, then the part). */
function nearOf(raw: string): { latitude: number; longitude: number } {
  const [latitude, longitude, extra] = raw.split(",");
  if (longitude === undefined || extra !== undefined) throw InvalidCoordinates.because("near must be latitude,longitude");
  try {
    const point = parseReverseQuery({ latitude: latitude?.trim(), longitude: longitude.trim() });
    return { latitude: biasDegrees(point.latitude), longitude: biasDegrees(point.longitude) };
  } catch (error) {
    if (error instanceof InvalidCoordinates) throw InvalidCoordinates.because(`near: ${error.message}`);
    throw error;
  }
}

/** `bbox=west,south,east,north` in degrees (GeoJSON's order); a box across the antimeridian has west > east. */
function boxOf(raw: string): { south: number; west: number; north: number; east: number } {
  const parts = raw.split(",").map((part) => part.trim());
  const [west, south, east, north] = parts.map(Number);
  const within = (value: number | undefined, limit: number) => value !== undefined && value >= -limit && value <= limit;
  if (
    parts.length !== 4 ||
    !parts.every((part) => decimalNumber.test(part)) ||
    !within(west, 180) ||
    !within(east, 180) ||
    !within(south, 90) ||
    !within(north, 90) ||
    south! > north!
  ) {
    throw InvalidRequest.because("bbox must be west,south,east,north in degrees, south not above north");
  }
  return { west: biasDegrees(west!), south: biasDegrees(south!), east: biasDegrees(east!), north: biasDegrees(north!) };
}

/**
 * A bias's degrees to 3 decimals (about 100 m), never -0: the question the providers are asked and the
 * cache's key are then the same, whichever nearby point asked first.
 */
function biasDegrees(value: number): number {
  return Math.round(value * 1000) / 1000 || 0;
}

/** A query of a forward batch as sent: each field any JSON value, checked per query. */
export interface SentForwardQuery {
  q?: unknown;
  limit?: unknown;
  country?: unknown;
  near?: unknown;
  bbox?: unknown;
}

/**
 * A batch's query read as `GET /geocode` reads its parameters (the same
 * rules and messages): a number is taken for `limit`, a list of codes for
 * `country`; anything else of the wrong kind fails its check.
 */
export function parseSentForwardQuery(sent: SentForwardQuery, language: string | undefined): ForwardQuery {
  const text = (name: string, value: unknown): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value) && name === "limit") return String(value);
    if (Array.isArray(value) && name === "country" && value.every((code) => typeof code === "string")) return value.join(",");
    throw InvalidRequest.because(`${name} must be ${name === "q" ? "text" : "as GET /geocode takes it"}`);
  };
  return parseForwardQuery({
    q: text("q", sent.q) ?? "",
    limit: text("limit", sent.limit),
    country: text("country", sent.country),
    near: text("near", sent.near),
    bbox: text("bbox", sent.bbox),
    language,
  });
}
