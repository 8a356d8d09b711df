import { JsonTooDeep, parseJson, readStreamLimited, silentLogger, type LimitedBody, type Logger } from "@linkgeo/shared";
import { isHTTPError, isNetworkError, isTimeoutError, type HTTPError, type KyInstance } from "ky";
import type { Address } from "../addresses/address.ts";
import type { RateLimiter } from "../rate-limit/rate-limiter.ts";
import { ProviderError, UnexpectedPayload, type ProviderFailure } from "./provider-error.ts";
import type { Admission, ProviderHealth } from "./provider-health.ts";
import type { Provider, ReverseOptions } from "./provider.ts";
import { bodyText, excerpt, redactUrl, secretsOf } from "./provider-secrets.ts";
import { ProviderSpacing } from "./provider-spacing.ts";
import type { ReverseQuery } from "./reverse-query.ts";
import type { ForwardPlace, ForwardQuery } from "./forward-query.ts";

/** What a provider's request builder makes of a query. The URL may carry a key. */
export interface ProviderRequest {
  url: URL;
  headers: Record<string, string>;
}

/**
 * The most of a provider's body we read, answers and error pages alike. A
 * reverse-geocoding answer is a few KB (the largest recorded fixture is
 * under 10 KB); without a cap one 400 MB answer took the geocoder from 65 MB
 * to 888 MB. Past it the connection is closed and the answer is bad_response.
 */
export const maxProviderBodyBytes = 1024 * 1024;
const maxProviderBodyText = `${maxProviderBodyBytes / (1024 * 1024)} MiB`;

export const httpProviderDefaults = {
  /** Budget of one reverse() call's HTTP exchange, the retry included. */
  timeoutMs: 5_000,
  /** Pause before the one retry (a 5xx or a failed connection is often a blip). */
  retryDelayMs: 200,
  /** Longest wait for a slot of our own rate limit before answering rate_limited. */
  maxRateLimitWaitMs: 2_000,
  /** Out of rotation after a 429 without a usable Retry-After. */
  retryAfterDefaultMs: 60_000,
  /**
   * Longest Retry-After we obey: a provider (or a proxy in front of it) asking
   * for hours or days costs us one request per cap to find out, while obeying
   * it blindly could keep a provider out long after it is back.
   */
  retryAfterMaxMs: 10 * 60_000,
} as const;

export interface HttpProviderOptions {
  /** Upper case: GEOAPIFY, HERE, NOMINATIM, NOMINATIM_REPLICA_1, … */
  name: string;
  /** The endpoint shown by GET /geocoders; must not carry a key. */
  publicUrl: string;
  buildRequest: (query: ReverseQuery) => ProviderRequest;
  /** Throws UnexpectedPayload when the body is not the documented shape. */
  mapPayload: (body: unknown) => Address[];
  /** The forward search's request and answer (from a name to places), when the provider has one. */
  forward?: {
    buildRequest: (query: ForwardQuery) => ProviderRequest;
    /** Throws UnexpectedPayload when the body is not the documented shape. */
    mapPayload: (body: unknown) => ForwardPlace[];
  };
  http: KyInstance;
  rateLimiter: RateLimiter;
  health: ProviderHealth;
  clock?: () => Date;
  timeoutMs?: number;
  retryDelayMs?: number;
  /**
   * Our own spacing of requests to it (1000 / the configured requests per
   * second; the public Nominatim's policy is 1 per second), across replicas
   * when the limiter is Redis. Absent or 0: no limit of ours.
   */
  minIntervalMs?: number;
  maxRateLimitWaitMs?: number;
  retryAfterDefaultMs?: number;
  retryAfterMaxMs?: number;
  log?: Logger;
  /** Told when the breaker opens or closes and when a 429 starts a cooldown (the metrics). */
  onHealth?: (change: ProviderHealthChange) => void;
}

/** The exchange's budgets and pauses, each given or its default (`httpProviderDefaults`; no spacing of our own unless given). */
type HttpProviderTiming = Required<
  Pick<HttpProviderOptions, "timeoutMs" | "retryDelayMs" | "minIntervalMs" | "maxRateLimitWaitMs" | "retryAfterDefaultMs" | "retryAfterMaxMs">
>;

/** What happens to a provider's health: out of rotation (opened), back (closed), asked to wait (cooled_down). */
export type ProviderHealthChange = "opened" | "closed" | "cooled_down";

