import { isReverseBatch, maxBatchPoints, parseJson } from "@linkgeo/shared";
import { RateLimited } from "./rate-limited.ts";
import type { RateRule, TokenBuckets } from "./token-bucket.ts";

/**
 * The budget of geocoding points per client address: a batch of 1,000
 * points costs 1,000 tokens here, where it cost one request of the API
 * budget before its body was read (rate-limit-plugin.ts). Taken after the
 * body is read (the points are in it) and before the geocoder sees it; a
 * refusal is 429 with Retry-After (the wait for all of the batch's points),
 * RateLimit-* headers of this budget. A body whose points cannot be counted
 * costs nothing here: the geocoder answers it 400. A single
 * `GET /reverse-geocode` is one request of the API budget only.
 * RATE_LIMIT_GEOCODE_POINTS=off turns it off.
 */
export async function takeGeocodePoints(buckets: TokenBuckets, rule: RateRule, request: Request, body: ArrayBuffer | null, bucket: string): Promise<void> {
  if (!isReverseBatch(request)) return;
  const points = pointsIn(body);
  if (points === 0) return;
  const decision = await buckets.take(`points:${bucket}`, rule, points);
  if (!decision.allowed) throw RateLimited.refused(decision, rule);
}

/** How many points the body holds, when it is a batch the geocoder would take; else 0. */
function pointsIn(body: ArrayBuffer | null): number {
  if (body === null) return 0;
  try {
    const points = (parseJson(new TextDecoder().decode(body)) as { points?: unknown } | null)?.points;
    return Array.isArray(points) && points.length <= maxBatchPoints ? points.length : 0;
  } catch {
    return 0;
  }
}
