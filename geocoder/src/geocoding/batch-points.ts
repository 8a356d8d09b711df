import { HttpError } from "@linkgeo/shared";
import type { Address } from "../addresses/address.ts";
import type { ForwardPlace } from "../providers/forward-query.ts";
import type { ReverseQuery } from "../providers/reverse-query.ts";
import type { ForwardOutcome } from "./forward-geocoder.ts";
import { parseReverseQuery } from "./coordinates.ts";
import type { PointOutcome } from "./reverse-geocoder.ts";

/** A point of a batch or a job as sent: coordinates are any JSON value, checked per point. */
export interface SentPoint {
  latitude?: unknown;
  longitude?: unknown;
}

/** A point's own error, as the error body says it, with the point's index. */
export type PointError = { code: string; message: string; index: number } & Record<string, unknown>;

/** A point's query, or the error that refuses it (never thrown: a bad point is its own, never its batch's). */
export function checkPoint(point: SentPoint, language: string | undefined, index: number): { query: ReverseQuery } | { error: PointError } {
  try {
    return { query: parseReverseQuery({ latitude: coordinateText(point.latitude), longitude: coordinateText(point.longitude), language }) };
  } catch (error) {
    return { error: pointError(error, index) };
  }
}

/** What a point ended with, as a batch's result and a job's give it. */
export function pointResultOf(outcome: PointOutcome, index: number) {
  if ("answer" in outcome) return { data: outcome.answer.addresses, error: null, provider: outcome.answer.provider, cache: outcome.answer.cache };
  return { data: [], error: pointError(outcome.error, index), provider: null, cache: null };
}

/** A place of a forward answer as the API shows it: the address's fields, its point, the provider's confidence and id. */
export type PlaceResult = Address & { latitude: number; longitude: number; confidence: number; provider_id: string | null };

/** A forward answer's places as the API shows them (GET /geocode, a batch, a job's results). */
export function placeResults(places: readonly ForwardPlace[]): PlaceResult[] {
  return places.map(({ address, latitude, longitude, confidence, providerId }) => ({ ...address, latitude, longitude, confidence, provider_id: providerId }));
}

/** What a forward query ended with, as a forward batch's result and a forward job's give it. */
export function queryResultOf(outcome: ForwardOutcome, index: number) {
  if ("answer" in outcome) return { data: placeResults(outcome.answer.places), error: null, provider: outcome.answer.provider, cache: outcome.answer.cache };
  return { data: [], error: pointError(outcome.error, index, "query"), provider: null, cache: null };
}

/** A point's coordinate as parseReverseQuery reads it: a string as sent, a number written out without an exponent; anything else fails its check. */
function coordinateText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value.toFixed(15).replace(/\.?0+$/, "");
  // A list, an object, true: written as JSON, which no coordinate looks like.
  return (JSON.stringify(value) ?? "?").slice(0, 40);
}

/** A point's (or a forward query's) own error, as the error body says it, with its index; one that is not ours says no more than that. */
export function pointError(error: unknown, index: number, item: "point" | "query" = "point"): PointError {
  if (error instanceof HttpError) return { ...error.details, code: error.code, message: error.message, index };
  return { code: "internal_error", message: `this ${item} could not be answered`, index };
}
