import { csvRow, InvalidRequest } from "@linkgeo/shared";
import { addressFieldNames, type Address } from "../addresses/address.ts";
import type { PlaceResult } from "../geocoding/batch-points.ts";
import { geoJsonType, placeFeatures, pointFeatures } from "../geocoding/geojson.ts";
import type { JobKind, JobStore, PointResult, StoredPoint } from "./job-store.ts";

/** The formats a job's results come in; NDJSON by default. */
const resultFormats = ["ndjson", "csv", "geojson"] as const;
export type ResultFormat = (typeof resultFormats)[number];

export const resultMediaTypes: Record<ResultFormat, string> = {
  ndjson: "application/x-ndjson",
  csv: "text/csv; charset=utf-8",
  geojson: geoJsonType,
};

/** Points read from the store per query while the results stream. */
const pageSize = 1_000;

/** `format=` when given (else 400), else GeoJSON or CSV when the Accept header names it, else NDJSON. */
export function resultFormat(format: string | undefined, accept: string | null): ResultFormat {
  if (format !== undefined) {
    if ((resultFormats as readonly string[]).includes(format)) return format as ResultFormat;
    throw InvalidRequest.because(`format must be ${resultFormats.join(", ")}`);
  }
  const names = (accept ?? "").split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  if (names.includes(geoJsonType)) return "geojson";
  if (names.includes("text/csv")) return "csv";
  return "ndjson";
}

/**
 * The CSV's columns: the point (or the query), whether it is answered, the first address's fields (a forward
 * query's first place, with its point, confidence and the provider's id), who answered, and why not.
 */
export const resultCsvColumns: Record<JobKind, readonly string[]> = {
  reverse: ["index", "id", "latitude", "longitude", "status", ...addressFieldNames, "provider", "cache", "error"],
  forward: ["index", "id", "q", "status", ...addressFieldNames, "latitude", "longitude", "confidence", "provider_id", "provider", "cache", "error"],
};

/**
 * What a point without a result is: `waiting` in a running job; in a
 * cancelled job, `cancelled`, for good (it is never asked, and an answer
 * that comes back after the cancel is dropped).
 */
export type UnansweredStatus = "waiting" | "cancelled";

/**
 * A job's points in order, as they are now (a point without a result says
 * whether it waits or was cancelled: `unanswered`),
 * streamed a page at a time (a job deleted meanwhile cuts the transfer off,
 * rather than ending it as if complete): NDJSON (one object per point), CSV (one row
 * per point, its first address) or GeoJSON (a FeatureCollection: one
 * feature per address at the point, RFC 7946 order, and one with null
 * address fields for a point with none, an error, or no answer yet).
 */
export function streamResults(
  store: JobStore,
  idHash: string,
  job: { kind: JobKind; total: number; unanswered: UnansweredStatus },
  format: ResultFormat,
): ReadableStream<Uint8Array> {
  const { kind, total, unanswered } = job;
  const render = kind === "forward" ? renderedQuery : rendered;
  const encoder = new TextEncoder();
  let after = -1;
  let first = true;
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await store.points(idHash, after, pageSize);
      let text = first ? opening(kind, format) : "";
      for (const point of page) {
        text += render(point, unanswered, format, first);
        first = false;
      }
      sent += page.length;
      if (page.length === pageSize) {
        after = page[page.length - 1]!.index;
        controller.enqueue(encoder.encode(text));
        return;
      }
      // Fewer points than the job holds: it expired while they were read. A cut transfer says so; a complete-looking one would not.
      if (sent < total) {
        controller.enqueue(encoder.encode(text));
        controller.error(new Error(`the job was deleted while its results were read (${sent} of ${total} points sent)`));
        return;
      }
      controller.enqueue(encoder.encode(text + closing(format)));
      controller.close();
    },
  });
}

function opening(kind: JobKind, format: ResultFormat): string {
  if (format === "csv") return csvRow(resultCsvColumns[kind]);
  if (format === "geojson") return '{"type":"FeatureCollection","features":[';
  return "";
}

function closing(format: ResultFormat): string {
  return format === "geojson" ? "]}\n" : "";
}

function rendered(point: StoredPoint, unanswered: UnansweredStatus, format: ResultFormat, first: boolean): string {
  const status = point.result === null ? unanswered : "done";
  const result = point.result ?? { data: [], error: null, provider: null, cache: null };
  if (format === "ndjson") {
    return `${JSON.stringify({ index: point.index, id: point.id, latitude: point.latitude, longitude: point.longitude, status, ...result })}\n`;
  }
  if (format === "csv") {
    const address = result.data[0];
    return csvRow([
      String(point.index),
      point.id === null ? "" : String(point.id),
      point.latitude === null ? "" : String(point.latitude),
      point.longitude === null ? "" : String(point.longitude),
      status,
      ...addressFieldNames.map((field) => address?.[field] ?? ""),
      result.provider ?? "",
      result.cache ?? "",
      errorCell(result.error),
    ]);
  }
  const at = point.latitude === null || point.longitude === null ? null : { latitude: point.latitude, longitude: point.longitude };
  const features = pointFeatures(
    at,
    result.data as Address[],
    { index: point.index, id: point.id, status, provider: result.provider, cache: result.cache, error: result.error },
    { always: true },
  );
  return features.map((feature, i) => `${first && i === 0 ? "" : ","}${JSON.stringify(feature)}`).join("");
}

/** A forward job's query and its places: NDJSON with the query's text, a CSV row of its first place, a feature per place at the place's point. */
function renderedQuery(point: StoredPoint, unanswered: UnansweredStatus, format: ResultFormat, first: boolean): string {
  const status = point.result === null ? unanswered : "done";
  const result = point.result ?? { data: [], error: null, provider: null, cache: null };
  const places = result.data as PlaceResult[];
  const q = point.query?.text ?? null;
  if (format === "ndjson") return `${JSON.stringify({ index: point.index, id: point.id, q, status, ...result })}\n`;
  if (format === "csv") {
    const place = places[0];
    const cell = (value: string | number | null | undefined) => (value === null || value === undefined ? "" : String(value));
    return csvRow([
      String(point.index),
      cell(point.id),
      q ?? "",
      status,
      ...addressFieldNames.map((field) => place?.[field] ?? ""),
      cell(place?.latitude),
      cell(place?.longitude),
      cell(place?.confidence),
      cell(place?.provider_id),
      result.provider ?? "",
      result.cache ?? "",
      errorCell(result.error),
    ]);
  }
  const features = placeFeatures(places, { index: point.index, id: point.id, q, status, provider: result.provider, cache: result.cache, error: result.error });
  return features.map((feature, i) => `${first && i === 0 ? "" : ","}${JSON.stringify(feature)}`).join("");
}

/** A result's error in one CSV cell: its code and message, as text whatever a row kept (a job made before items were read field by field may hold any JSON there). */
function errorCell(error: PointResult["error"]): string {
  const text = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
  return error ? `${text(error.code)}: ${text(error.message)}` : "";
}
