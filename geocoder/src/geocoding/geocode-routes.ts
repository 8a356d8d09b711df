import { ErrorBody, InvalidRequest, maxBatchPoints } from "@linkgeo/shared";
import { Elysia, t } from "elysia";
import { Address } from "../addresses/address.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import { checkPoint, placeResults, pointError, pointResultOf, queryResultOf, type PointError } from "./batch-points.ts";
import { checkedLanguage, parseReverseQuery } from "./coordinates.ts";
import { answerFormat, FeatureCollection, featureCollection, geoJsonType, placeFeatures, pointFeatures } from "./geojson.ts";
import type { ReverseGeocoder } from "./reverse-geocoder.ts";
import type { ForwardGeocoder } from "./forward-geocoder.ts";
import { ItemId, SentPointItem, SentQueryItem, sentSettings } from "./sent-items.ts";
import { defaultForwardLimit, maxForwardLimit, maxQueryLength, parseForwardQuery, parseSentForwardQuery } from "./forward-params.ts";
import type { ForwardQuery } from "../providers/forward-query.ts";

export const ReverseEnvelope = t.Object({ success: t.Literal(true), data: t.Array(Address), error: t.Null() }, { title: "ReverseGeocodeResult" });

export const FailureEnvelope = t.Object(
  { success: t.Literal(false), data: t.Array(Address, { maxItems: 0 }), error: ErrorBody.properties.error },
  { title: "ReverseGeocodeFailure" },
);

const GeocoderList = t.Object(
  { geocoders: t.Array(t.Object({ name: t.String({ examples: ["NOMINATIM_REPLICA_1"] }), url: t.String() })) },
  { title: "Geocoders" },
);

const BatchRequest = t.Object(
  { points: t.Array(SentPointItem, { minItems: 1, maxItems: maxBatchPoints }), ...sentSettings(false) },
  { title: "ReverseGeocodeBatchRequest" },
);

const PointResult = t.Object(
  {
    id: t.Union([ItemId, t.Null()]),
    data: t.Array(Address),
    error: t.Union([t.Object({ code: t.String(), message: t.String(), index: t.Integer() }, { additionalProperties: true }), t.Null()]),
    provider: t.Union([t.String(), t.Null()]),
    cache: t.Union([t.UnionEnum(["L1", "L2", "MISS"]), t.Null()]),
  },
  { title: "ReverseGeocodePointResult" },
);

const BatchEnvelope = t.Object({ success: t.Literal(true), results: t.Array(PointResult), error: t.Null() }, { title: "ReverseGeocodeBatchResult" });

const FormatQuery = t.Optional(
  t.String({
    description:
      "json (the default) or geojson: a FeatureCollection of Points (application/geo+json, RFC 7946), one per address at the point asked about, with the address fields, provider and cache as properties. Accept: application/geo+json asks for it too. Errors keep the JSON error shape.",
    examples: ["geojson"],
  }),
);

const tags = ["geocoding"];

const ForwardResult = t.Composite(
  [
    Address,
    t.Object({
      latitude: t.Number({ description: "The place's point, decimal degrees", examples: [48.8534] }),
      longitude: t.Number({ examples: [2.3488] }),
      confidence: t.Number({ minimum: 0, maximum: 1, description: "How sure the provider is of the match, 0 to 1" }),
      provider_id: t.Union([t.String(), t.Null()], { description: "The provider's own id of the place", examples: ["geonames:2988507"] }),
    }),
  ],
  { title: "ForwardGeocodeResult" },
);

const ForwardEnvelope = t.Object({ success: t.Literal(true), data: t.Array(ForwardResult), error: t.Null() }, { title: "ForwardGeocodeResults" });

const ForwardBatchRequest = t.Object(
  { queries: t.Array(SentQueryItem, { minItems: 1, maxItems: maxBatchPoints }), ...sentSettings(true) },
  { title: "ForwardGeocodeBatchRequest" },
);

const ForwardBatchEnvelope = t.Object(
  {
    success: t.Literal(true),
    results: t.Array(
      t.Object(
        {
          id: t.Union([ItemId, t.Null()]),
          data: t.Array(ForwardResult),
          error: PointResult.properties.error,
          provider: t.Union([t.String(), t.Null()]),
          cache: t.Union([t.UnionEnum(["L1", "L2", "MISS"]), t.Null()]),
        },
        { title: "ForwardGeocodeQueryResult" },
      ),
    ),
    error: t.Null(),
  },
  { title: "ForwardGeocodeBatchResult" },
);

