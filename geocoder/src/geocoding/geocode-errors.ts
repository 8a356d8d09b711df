import { HttpError } from "@linkgeo/shared";
import type { ProviderError } from "../providers/provider-error.ts";

/** 400 `invalid_coordinates`: latitude or longitude missing or out of range. */
export class InvalidCoordinates extends HttpError {
  private constructor(reason: string) {
    super(400, "invalid_coordinates", reason);
  }

  static because(reason: string): InvalidCoordinates {
    return new InvalidCoordinates(reason);
  }
}

/** 400 `unknown_platform`: `platform` names no registered provider. */
export class UnknownPlatform extends HttpError {
  private constructor(message: string) {
    super(400, "unknown_platform", message);
  }

  static named(platform: string, registered: string[]): UnknownPlatform {
    const known = registered.length > 0 ? registered.map((name) => name.toLowerCase()).join(", ") : "none are configured";
    return new UnknownPlatform(`platform "${platform}" is not a registered geocoder (registered: ${known})`);
  }
}

/** 503 `no_providers`: nothing is configured to ask. */
export class NoProviders extends HttpError {
  private constructor() {
    super(
      503,
      "no_providers",
      "no geocoding provider is configured: set GEOAPIFY_API_KEY, HERE_API_KEY, NOMINATIM_USER_AGENT or NOMINATIM_REVERSER_REPLICA_URL_1",
    );
  }

  static configured(): NoProviders {
    return new NoProviders();
  }
}

/** Each provider's name and reason, for the error body (never a key or a raw body). */
function reasonsOf(failures: ProviderError[]): { name: string; reason: string }[] {
  return failures.map((failure) => ({ name: failure.provider, reason: failure.failure }));
}

/** 502 `providers_failed`: every provider tried failed; lists each one's reason. */
export class ProvidersFailed extends HttpError {
  private constructor(failures: ProviderError[]) {
    const providers = reasonsOf(failures);
    const summary = providers.map((p) => `${p.name}: ${p.reason}`).join("; ");
    super(502, "providers_failed", `every provider failed (${summary})`, { details: { providers } });
  }

  static from(failures: ProviderError[]): ProvidersFailed {
    return new ProvidersFailed(failures);
  }
}

/** 429 `rate_limited`: every provider tried is over its limit or asked us to wait: the caller should retry later. */
export class RateLimited extends HttpError {
  private constructor(seconds: number, failures: ProviderError[]) {
    super(429, "rate_limited", `the providers are rate limited; retry in ${seconds} s`, {
      headers: { "retry-after": String(seconds) },
      details: { providers: reasonsOf(failures) },
    });
  }

  static until(retryAt: Date, now: Date, failures: ProviderError[]): RateLimited {
    return new RateLimited(Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)), failures);
  }
}
