import type { Address } from "../addresses/address.ts";
import { completeAddress } from "../addresses/address-fields.ts";
import { firstField, isProviderRecord, readField, type ProviderRecord } from "./provider-record.ts";
import { resolveCountry } from "../addresses/country.ts";
import { UnexpectedPayload } from "./provider-error.ts";
import type { ReverseQuery } from "./reverse-query.ts";
import { confidenceOf, coordinatesOf, crossesAntimeridian, degreesText, type ForwardPlace, type ForwardQuery, siblingEndpoint } from "./forward-query.ts";

/** https://nominatim.org/release-docs/latest/api/Reverse/ */
export const nominatimReverseUrl = "https://nominatim.openstreetmap.org/reverse";
/** https://nominatim.org/release-docs/latest/api/Search/ */
export const nominatimSearchUrl = "https://nominatim.openstreetmap.org/search";

/**
 * The public instance bans clients without an identifying User-Agent
 * (https://operations.osmfoundation.org/policies/nominatim/), so a request
 * needs either one or the base URL of a replica, which sets its own rules.
 */
export type NominatimRequestOptions = { userAgent: string; baseUrl?: string } | { baseUrl: string; userAgent?: string };

/** Nominatim's answer, with HTTP 200, when there is nothing near the point (the open sea, Null Island). */
const nothingFound = "Unable to geocode";

/** First-level region; Japan's prefectures come as `province` (東京都), with no `state`. */
const stateKeys = ["state", "province"];
/**
 * The part of a city: an explicit `city_district` first, then `suburb`, the
 * key most cities' parts come under, then `borough`; `quarter` and
 * `neighbourhood` are small areas, a last resort.
 */
const districtKeys = ["city_district", "suburb", "borough", "quarter", "neighbourhood"];
/**
 * Largest settlement first: a hamlet inside a town's boundary is reported with
 * both, and the town is the one a postal address names. `municipality` is an
 * administrative unit that can hold several villages, so it comes last.
 */
const settlementKeys = ["city", "town", "village", "hamlet", "municipality"];
/** Nominatim names a street by its highway type when it is not an ordinary road. */
const streetKeys = ["road", "pedestrian", "footway", "cycleway", "path", "bridleway"];
/** place_rank 30 is a single building or point of interest; lower ranks are streets and areas. */
const houseRank = 30;

export function buildNominatimRequest(query: ReverseQuery, options: NominatimRequestOptions): { url: URL; headers: Record<string, string> } {
  const url = new URL(options.baseUrl ?? nominatimReverseUrl);
  url.searchParams.set("format", "jsonv2");
  // toFixed: String(1e-7) is "1e-7", which no provider parses; 7 decimals is about 1 cm, OSM's own precision.
  url.searchParams.set("lat", query.latitude.toFixed(7));
  url.searchParams.set("lon", query.longitude.toFixed(7));
  url.searchParams.set("addressdetails", "1");
  if (query.language) url.searchParams.set("accept-language", query.language);
  const headers: Record<string, string> = {};
  if (options.userAgent) headers["User-Agent"] = options.userAgent;
  return { url, headers };
}

/**
 * The forward search's request (`/search`, jsonv2 with address details). A box is a `viewbox`, which
 * ranks rather than bounds (no `bounded=1`); one across the antimeridian is left out (Nominatim would read
 * the other side of the world). Nominatim has no point bias: `near` is not sent.
 */
export function buildNominatimForwardRequest(query: ForwardQuery, options: NominatimRequestOptions): { url: URL; headers: Record<string, string> } {
  // The search endpoint beside a replica's configured reverse one (…/reverse → …/search).
  const url = options.baseUrl ? siblingEndpoint(options.baseUrl, /^reverse(\.php)?$/, "search") : new URL(nominatimSearchUrl);
  url.searchParams.set("q", query.text);
  url.searchParams.set("format", "jsonv2");
  url.searchParams.set("addressdetails", "1");
  url.searchParams.set("limit", String(query.limit));
  if (query.countries?.length) url.searchParams.set("countrycodes", query.countries.map((code) => code.toLowerCase()).join(","));
  const { bbox } = query;
  if (bbox && !crossesAntimeridian(bbox)) url.searchParams.set("viewbox", [bbox.west, bbox.north, bbox.east, bbox.south].map(degreesText).join(","));
  if (query.language) url.searchParams.set("accept-language", query.language);
  const headers: Record<string, string> = {};
  if (options.userAgent) headers["User-Agent"] = options.userAgent;
  return { url, headers };
}

/** Nominatim's search answer (an array of places) as places: each with its point, `importance` and `osm_type/osm_id`. */
export function mapNominatimForwardPayload(body: unknown): ForwardPlace[] {
  if (!Array.isArray(body)) throw new UnexpectedPayload("Nominatim's search answered with something other than an array");
  return body.flatMap((place: unknown) => {
    if (!isProviderRecord(place)) throw new UnexpectedPayload("Nominatim's search answer holds something other than objects");
    const [address] = nominatimPlace(place);
    const point = coordinatesOf(place.lat, place.lon);
    if (address === undefined || point === undefined) return [];
    const osmType = readField(place, "osm_type");
    const osmId = readField(place, "osm_id");
    return [{ address, ...point, confidence: confidenceOf(place.importance), providerId: osmType && osmId ? `${osmType}/${osmId}` : null }];
  });
}

/** Nominatim's jsonv2 body as addresses: one place, or none. */
export function mapNominatimPayload(body: unknown): Address[] {
  if (!isProviderRecord(body)) throw new UnexpectedPayload("Nominatim answered with something other than a JSON object");
  if (body.error !== undefined) {
    if (body.error === nothingFound) return [];
    // Other errors (a bad parameter, an overloaded replica) are failures, not "nothing here"; the message is not echoed.
    throw new UnexpectedPayload("Nominatim answered with an error instead of a place");
  }
  return nominatimPlace(body);
}

/** One place of Nominatim's (a reverse answer, or one of a search's) as its address, or none. */
function nominatimPlace(body: ProviderRecord): Address[] {
  const address = body.address;
  if (!isProviderRecord(address)) throw new UnexpectedPayload("Nominatim answered without an address object");

  // The name of a building or shop is its house when it has no number; the
  // name of a street or a town result is not a house.
  const isHouseLevel = Number(readField(body, "place_rank")) >= houseRank;
  const placeName = isHouseLevel ? readField(body, "name") : null;
  const parts = {
    postcode: readField(address, "postcode"),
    ...resolveCountry(readField(address, "country"), readField(address, "country_code")),
    state: firstField(address, stateKeys),
    district: firstField(address, districtKeys),
    settlement: firstField(address, settlementKeys),
    street: firstField(address, streetKeys),
    house: firstField(address, ["house_number", "house_name"]) ?? placeName,
  };
  const result = completeAddress(parts, readField(body, "display_name"));
  return result === null ? [] : [result];
}
