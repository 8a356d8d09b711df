import type { Address } from "../addresses/address.ts";
import { completeAddress } from "../addresses/address-fields.ts";
import { firstField, isProviderRecord, readField, type ProviderRecord } from "./provider-record.ts";
import { resolveCountry } from "../addresses/country.ts";
import { UnexpectedPayload } from "./provider-error.ts";
import type { ReverseQuery } from "./reverse-query.ts";
import {
  boxCentre,
  confidenceOf,
  coordinatesOf,
  crossesAntimeridian,
  degreesText,
  type ForwardPlace,
  type ForwardQuery,
  siblingEndpoint,
} from "./forward-query.ts";

/** https://apidocs.geoapify.com/docs/geocoding/reverse-geocoding/ */
export const geoapifyReverseUrl = "https://api.geoapify.com/v1/geocode/reverse";
/** https://apidocs.geoapify.com/docs/geocoding/forward-geocoding/ */
export const geoapifySearchUrl = "https://api.geoapify.com/v1/geocode/search";

export interface GeoapifyRequestOptions {
  apiKey: string;
  /** Another endpoint (GEOAPIFY_URL: a proxy, a test server); the default is geoapifyReverseUrl. */
  baseUrl?: string;
}

/** Result types whose `name` is the building or place itself; for a street or a city it is the street or city. */
const namedPlaceResultTypes = new Set(["amenity", "building"]);

export function buildGeoapifyRequest(query: ReverseQuery, options: GeoapifyRequestOptions): { url: URL; headers: Record<string, string> } {
  const url = new URL(options.baseUrl ?? geoapifyReverseUrl);
  // toFixed: String(1e-7) is "1e-7", which no provider parses; 7 decimals is about 1 cm.
  url.searchParams.set("lat", query.latitude.toFixed(7));
  url.searchParams.set("lon", query.longitude.toFixed(7));
  url.searchParams.set("format", "json");
  // Geoapify takes only a 2-letter ISO 639-1 `lang`: "en-GB" asks for "en".
  if (query.language) url.searchParams.set("lang", primaryLanguage(query.language));
  // Geoapify authenticates by query parameter only; it has no header for the key.
  url.searchParams.set("apiKey", options.apiKey);
  return { url, headers: {} };
}

/** The forward search's request: the text, its filters and bias in Geoapify's own words. */
export function buildGeoapifyForwardRequest(query: ForwardQuery, options: GeoapifyRequestOptions): { url: URL; headers: Record<string, string> } {
  // Beside a configured reverse endpoint (GEOAPIFY_URL: …/reverse → …/search).
  const url = options.baseUrl ? siblingEndpoint(options.baseUrl, /^reverse$/, "search") : new URL(geoapifySearchUrl);
  url.searchParams.set("text", query.text);
  url.searchParams.set("format", "json");
  url.searchParams.set("limit", String(query.limit));
  if (query.language) url.searchParams.set("lang", primaryLanguage(query.language));
  const filters: string[] = [];
  if (query.countries?.length) filters.push(`countrycode:${query.countries.map((code) => code.toLowerCase()).join(",")}`);
  if (filters.length > 0) url.searchParams.set("filter", filters.join("|"));
  // A bias ranks, it does not filter: a box first, then a point (Geoapify takes several, `|`-separated).
  const biases: string[] = [];
  // A box across the antimeridian is no rectangle to Geoapify: its centre biases instead.
  const { bbox } = query;
  if (bbox && !crossesAntimeridian(bbox)) biases.push(`rect:${[bbox.west, bbox.south, bbox.east, bbox.north].map(degreesText).join(",")}`);
  const point = query.near ?? (bbox && crossesAntimeridian(bbox) ? boxCentre(bbox) : undefined);
  if (point) biases.push(`proximity:${degreesText(point.longitude)},${degreesText(point.latitude)}`);
  if (biases.length > 0) url.searchParams.set("bias", biases.join("|"));
  url.searchParams.set("apiKey", options.apiKey);
  return { url, headers: {} };
}

/** Geoapify's search answer as places: each result with its point, `rank.confidence` and `place_id`. */
export function mapGeoapifyForwardPayload(body: unknown): ForwardPlace[] {
  return geoapifyResults(body).flatMap((result) => {
    const address = toAddress(result);
    const point = coordinatesOf(result.lat, result.lon);
    if (address === null || point === undefined) return [];
    const rank = isProviderRecord(result.rank) ? result.rank : {};
    return [{ address, ...point, confidence: confidenceOf(rank.confidence), providerId: readField(result, "place_id") }];
  });
}

/** Geoapify's body as addresses: `format=json` (`results`) or its default GeoJSON (`features[].properties`). */
export function mapGeoapifyPayload(body: unknown): Address[] {
  return geoapifyResults(body).flatMap((result) => {
    const address = toAddress(result);
    return address === null ? [] : [address];
  });
}

function geoapifyResults(body: unknown): ProviderRecord[] {
  if (!isProviderRecord(body)) throw new UnexpectedPayload("Geoapify answered with something other than a JSON object");
  if (body.results !== undefined) return recordArray(body.results, "results");
  if (body.features !== undefined) return recordArray(body.features, "features").map(featureProperties);
  throw new UnexpectedPayload("Geoapify answered without a results or features array");
}

function recordArray(value: unknown, key: string): ProviderRecord[] {
  if (!Array.isArray(value)) throw new UnexpectedPayload(`Geoapify's "${key}" is not an array`);
  return value.map((item: unknown) => {
    if (!isProviderRecord(item)) throw new UnexpectedPayload(`Geoapify's "${key}" holds something other than objects`);
    return item;
  });
}

/** Only the properties matter: the geometry may be a point or a polygon and is never read. */
function featureProperties(feature: ProviderRecord): ProviderRecord {
  // GeoJSON allows a feature with null properties; it says nothing, so it is dropped later.
  if (feature.properties === null) return {};
  if (!isProviderRecord(feature.properties)) throw new UnexpectedPayload("a Geoapify feature has no properties object");
  return feature.properties;
}

function toAddress(result: ProviderRecord): Address | null {
  const resultType = readField(result, "result_type");
  const placeName = resultType !== null && namedPlaceResultTypes.has(resultType) ? readField(result, "name") : null;
  return completeAddress(
    {
      postcode: readField(result, "postcode"),
      ...resolveCountry(readField(result, "country"), readField(result, "country_code")),
      state: readField(result, "state"),
      district: firstField(result, ["district", "suburb"]),
      settlement: firstField(result, ["city", "town", "village", "hamlet"]),
      street: readField(result, "street"),
      house: readField(result, "housenumber") ?? placeName,
    },
    readField(result, "formatted"),
  );
}

function primaryLanguage(languageTag: string): string {
  return (languageTag.split("-")[0] ?? languageTag).toLowerCase();
}
