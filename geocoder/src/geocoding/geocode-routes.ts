import { ErrorBody } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import { Address } from "../addresses/address.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import { parseReverseQuery } from "./coordinates.ts";
import type { ReverseGeocoder } from "./reverse-geocoder.ts";

export const ReverseEnvelope = t.Object({ success: t.Literal(true), data: t.Array(Address), error: t.Null() }, { title: "ReverseGeocodeResult" });

export const FailureEnvelope = t.Object(
  { success: t.Literal(false), data: t.Array(Address, { maxItems: 0 }), error: ErrorBody.properties.error },
  { title: "ReverseGeocodeFailure" },
);

const GeocoderList = t.Object(
  { geocoders: t.Array(t.Object({ name: t.String({ examples: ["NOMINATIM_REPLICA_1"] }), url: t.String() })) },
  { title: "Geocoders" },
);

const tags = ["geocoding"];

export function geocodeRoutes({ geocoder, registry }: { geocoder: ReverseGeocoder; registry: ProviderRegistry }) {
  return new Elysia()
    .get(
      "/reverse-geocode",
      async ({ query, set }) => {
        // Checked here rather than by the schema, to answer invalid_coordinates.
        const reverseQuery = parseReverseQuery(query);
        const answer = await geocoder.reverse(reverseQuery, query.platform);
        set.headers["x-cache"] = answer.cache;
        set.headers["x-geocoder-provider"] = answer.provider;
        return { success: true as const, data: answer.addresses, error: null };
      },
      {
        query: t.Object({
          latitude: t.Optional(t.String({ description: "Decimal degrees, -90 to 90", examples: ["48.8584"] })),
          longitude: t.Optional(t.String({ description: "Decimal degrees, -180 to 180", examples: ["2.2945"] })),
          platform: t.Optional(t.String({ description: "A registered geocoder, any case (see /geocoders); default: the default chain" })),
          language: t.Optional(t.String({ description: "Preferred language of the answer, e.g. en, de, pt-BR" })),
        }),
        response: { 200: ReverseEnvelope, 400: FailureEnvelope, 429: FailureEnvelope, 502: FailureEnvelope, 503: FailureEnvelope },
        detail: {
          summary: "Addresses at a latitude and longitude",
          description: "Answered from cache level 1 (Redis), level 2 (SQLite) or a provider; see the X-Cache and X-Geocoder-Provider headers.",
          tags,
        },
      },
    )
    .get("/geocoders", () => ({ geocoders: registry.list() }), {
      response: GeocoderList,
      detail: { summary: "The registered geocoders (no key is ever shown)", tags },
    });
}
