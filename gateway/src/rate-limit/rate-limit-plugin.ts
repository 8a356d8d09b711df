import { describeError, throttledWarning, type Logger } from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { RateRule } from "./token-bucket.ts";
import { rateLimitHeaderNames, rateLimitHeaders } from "./rate-limit-headers.ts";
import { RateLimited } from "./rate-limited.ts";
import type { BucketDecision, TokenBuckets } from "./token-bucket.ts";

/**
 * The kinds of request that have their own budget. `unlock` (password tries
 * on a protected link) is limited per link by `unlockLimits`, not here;
 * `bulk` (POST /shorten/bulk/, up to 1,000 links) takes one token per
 * request, whatever its size: the token is taken before the body is read;
 * `key` is an API key's own budget (`ownBudgetOf`), never a class of route.
 */
export type RateClass = "create" | "bulk" | "api" | "redirect" | "login" | "unlock" | "key";

/** A budget other than the address's, drawn on instead of it (an API key's: `ApiKeyBudgets`). */
export interface OwnBudget {
  bucket: string;
  rule: RateRule;
}

export interface RateLimitOptions {
  buckets: TokenBuckets;
  /** A class without a rule is not limited and gets no RateLimit-* headers. */
  rules: Partial<Record<RateClass, RateRule>>;
  /** Which budget a request draws on; undefined: none (health checks, docs). */
  classify: (request: Request) => RateClass | undefined;
  /** Who the client is; see `clientAddressOfRequest`. */
  clientAddressOf: (request: Request, server: Server | null) => string;
  /** A client address as its buckets are keyed (addressDigest): never the address itself in a key or a log. */
  digestAddress: (address: string) => string;
  /** A budget of its own for a request from `client` (reported as class `key`); undefined: the address's. */
  ownBudgetOf?: (request: Request, client: string) => Promise<OwnBudget | undefined>;
  log: Logger;
  /** Told of each refusal (the metrics). */
  onRefused?: (rateClass: RateClass) => void;
}

/**
 * Limits requests per client address and class, one token bucket each
 * (`<class>:<digest of the address>`: no bucket key holds a client
 * address), or on a budget of their own (`ownBudgetOf`: an
 * API key's, whatever the class's rule for addresses). A refused request
 * is thrown as RateLimited (429, Retry-After), which the shared error renderer answers; every request of a
 * limited class, allowed or refused, carries RateLimit-Limit, -Remaining,
 * -Reset and -Policy.
 *
 * The token is taken in onRequest, before the body is read or the request
 * proxied: a refused request costs no parsing. `classify` says which budget;
 * a request it has no class for (the gateway's app gives none to a path
 * with no route) takes no token.
 */
export function rateLimit(options: RateLimitOptions) {
  const warnFailure = throttledWarning(options.log, "rate limit check failed: requests pass unlimited");

  return (
    new Elysia({ name: "rate-limit" })
      // onRequest hooks run for every request of the app that uses the plugin.
      .onRequest(async ({ request, server, set }) => {
        const requestClass = options.classify(request);
        if (requestClass === undefined) return;
        const client = options.clientAddressOf(request, server);
        let own: OwnBudget | undefined;
        let decision: BucketDecision;
        try {
          own = await options.ownBudgetOf?.(request, client);
        } catch (error) {
          // The key's budget could not be looked at: the address's, as for any other request.
          warnFailure({ error: describeError(error) });
        }
        const rateClass: RateClass = own ? "key" : requestClass;
        const rule = own?.rule ?? options.rules[requestClass];
        if (rule === undefined) return;
        try {
          decision = await options.buckets.take(own?.bucket ?? `${requestClass}:${options.digestAddress(client)}`, rule);
        } catch (error) {
          // TokenBuckets do not reject; should one anyway, the API stays up unlimited.
          warnFailure({ error: describeError(error) });
          return;
        }
        if (!decision.allowed) {
          options.onRefused?.(rateClass);
          options.log.debug("rate limited", { class: rateClass, client: options.digestAddress(client), retry_after_s: decision.retryAfterSeconds });
          throw RateLimited.refused(decision, rule);
        }
        // In `set.headers`, so error responses of an allowed request (a 502 from
        // an upstream, a 400) carry them too.
        Object.assign(set.headers, rateLimitHeaders(decision, rule));
      })
      // A Response the handler built (a proxied one) gets the headers itself:
      // left in `set.headers`, they would make Elysia copy the whole Response.
      .onAfterHandle({ as: "global" }, ({ responseValue, set }) => {
        if (!(responseValue instanceof Response)) return;
        for (const name of rateLimitHeaderNames) {
          const value = set.headers[name];
          if (value === undefined) continue;
          responseValue.headers.set(name, String(value));
          delete set.headers[name];
        }
      })
  );
}
