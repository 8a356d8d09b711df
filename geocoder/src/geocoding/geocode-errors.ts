import { HttpError } from "@linkgeo/shared";
import type { ProviderError } from "../providers/provider-error.ts";

export class InvalidCoordinates extends HttpError {
  static because(reason: string): InvalidCoordinates {
    return new InvalidCoordinates(400, "invalid_coordinates", reason);
  }
}

export class UnknownPlatform extends HttpError {
  static named(platform: string, registered: string[]): UnknownPlatform {
    const known = registered.length > 0 ? registered.map((name) => name.toLowerCase()).join(", ") : "none are configured";
    return new UnknownPlatform(400, "unknown_platform", `platform "${platform}" is not a registered geocoder (registered: ${known})`);
  }
}

export class NoProviders extends HttpError {
  static configured(): NoProviders {
    return new NoProviders(
      503,
      "no_providers",
      "no geocoding provider is configured: set GEOAPIFY_API_KEY, HERE_API_KEY, NOMINATIM_USER_AGENT or NOMINATIM_REVERSER_REPLICA_URL_1",
    );
  }
}

/** Every provider tried failed; lists each one's reason (never a key or a raw body). */
export class ProvidersFailed extends HttpError {
  static from(failures: ProviderError[]): ProvidersFailed {
    const providers = failures.map((failure) => ({ name: failure.provider, reason: failure.failure }));
    const summary = providers.map((p) => `${p.name}: ${p.reason}`).join("; ");
    return new ProvidersFailed(502, "providers_failed", `every provider failed (${summary})`, {}, { providers });
  }
}

/** Every provider tried is over its limit or asked us to wait: the caller should retry later. */
export class RateLimited extends HttpError {
  static until(retryAt: Date, now: Date, failures: ProviderError[]): RateLimited {
    const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
    const providers = failures.map((failure) => ({ name: failure.provider, reason: failure.failure }));
    return new RateLimited(429, "rate_limited", `the providers are rate limited; retry in ${seconds} s`, { "retry-after": String(seconds) }, { providers });
  }
}