/**
 * Failures that say the provider is unwell, and so count towards its breaker.
 * A refused key (401/403) counts too: the key only changes with a restart, so
 * until then every request to it is a round trip wasted before the next
 * provider is asked; the breaker's trial every `openMs` still notices when a
 * provider-side auth outage ends. Other 4xx are about one query, and a 429
 * has its own cooldown.
 */
const unwell: ReadonlySet<ProviderFailure> = new Set(["timeout", "unreachable", "upstream_error", "bad_response", "unauthorized"]);

/**
 * A provider reached over HTTP: checks its health, takes a slot of its rate
 * limit, calls it through ky with one retry on network errors and 5xx,
 * and maps the body with the provider's own mapper. Every failure becomes a
 * ProviderError whose message is safe for clients: no key, no URL, no body.
 *
 * When the caller's signal aborts, reverse() and forward() reject with the signal's reason
 * (as fetch does), not a ProviderError: the provider did nothing wrong.
 */
export class HttpProvider implements Provider {
  readonly name: string;
  readonly url: string;
  readonly offline = false;
  private readonly timing: HttpProviderTiming;
  private readonly spacing: ProviderSpacing;
  private readonly clock: () => Date;
  private readonly log: Logger;

  constructor(private readonly options: HttpProviderOptions) {
    this.name = options.name;
    // Redacted all the same: a key in it would be shown to every client.
    this.url = redactUrl(options.publicUrl);
    this.timing = {
      timeoutMs: options.timeoutMs ?? httpProviderDefaults.timeoutMs,
      retryDelayMs: options.retryDelayMs ?? httpProviderDefaults.retryDelayMs,
      minIntervalMs: options.minIntervalMs ?? 0,
      maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? httpProviderDefaults.maxRateLimitWaitMs,
      retryAfterDefaultMs: options.retryAfterDefaultMs ?? httpProviderDefaults.retryAfterDefaultMs,
      retryAfterMaxMs: options.retryAfterMaxMs ?? httpProviderDefaults.retryAfterMaxMs,
    };
    this.spacing = new ProviderSpacing(options.name, options.rateLimiter, this.timing.minIntervalMs);
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? silentLogger;
  }

  reverse(query: ReverseQuery, signal?: AbortSignal, options: ReverseOptions = {}): Promise<Address[]> {
    return this.ask(() => this.options.buildRequest(query), this.options.mapPayload, signal, options.slotWaitMs);
  }

  /** The forward search, with the same health, spacing, retry and failures as reverse (one provider, one budget). */
  forward(query: ForwardQuery, signal?: AbortSignal, options: ReverseOptions = {}): Promise<ForwardPlace[]> {
    const forward = this.options.forward;
    if (!forward) return Promise.reject(new ProviderError(this.name, "bad_request", "it has no forward search"));
    return this.ask(() => forward.buildRequest(query), forward.mapPayload, signal, options.slotWaitMs);
  }

  private async ask<T>(build: () => ProviderRequest, map: (body: unknown) => T, signal: AbortSignal | undefined, patientMs: number | undefined): Promise<T> {
    signal?.throwIfAborted();
    const admission = await this.options.health.admit(this.clock());
    if (!admission.admitted) throw this.refused(admission);
    let addresses: T;
    try {
      addresses = await this.exchange(build(), map, signal, patientMs);
    } catch (error) {
      if (error instanceof ProviderError && unwell.has(error.failure)) await this.recordFailure(error.failure);
      else await this.options.health.release(admission);
      throw error;
    }
    if ((await this.options.health.recordSuccess()) === "closed") {
      this.log.info("provider back in rotation", { provider: this.name });
      this.options.onHealth?.("closed");
    }
    return addresses;
  }

  private refused(admission: Extract<Admission, { admitted: false }>): ProviderError {
    const until = admission.retryAt ? ` until ${admission.retryAt.toISOString()}` : "";
    const detail =
      admission.why === "rate_limited"
        ? `skipped${until}: it asked us to wait`
        : `skipped${until}: it failed repeatedly${admission.lastFailure ? ` (last: ${admission.lastFailure})` : ""}`;
    // Still waiting out its Retry-After is being rate limited, as far as our callers go.
    const failure = admission.why === "rate_limited" ? "rate_limited" : "cooling_down";
    return new ProviderError(this.name, failure, detail, admission.retryAt);
  }

