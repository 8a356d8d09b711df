/**
 * Why a provider gave no answer. `reason` is safe to show to clients: it
 * never holds a key, a URL with a key, or a raw body.
 */
export type ProviderFailure =
  | "timeout" // no answer within the time limit
  | "unreachable" // connection refused, reset, DNS failure
  | "unauthorized" // 401/403: a bad or expired key
  | "rate_limited" // 429, or our own limit for it is used up
  | "upstream_error" // 5xx
  | "bad_request" // another 4xx
  | "bad_response" // a body that is not the documented JSON (HTML, cut off)
  | "cooling_down"; // skipped: it failed repeatedly (a provider still in its Retry-After is rate_limited)

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly failure: ProviderFailure,
    detail: string,
    /** For rate_limited and cooling_down: when it may be tried again. */
    readonly retryAt?: Date,
  ) {
    super(`${provider}: ${detail}`);
    this.name = "ProviderError";
  }
}

/** Thrown by a payload mapper when a body is not the documented shape; becomes `bad_response`. */
export class UnexpectedPayload extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "UnexpectedPayload";
  }
}
