import type { RateRule } from "./token-bucket.ts";
import type { BucketDecision } from "./token-bucket.ts";

/**
 * The RateLimit-* fields of draft-ietf-httpapi-ratelimit-headers-06
 * (https://datatracker.ietf.org/doc/html/draft-ietf-httpapi-ratelimit-headers-06),
 * the last draft with separate fields, which is what existing clients read.
 *
 * For a token bucket: Limit is the burst, Remaining the whole tokens left,
 * Reset the seconds until the bucket is full again (when Remaining would be
 * back at Limit). Policy states the rule as "burst per time to refill it":
 * 20/min is `20;w=60`, 120 at 2/s is `120;w=60`.
 */
export function rateLimitHeaders(decision: BucketDecision, rule: RateRule): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(decision.resetSeconds),
    "ratelimit-policy": `${rule.capacity};w=${Math.max(1, Math.round(rule.capacity / rule.perSecond))}`,
  };
}

const rateLimitHeaderNames = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"] as const;

/**
 * `response` with the RateLimit-* admission wrote into the answer's headers
 * (Elysia's `set.headers`, where an error answer finds them) moved onto it:
 * left there, they would make Elysia copy the whole Response.
 */
export function withRateLimitHeaders(response: Response, answerHeaders: Record<string, unknown>): Response {
  for (const name of rateLimitHeaderNames) {
    const value = answerHeaders[name];
    if (value === undefined) continue;
    response.headers.set(name, String(value));
    delete answerHeaders[name];
  }
  return response;
}