export function geocodeRoutes({ geocoder, forward, registry }: { geocoder: ReverseGeocoder; forward: ForwardGeocoder; registry: ProviderRegistry }) {
  return new Elysia()
    .get(
      "/geocode",
      async ({ query, set, request }) => {
        const format = answerFormat(query.format, request.headers.get("accept"));
        const forwardQuery = parseForwardQuery(query);
        const answer = await forward.forward(forwardQuery, query.platform);
        set.headers["x-cache"] = answer.cache;
        set.headers["x-geocoder-provider"] = answer.provider;
        const data = placeResults(answer.places);
        if (format === "geojson") {
          set.headers["content-type"] = geoJsonType;
          return featureCollection(
            data.flatMap(({ latitude, longitude, ...properties }) =>
              pointFeatures({ latitude, longitude }, [properties], { provider: answer.provider, cache: answer.cache }),
            ),
          );
        }
        return { success: true as const, data, error: null };
      },
      {
        query: t.Object({
          q: t.Optional(t.String({ description: `The name or address to look for, at most ${maxQueryLength} characters`, examples: ["Paris, TX"] })),
          limit: t.Optional(t.String({ description: `Places at most, 1 to ${maxForwardLimit}; default ${defaultForwardLimit}`, examples: ["5"] })),
          country: t.Optional(t.String({ description: "Only places of these countries: ISO 3166-1 alpha-2 codes, comma-separated", examples: ["us,ca"] })),
          language: t.Optional(t.String({ description: "Preferred language of the answers, e.g. en, de, pt-BR" })),
          near: t.Optional(t.String({ description: "Places near this point first: latitude,longitude", examples: ["33.66,-95.55"] })),
          bbox: t.Optional(t.String({ description: "Places in this box first: west,south,east,north in degrees", examples: ["-100,30,-90,36"] })),
          platform: t.Optional(t.String({ description: "A registered geocoder with a forward search, any case; default: the default chain" })),
          format: FormatQuery,
        }),
        response: {
          200: t.Union([ForwardEnvelope, FeatureCollection]),
          400: FailureEnvelope,
          429: FailureEnvelope,
          502: FailureEnvelope,
          503: FailureEnvelope,
        },
        detail: {
          summary: "Places for a name or an address (forward geocoding)",
          description:
            "Best first, each an address with its point, a confidence and the provider's id. The same chain, failure rules, budgets and caches as reverse geocoding; LOCAL answers settlements offline, typos forgiven. See X-Cache and X-Geocoder-Provider.",
          tags,
        },
      },
    )
    .get(
      "/reverse-geocode",
      async ({ query, set, request }) => {
        const format = answerFormat(query.format, request.headers.get("accept"));
        // Checked here rather than by the schema, to answer invalid_coordinates.
        const reverseQuery = parseReverseQuery(query);
        const answer = await geocoder.reverse(reverseQuery, query.platform);
        set.headers["x-cache"] = answer.cache;
        set.headers["x-geocoder-provider"] = answer.provider;
        if (format === "geojson") {
          set.headers["content-type"] = geoJsonType;
          return featureCollection(pointFeatures(reverseQuery, answer.addresses, { provider: answer.provider, cache: answer.cache }));
        }
        return { success: true as const, data: answer.addresses, error: null };
      },
      {
        query: t.Object({
          latitude: t.Optional(t.String({ description: "Decimal degrees, -90 to 90", examples: ["48.8584"] })),
          longitude: t.Optional(t.String({ description: "Decimal degrees, -180 to 180", examples: ["2.2945"] })),
          platform: t.Optional(t.String({ description: "A registered geocoder, any case (see /geocoders); default: the default chain" })),
          language: t.Optional(t.String({ description: "Preferred language of the answer, e.g. en, de, pt-BR" })),
          format: FormatQuery,
        }),
        response: {
          200: t.Union([ReverseEnvelope, FeatureCollection]),
          400: FailureEnvelope,
          429: FailureEnvelope,
          502: FailureEnvelope,
          503: FailureEnvelope,
        },
        detail: {
          summary: "Addresses at a latitude and longitude",
          description: "Answered from cache level 1 (Redis), level 2 (SQLite) or a provider; see the X-Cache and X-Geocoder-Provider headers.",
          tags,
        },
      },
    )
    .post(
      "/reverse-geocode/batch",
      async ({ body, query, request, set }) => {
        const format = answerFormat(query.format, request.headers.get("accept"));
        checkedLanguage(body.language);
        const checked = body.points.map((point, index) => checkPoint(point, body.language, index));
        const answered = await geocoder.reverseMany(
          checked.flatMap((point) => ("query" in point ? [point.query] : [])),
          body.platform,
        );
        let next = 0;
        const results = checked.map((point, index) => {
          const id = body.points[index]!.id ?? null;
          if ("error" in point) return { id, data: [], error: point.error, provider: null, cache: null };
          return { id, ...pointResultOf(answered[next++]!, index) };
        });
        if (format === "geojson") {
          // One feature per address of each point, and one (its address fields null) for a point with none or with an error.
          const features = results.flatMap(({ data, ...rest }, index) => {
            const point = checked[index]!;
            return pointFeatures("query" in point ? point.query : null, data, { ...rest, index }, { always: true });
          });
          set.headers["content-type"] = geoJsonType;
          return featureCollection(features);
        }
        return { success: true as const, results, error: null };
      },
      {
        // Before the schema: Elysia would coerce a string sent as `points` into a list of its characters.
        transform: ({ body }) => {
          const points = (body as { points?: unknown } | null)?.points;
          if (!Array.isArray(points) || points.some((point) => typeof point !== "object" || point === null || Array.isArray(point))) {
            throw InvalidRequest.because(`points must be a list of 1 to ${maxBatchPoints} objects with latitude and longitude`);
          }
        },
        body: BatchRequest,
        query: t.Object({ format: FormatQuery }),
        response: { 200: t.Union([BatchEnvelope, FeatureCollection]), 400: FailureEnvelope, 503: FailureEnvelope },
        detail: {
          summary: "Addresses at up to 1,000 points in one call",
          description:
            "Each point is answered as GET /reverse-geocode would answer it, in the order sent: equal points are asked once, the cache levels are read once for the whole batch, the misses share one chain budget. A point that cannot be answered (invalid_coordinates, providers_failed, rate_limited) has its own error and index; the batch still answers 200. An unknown platform or a body out of shape is a 400 for the whole batch.",
          tags,
        },
      },
    )
    .post(
      "/geocode/batch",
      async ({ body, query, request, set }) => {
        const format = answerFormat(query.format, request.headers.get("accept"));
        checkedLanguage(body.language);
        const checked = body.queries.map((sent, index): { query: ForwardQuery } | { error: PointError } => {
          try {
            return { query: parseSentForwardQuery(sent, body.language) };
          } catch (error) {
            return { error: pointError(error, index, "query") };
          }
        });
        const answered = await forward.forwardMany(
          checked.flatMap((item) => ("query" in item ? [item.query] : [])),
          body.platform,
        );
        let next = 0;
        const results = checked.map((item, index) => {
          const id = body.queries[index]!.id ?? null;
          if ("error" in item) return { id, data: [], error: item.error, provider: null, cache: null };
          return { id, ...queryResultOf(answered[next++]!, index) };
        });
        if (format === "geojson") {
          // A feature per place at its own point; a query with none (or an error) one feature, its fields null.
          const features = results.flatMap(({ data, ...rest }, index) => placeFeatures(data, { ...rest, index }));
          set.headers["content-type"] = geoJsonType;
          return featureCollection(features);
        }
        return { success: true as const, results, error: null };
      },
      {
        // Before the schema: Elysia would coerce a string sent as `queries` into a list of its characters.
        transform: ({ body }) => {
          const queries = (body as { queries?: unknown } | null)?.queries;
          if (!Array.isArray(queries) || queries.some((item) => typeof item !== "object" || item === null || Array.isArray(item))) {
            throw InvalidRequest.because(`queries must be a list of 1 to ${maxBatchPoints} objects with q`);
          }
        },
        body: ForwardBatchRequest,
        query: t.Object({ format: FormatQuery }),
        response: { 200: t.Union([ForwardBatchEnvelope, FeatureCollection]), 400: FailureEnvelope, 503: FailureEnvelope },
        detail: {
          summary: "Places for up to 1,000 names or addresses in one call",
          description:
            "Each query is answered as GET /geocode would answer it, in the order sent: equal queries are asked once, the cache levels are read once for the whole batch, the misses share one chain budget. A query that cannot be answered has its own error and index; the batch still answers 200. An unknown platform or a body out of shape is a 400 for the whole batch.",
          tags,
        },
      },
    )
    .get("/geocoders", () => ({ geocoders: registry.list() }), {
      response: GeocoderList,
      detail: { summary: "The registered geocoders (no key is ever shown)", tags },
    });
}
