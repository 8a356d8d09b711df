import { HttpError } from "../http/http-error.ts";
import type { RateRule } from "./token-bucket.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";
import type { BucketDecision } from "./token-bucket.ts";

/** 429 `rate_limited`: the client's bucket is empty; Retry-After says when a token is back. */
export class RateLimited extends HttpError {
  private constructor(
    readonly retryAfterSeconds: number,
    headers: Record<string, string>,
  ) {
    super(429, "rate_limited", `too many requests, retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}`, {
      headers: { ...headers, "retry-after": String(retryAfterSeconds) },
    });
  }

  static refused(decision: BucketDecision, rule: RateRule): RateLimited {
    return new RateLimited(decision.retryAfterSeconds, rateLimitHeaders(decision, rule));
  }
}
