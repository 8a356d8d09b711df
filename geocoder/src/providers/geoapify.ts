import type { Address } from "../addresses/address.ts";
import { completeAddress } from "../addresses/address-fields.ts";
import { firstField, isProviderRecord, readField, type ProviderRecord } from "./provider-record.ts";
import { resolveCountry } from "../addresses/country.ts";
import { UnexpectedPayload } from "./provider-error.ts";
import type { ReverseQuery } from "./reverse-query.ts";

/** https://apidocs.geoapify.com/docs/geocoding/reverse-geocoding/ */
export const geoapifyReverseUrl = "https://api.geoapify.com/v1/geocode/reverse";

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
