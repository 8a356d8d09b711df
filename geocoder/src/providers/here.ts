import type { Address } from "../addresses/address.ts";
import { completeAddress } from "../addresses/address-fields.ts";
import { firstField, isProviderRecord, readField } from "./provider-record.ts";
import { resolveCountry } from "../addresses/country.ts";
import { UnexpectedPayload } from "./provider-error.ts";
import type { ReverseQuery } from "./reverse-query.ts";

/** HERE Geocoding & Search API v7, `GET /revgeocode`. */
export const hereRevgeocodeUrl = "https://revgeocode.search.hereapi.com/v1/revgeocode";

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

/** HERE's body as addresses: one per `items[]` entry, in HERE's order. */
export function mapHerePayload(body: unknown): Address[] {
  if (!isProviderRecord(body)) throw new UnexpectedPayload("HERE answered with something other than a JSON object");
  if (!Array.isArray(body.items)) throw new UnexpectedPayload("HERE answered without an items array");
  return body.items.flatMap((item: unknown) => {
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