  private async recordFailure(failure: ProviderFailure): Promise<void> {
    const now = this.clock();
    if ((await this.options.health.recordFailure(failure, now)) !== "opened") return;
    this.options.onHealth?.("opened");
    this.log.warn("provider out of rotation: it failed repeatedly", {
      provider: this.name,
      failure,
      until: (await this.options.health.retryAt(now))?.toISOString(),
    });
  }

  /** One HTTP exchange, its one retry included; every failure a ProviderError except the caller's abort. */
  private async exchange<T>(request: ProviderRequest, map: (body: unknown) => T, signal: AbortSignal | undefined, patientMs: number | undefined): Promise<T> {
    const secrets = secretsOf(request);
    try {
      if (patientMs === undefined) await this.spacing.take(this.timing.maxRateLimitWaitMs, signal);
      else await this.spacing.takeSpare(patientMs, signal);
      const started = performance.now();
      const pending = this.options.http.get(request.url, {
        headers: { accept: "application/json", ...request.headers },
        signal,
        // Per attempt and for the whole exchange: a retry only gets what the first attempt left.
        timeout: this.timing.timeoutMs,
        totalTimeout: this.timing.timeoutMs,
        throwHttpErrors: true,
        retry: {
          limit: 1,
          methods: ["get"],
          delay: () => this.timing.retryDelayMs,
          // Every case decided here: ky's own defaults would retry 429 and 408,
          // and do not recognise Bun's connection errors as network errors.
          shouldRetry: ({ error }) => isWorthRetrying(error),
        },
        hooks: {
          // ky reads an error answer's body itself (for HTTPError.data, up to
          // 10 MiB): hand it one already cut to our own cap.
          afterResponse: [({ response }) => (response.ok ? undefined : boundedErrorResponse(response))],
          // The retry is a request too: it waits for its own slot of the limit.
          beforeRetry: [({ error }) => this.takeRetrySlot(error, started, signal)],
        },
      });
      let response: Response;
      try {
        response = await pending;
      } catch (error) {
        throw await this.exchangeFailure(error, signal, secrets);
      }
      const text = await this.readBody(response, started, signal);
      let body: unknown;
      try {
        body = parseJson(text);
      } catch (error) {
        throw this.failure("bad_response", error instanceof JsonTooDeep ? `the body ${error.message}` : "the body is not JSON");
      }
      try {
        return map(body);
      } catch (error) {
        if (!(error instanceof UnexpectedPayload)) throw error;
        throw this.failure("bad_response", `unexpected payload: ${excerpt(error.message, secrets)}`);
      }
    } catch (error) {
      if (error instanceof ProviderError) {
        this.log.debug("provider failed", { provider: this.name, failure: error.failure, reason: error.message, url: redactUrl(request.url) });
      }
      throw error;
    }
  }

