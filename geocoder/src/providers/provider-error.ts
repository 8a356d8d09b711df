import type { ProviderFailure } from "../health/provider-failure.ts";

export type { ProviderFailure } from "../health/provider-failure.ts";

/**
 * A provider gave no answer, and why (`failure`). The message is safe to show
 * to clients: it never holds a key, a URL with a key, or a raw body.
 */
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
