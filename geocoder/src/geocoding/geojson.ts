import { InvalidRequest } from "@linkgeo/shared";
import { t, type Static } from "elysia";
import { addressFieldNames, type Address } from "../addresses/address.ts";

/** GeoJSON's media type (RFC 7946, section 12). */
export const geoJsonType = "application/geo+json";

/** The answer formats of `/reverse-geocode` and its batch: the JSON envelope, or a GeoJSON FeatureCollection. */
export const answerFormats = ["json", "geojson"] as const;
export type AnswerFormat = (typeof answerFormats)[number];

/**
 * The format asked for: `format=` when given (any other value is a 400), else
 * GeoJSON when the Accept header names it, else the JSON envelope. Errors
 * are the JSON error shape in either format.
 */
export function answerFormat(format: string | undefined, accept: string | null): AnswerFormat {
  if (format !== undefined) {
    if ((answerFormats as readonly string[]).includes(format)) return format as AnswerFormat;
    throw InvalidRequest.because(`format must be ${answerFormats.join(" or ")}`);
  }
  const names = (accept ?? "").split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  return names.includes(geoJsonType) ? "geojson" : "json";
}

const PointFeature = t.Object({
  type: t.Literal("Feature"),
  // The point asked about: addresses carry no coordinates of their own. Null for a point whose coordinates were refused.
  geometry: t.Union([t.Object({ type: t.Literal("Point"), coordinates: t.Tuple([t.Number(), t.Number()]) }), t.Null()]),
  properties: t.Record(t.String(), t.Unknown()),
});
type PointFeature = Static<typeof PointFeature>;

/** The answer as GeoJSON (RFC 7946), for the API's schema and its description. */
export const FeatureCollection = t.Object(
  { type: t.Literal("FeatureCollection"), features: t.Array(PointFeature) },
  { title: "ReverseGeocodeFeatureCollection", description: "format=geojson (application/geo+json)" },
);
export type FeatureCollection = Static<typeof FeatureCollection>;

const noAddress = Object.fromEntries(addressFieldNames.map((field) => [field, null])) as Record<keyof Address, null>;

/**
 * A point's features: one per address, each with the address's fields and
 * `extra` (provider, cache; a batch's id and index) as properties, at the
 * point (RFC 7946 order: longitude, latitude). `always`: a point with no
 * address (or an error) still gets one feature, its address fields null,
 * so a batch's collection keeps one feature per point at least.
 */
export function pointFeatures(
  at: { latitude: number; longitude: number } | null,
  addresses: readonly Address[],
  extra: Record<string, unknown>,
  { always = false } = {},
): PointFeature[] {
  const geometry = at && { type: "Point" as const, coordinates: [at.longitude, at.latitude] as [number, number] };
  const found = addresses.map((address) => ({ type: "Feature" as const, geometry, properties: { ...address, ...extra } }));
  if (found.length > 0 || !always) return found;
  return [{ type: "Feature", geometry, properties: { ...noAddress, ...extra } }];
}

/**
 * A forward query's features: one per place, at the place's own point, its
 * address fields, confidence and id with `extra` as properties; a query with
 * no place (or an error) one feature, its fields null and no geometry.
 */
export function placeFeatures(places: ReadonlyArray<Address & { latitude: number; longitude: number }>, extra: Record<string, unknown>): PointFeature[] {
  if (places.length === 0) return pointFeatures(null, [], extra, { always: true });
  return places.flatMap(({ latitude, longitude, ...properties }) => pointFeatures({ latitude, longitude }, [properties], extra));
}

export function featureCollection(features: PointFeature[]): FeatureCollection {
  return { type: "FeatureCollection", features };
}
