import type { Address } from "../addresses/address.ts";
import { completeAddress } from "../addresses/address-fields.ts";
import { firstField, isProviderRecord, readField } from "./provider-record.ts";
import { alpha3CountryCode, resolveCountry } from "../addresses/country.ts";
import { UnexpectedPayload } from "./provider-error.ts";
import type { ReverseQuery } from "./reverse-query.ts";
import { boxCentre, confidenceOf, coordinatesOf, degreesText, type ForwardPlace, type ForwardQuery, siblingEndpoint } from "./forward-query.ts";

/** HERE Geocoding & Search API v7, `GET /revgeocode`. */
export const hereRevgeocodeUrl = "https://revgeocode.search.hereapi.com/v1/revgeocode";
/** HERE Geocoding & Search API v7, `GET /geocode`. */
export const hereGeocodeUrl = "https://geocode.search.hereapi.com/v1/geocode";

export interface HereRequestOptions {
  apiKey: string;
  /** Another endpoint (HERE_URL: a proxy, a test server); the default is hereRevgeocodeUrl. */
  baseUrl?: string;
}

export function buildHereRequest(query: ReverseQuery, options: HereRequestOptions): { url: URL; headers: Record<string, string> } {
  const url = new URL(options.baseUrl ?? hereRevgeocodeUrl);
  // toFixed: String(1e-7) is "1e-7", which no provider parses; 7 decimals is about 1 cm.
  url.searchParams.set("at", `${query.latitude.toFixed(7)},${query.longitude.toFixed(7)}`);
  // HERE takes a BCP 47 tag as it is ("en-GB").
  if (query.language) url.searchParams.set("lang", query.language);
  // An API key goes in the query; the Authorization header is for OAuth bearer tokens, which we do not use.
  url.searchParams.set("apiKey", options.apiKey);
  return { url, headers: {} };
}

/**
 * The forward search's request. The countries filter (`in=countryCode:`, as ISO alpha-3, which HERE wants);
 * HERE biases by a point only (`at`): the query's point, else its box's centre (HERE's `in=bbox:` would
 * filter, where a box here only ranks).
 */
export function buildHereForwardRequest(query: ForwardQuery, options: HereRequestOptions): { url: URL; headers: Record<string, string> } {
  // Beside a configured reverse endpoint (HERE_URL: …/revgeocode → …/geocode); HERE's own are on two hosts.
  // HERE's own endpoints are on two hosts; a configured one (a proxy, a test server) has its sibling beside it.
  const url = options.baseUrl && options.baseUrl !== hereRevgeocodeUrl ? siblingEndpoint(options.baseUrl, /^revgeocode$/, "geocode") : new URL(hereGeocodeUrl);
  url.searchParams.set("q", query.text);
  url.searchParams.set("limit", String(query.limit));
  if (query.language) url.searchParams.set("lang", query.language);
  const alpha3 = (query.countries ?? []).map(alpha3CountryCode).filter((code): code is string => code !== null);
  if (alpha3.length > 0) url.searchParams.set("in", `countryCode:${alpha3.join(",")}`);
  const point = query.near ?? (query.bbox && boxCentre(query.bbox));
  if (point) url.searchParams.set("at", `${degreesText(point.latitude)},${degreesText(point.longitude)}`);
  url.searchParams.set("apiKey", options.apiKey);
  return { url, headers: {} };
}

/** HERE's geocode answer as places: each item with its `position`, `scoring.queryScore` and `id`. */
export function mapHereForwardPayload(body: unknown): ForwardPlace[] {
  return hereItems(body).flatMap((item) => {
    const address = toAddress(item);
    const position = isProviderRecord(item) && isProviderRecord(item.position) ? item.position : {};
    const point = coordinatesOf(position.lat, position.lng);
    if (address === null || point === undefined || !isProviderRecord(item)) return [];
    const scoring = isProviderRecord(item.scoring) ? item.scoring : {};
    return [{ address, ...point, confidence: confidenceOf(scoring.queryScore), providerId: readField(item, "id") }];
  });
}

function hereItems(body: unknown): unknown[] {
  if (!isProviderRecord(body)) throw new UnexpectedPayload("HERE answered with something other than a JSON object");
  if (!Array.isArray(body.items)) throw new UnexpectedPayload("HERE answered without an items array");
  return body.items;
}

/** HERE's body as addresses: one per `items[]` entry, in HERE's order. */
export function mapHerePayload(body: unknown): Address[] {
  return hereItems(body).flatMap((item: unknown) => {
    const address = toAddress(item);
    return address === null ? [] : [address];
  });
}

function toAddress(item: unknown): Address | null {
  if (!isProviderRecord(item)) throw new UnexpectedPayload("HERE's items holds something other than objects");
  const address = item.address;
  if (!isProviderRecord(address)) throw new UnexpectedPayload("a HERE item has no address object");
  // A `place` result is a point of interest and its title is its name; for other
  // result types the title is the address line.
  const placeName = readField(item, "resultType") === "place" ? readField(item, "title") : null;
  return completeAddress(
    {
      postcode: readField(address, "postalCode"),
      // countryCode is ISO alpha-3 ("AUT"); resolveCountry turns it into alpha-2.
      ...resolveCountry(readField(address, "countryName"), readField(address, "countryCode")),
      state: readField(address, "state"),
      district: firstField(address, ["district", "subdistrict"]),
      settlement: readField(address, "city"),
      street: readField(address, "street"),
      house: firstField(address, ["houseNumber", "building"]) ?? placeName,
    },
    readField(address, "label") ?? readField(item, "title"),
  );
}
