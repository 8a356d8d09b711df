import { isForwardBatch, isReverseBatch, maxBatchPoints, parseJson } from "@linkgeo/shared";

/**
 * The budget of geocoding points per client address (`points:<digest>`):
 * a batch of 1,000 points costs 1,000 tokens there, where it cost one
 * request of the API budget before its body was read. Taken after the body
 * is read (the points are in it) and before the geocoder sees it
 * (admission/admission.ts); a refusal is 429 with Retry-After (the wait for
 * all of the batch's points), RateLimit-* of this budget. A body whose
 * points cannot be counted costs nothing here: the geocoder answers it 400.
 * A single `GET /reverse-geocode` is one request of the API budget only.
 * RATE_LIMIT_GEOCODE_POINTS=off turns it off.
 *
 * The points a request costs: a geocoding batch's, when the geocoder would take it; else 0.
 */
export function geocodePointsIn(request: Request, body: ArrayBuffer | null): number {
  // A forward batch's queries cost as a reverse batch's points do.
  const list = isReverseBatch(request) ? "points" : isForwardBatch(request) ? "queries" : undefined;
  if (list === undefined || body === null) return 0;
  try {
    const items = (parseJson(new TextDecoder().decode(body)) as Record<string, unknown> | null)?.[list];
    return Array.isArray(items) && items.length <= maxBatchPoints ? items.length : 0;
  } catch {
    return 0;
  }
}