  /**
   * The body as text, in what is left of the exchange's time and never past
   * maxProviderBodyBytes. ky's timeouts end when the headers arrive, so the
   * body has a deadline of its own.
   */
  private async readBody(response: Response, started: number, signal: AbortSignal | undefined): Promise<string> {
    const deadline = AbortSignal.timeout(Math.max(0, this.timing.timeoutMs - (performance.now() - started)));
    let read: LimitedBody;
    try {
      read = await readStreamLimited(response.body, {
        maxBytes: maxProviderBodyBytes,
        declaredLength: response.headers.get("content-length"),
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
    } catch {
      if (signal?.aborted) throw signal.reason;
      if (deadline.aborted) throw this.failure("timeout", `no complete answer within ${this.timing.timeoutMs} ms`);
      throw this.failure("bad_response", "the body was cut off");
    }
    if (read.tooLarge) throw this.failure("bad_response", `the body is larger than ${maxProviderBodyText}`);
    return read.bytes === null ? "" : new TextDecoder().decode(read.bytes);
  }

  private async takeRetrySlot(cause: Error, started: number, signal: AbortSignal | undefined): Promise<void> {
    // No longer than the budget left: a slot after the deadline is a request we could not wait for.
    const left = Math.max(0, this.timing.timeoutMs - (performance.now() - started));
    try {
      await this.spacing.take(Math.min(this.timing.maxRateLimitWaitMs, left), signal);
    } catch (error) {
      if (error instanceof ProviderError) throw new RetryForgone(cause);
      throw error;
    }
  }

  private async exchangeFailure(thrown: unknown, signal: AbortSignal | undefined, secrets: string[]): Promise<unknown> {
    if (signal?.aborted) return signal.reason;
    const error = thrown instanceof RetryForgone ? thrown.cause : thrown;
    if (error instanceof ProviderError) return error;
    if (isTimeoutError(error)) return this.failure("timeout", `no answer within ${this.timing.timeoutMs} ms`);
    if (isHTTPError(error)) return this.statusFailure(error, secrets);
    if (isWorthRetrying(error)) return this.failure("unreachable", `could not connect (${connectionCode(error)})`);
    // Not a known transport failure; its own message may hold the URL, and so the key.
    this.log.warn("provider request failed in an unexpected way", {
      provider: this.name,
      error: error instanceof Error ? `${error.name}: ${excerpt(error.message, secrets)}` : typeof error,
    });
    return this.failure("unreachable", "the request failed");
  }

  private async statusFailure(error: HTTPError, secrets: string[]): Promise<ProviderError> {
    const status = error.response.status;
    if (status === 429) return this.rateLimited(error.response.headers.get("retry-after"));
    if (status === 401 || status === 403) {
      // Worth a warning on its own: only an operator can fix a key.
      this.log.warn("provider refused our key", { provider: this.name, status, upstream: excerpt(bodyText(error.data), secrets) });
      return this.failure("unauthorized", `answered ${status}: our key was refused`);
    }
    if (status >= 500) return this.failure("upstream_error", `answered ${status}`);
    if (status >= 400) return this.failure("bad_request", `answered ${status}`);
    return this.failure("bad_response", `answered ${status}`);
  }

  private async rateLimited(retryAfter: string | null): Promise<ProviderError> {
    const now = this.clock();
    const asked = parseRetryAfter(retryAfter, now) ?? this.timing.retryAfterDefaultMs;
    const retryAt = new Date(now.getTime() + Math.min(Math.max(0, asked), this.timing.retryAfterMaxMs));
    await this.options.health.coolDownUntil(retryAt, now);
    this.options.onHealth?.("cooled_down");
    this.log.warn("provider out of rotation: it asked us to wait", { provider: this.name, until: retryAt.toISOString() });
    return new ProviderError(this.name, "rate_limited", `answered 429: wait until ${retryAt.toISOString()}`, retryAt);
  }

  private failure(failure: ProviderFailure, detail: string): ProviderError {
    return new ProviderError(this.name, failure, detail);
  }
}

/** The original failure of an attempt whose retry did not get a rate-limit slot in time. */
class RetryForgone extends Error {
  constructor(override readonly cause: Error) {
    super("retry forgone: no rate-limit slot in time");
    this.name = "RetryForgone";
  }
}

/**
 * An error answer with its body read up to our cap: what ky then reads for
 * HTTPError.data, and what we log an excerpt of. A body over the cap, or cut
 * off, becomes an empty one: its status says what matters.
 */
async function boundedErrorResponse(response: Response): Promise<Response> {
  let bytes: Uint8Array<ArrayBuffer> | null = null;
  try {
    const read = await readStreamLimited(response.body, { maxBytes: maxProviderBodyBytes, declaredLength: response.headers.get("content-length") });
    if (!read.tooLarge) bytes = read.bytes;
  } catch {
    // Cut off, or aborted: the status is still the answer.
  }
  const headers = new Headers(response.headers);
  // Describes the body as sent, not the one kept.
  headers.delete("content-length");
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
}

/** Once more on a failed connection or a 5xx; never on a 4xx, a timeout or a cancel. */
function isWorthRetrying(error: unknown): boolean {
  if (isHTTPError(error)) return error.response.status >= 500;
  if (isTimeoutError(error)) return false;
  if (isNetworkError(error)) return true;
  // Bun's fetch rejects with a TypeError carrying a code (ECONNREFUSED,
  // ECONNRESET, ENOTFOUND, …); an AbortError's code is a number.
  return error instanceof Error && "code" in error && typeof error.code === "string";
}

function connectionCode(error: unknown): string {
  const inner = isNetworkError(error) ? error.cause : error;
  if (inner instanceof Error && "code" in inner && typeof inner.code === "string") return inner.code;
  return "network error";
}

/**
 * Retry-After in ms from `now`: delay-seconds or an HTTP-date
 * (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after); undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : date - now.getTime();
}
