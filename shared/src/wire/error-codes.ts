/**
 * Every `error.code` the three services answer with: a closed list, so a
 * client can switch on it, and the OpenAPI error schema lists it as an enum.
 * A new code is added here first.
 */
export const errorCodes = [
  "invalid_request",
  "invalid_url",
  "invalid_coordinates",
  "unknown_platform",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "quota_exceeded",
  "insufficient_storage",
  "internal_error",
  "providers_failed",
  "upstream_unavailable",
  "no_providers",
  "service_unavailable",
  "upstream_timeout",
  "client_closed_request",
  "gone",
  "harmful_destination",
  "quarantined",
] as const;

export type ErrorCode = (typeof errorCodes)[number];
