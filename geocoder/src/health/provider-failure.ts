/**
 * Why a provider gave no answer: what its health is judged by (health-rules.ts)
 * and what clients are told (providers/provider-error.ts). The list is the one
 * owner of the names; a stored health state naming another is not read.
 */
export const providerFailures = [
  "timeout", // no answer within the time limit
  "unreachable", // connection refused, reset, DNS failure
  "unauthorized", // 401/403: a bad or expired key
  "rate_limited", // 429, or our own limit for it is used up
  "upstream_error", // 5xx
  "bad_request", // another 4xx
  "bad_response", // a body that is not the documented JSON (HTML, cut off)
  "cooling_down", // skipped: it failed repeatedly (a provider still in its Retry-After is rate_limited)
] as const;

export type ProviderFailure = (typeof providerFailures)[number];
