/**
 * What the geocoder's answers mean, in words for people: the cache level a
 * response came from and each error it can give. No DOM here, so the tests
 * check the wording directly.
 */
import type { Answer } from "./api-call.ts";

/** The geocoder's address object (docs/geocoder.md: "Addresses"), as GET /reverse-geocode answers it; a field the provider does not give is null. */
export type Address = Extract<Answer<"GET /reverse-geocode">, { data: unknown }>["data"][number];

/** Every field of an address, in the API's order, with its label. */
export const addressFields: ReadonlyArray<{ key: keyof Address; label: string }> = [
  { key: "formatted_address", label: "Formatted address" },
  { key: "postcode", label: "Postcode" },
  { key: "country", label: "Country" },
  { key: "country_code", label: "Country code" },
  { key: "state", label: "State" },
  { key: "district", label: "District" },
  { key: "settlement", label: "Settlement" },
  { key: "street", label: "Street" },
  { key: "house", label: "House" },
];

/** `X-Cache` in words. */
export function cacheLevelWords(header: string | null): string {
  switch (header?.trim().toUpperCase()) {
    case "L1":
      return "from the recent-answers cache (level 1)";
    case "L2":
      return "from the long-term cache (level 2)";
    case "MISS":
      return "asked the provider";
    default:
      return "not said";
  }
}

/** The reasons the geocoder gives for a provider that did not answer. */
const reasonWords: Record<string, string> = {
  timeout: "did not answer in time",
  unreachable: "could not be reached",
  unauthorized: "refused the server's key",
  rate_limited: "asked us to wait (rate limited)",
  upstream_error: "answered with an error",
  bad_request: "refused the request",
  bad_response: "sent an answer that could not be read",
  cooling_down: "is resting after recent failures",
};

/** The parts of an API error the words depend on (ApiError has them all). */
export interface GeocodeErrorLike {
  status: number;
  code: string;
  message: string;
  details?: Readonly<Record<string, unknown>>;
}

export interface GeocodeErrorWords {
  message: string;
  /** One line per provider that was asked, when the geocoder says why each failed. */
  providers: string[];
  /** The form field the error is about, to mark it invalid. */
  field?: "latitude" | "longitude" | "language" | "platform";
}

/** What went wrong, in plain words. The server's own messages are plain English and name the field. */
export function geocodeErrorWords(error: GeocodeErrorLike): GeocodeErrorWords {
  const providers = providerLines(error.details?.providers);
  switch (error.code) {
    case "invalid_coordinates": {
      const field = /^\s*(latitude|longitude)\b/i.exec(error.message)?.[1]?.toLowerCase() as "latitude" | "longitude" | undefined;
      return { message: `Those coordinates are not valid: ${sentence(error.message)}`, providers, field };
    }
    case "invalid_request":
      return {
        message: `That request is not valid: ${sentence(error.message)}`,
        providers,
        field: /^\s*language\b/i.test(error.message) ? "language" : undefined,
      };
    case "unknown_platform":
      return { message: "That provider is not registered on this server (any more). Reload the page to see the ones that are.", providers, field: "platform" };
    case "providers_failed":
      return { message: providers.length > 0 ? "No provider could answer:" : "No provider could answer.", providers };
    case "no_providers":
      return { message: "This server has no geocoding provider configured, so it cannot look up addresses. Its operator can set one up.", providers };
    case "rate_limited": {
      // The geocoder's 429 lists the providers that asked it to wait; the gateway's own has none.
      const retry = /try again[^.]*/.exec(error.message)?.[0];
      return { message: providers.length > 0 && retry ? `The providers asked us to wait: ${retry}.` : error.message, providers };
    }
    case "upstream_unavailable":
    case "upstream_timeout":
      return { message: "The geocoder service is not answering right now. Try again in a moment.", providers };
    default:
      return { message: error.message, providers };
  }
}

/** "NOMINATIM did not answer in time", from the error's `providers: [{name, reason}]`; anything else is ignored. */
function providerLines(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    const { name, reason } = (entry ?? {}) as { name?: unknown; reason?: unknown };
    if (typeof name !== "string" || typeof reason !== "string") return [];
    return [`${name} ${reasonWords[reason] ?? `failed (${reason})`}`];
  });
}

/** "latitude must be…" → "latitude must be….": the server's message as the end of our sentence. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
