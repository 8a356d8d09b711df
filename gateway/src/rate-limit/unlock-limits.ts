import { describeError, throttledWarning, type Logger } from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { RateRule } from "./token-bucket.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";
import { RateLimited } from "./rate-limited.ts";
import type { BucketDecision, TokenBuckets } from "./token-bucket.ts";

export interface UnlockLimitsOptions {
  buckets: TokenBuckets;
  /** `unlock`: per link and client address; `unlockPerLink`: per link, whatever the client. Absent: not limited. */
  rules: { unlock?: RateRule; unlockPerLink?: RateRule };
  /** The code a request tries a password on; undefined: the request is no password try. */
  linkOf: (request: Request) => string | undefined;
  /** Who the client is; see `clientAddressOfRequest`. */
  clientAddressOf: (request: Request, server: Server | null) => string;
  /** A client address as bucket keys hold it (`addressDigest`): never the address itself. */
  digestAddress: (address: string) => string;
  log: Logger;
  /** Told of each refusal (the metrics). */
  onRefused?: () => void;
}

/**
 * The budgets of password tries on a protected link (`POST /<code>`), two
 * token buckets: per link and client address (`unlock:<code>:<digest>`),
 * so one guesser gets few tries at a link; and per link across all clients
 * (`unlock-link:<code>`), so a guesser with many addresses still gets only
 * so many. A refusal is thrown as RateLimited (429, Retry-After).
 *
 * Taken in onRequest, before the body is read or the shortener sees the try,
 * and the client's own bucket first: a client it refuses spends nothing of
 * the link's, so one address cannot lock everyone out of a link. The price
 * of the per-link budget: anyone can spend it and lock a link's rightful
 * visitors out until it refills; RATE_LIMIT_UNLOCK_LINK=off turns it off.
 *
 * RateLimit-* report the client's own budget (the link's when that one is
 * off); the rate-limit plugin's hook moves them onto a proxied Response.
 */
export function unlockLimits(options: UnlockLimitsOptions) {
  const warnFailure = throttledWarning(options.log, "unlock limit check failed: password tries pass unlimited");
  const { unlock: perClient, unlockPerLink: perLink } = options.rules;

  const take = async (key: string, rule: RateRule): Promise<BucketDecision | undefined> => {
    try {
      return await options.buckets.take(key, rule);
    } catch (error) {
      // TokenBuckets do not reject; should one anyway, the links stay reachable.
      warnFailure({ error: describeError(error) });
      return undefined;
    }
  };
  const refuse = (link: string, decision: BucketDecision, rule: RateRule): never => {
    options.onRefused?.();
    options.log.debug("rate limited", { class: "unlock", link, retry_after_s: decision.retryAfterSeconds });
    throw RateLimited.refused(decision, rule);
  };

  return new Elysia({ name: "unlock-limits" }).onRequest(async ({ request, server, set }) => {
    const link = options.linkOf(request);
    if (link === undefined) return;
    let reported: { decision: BucketDecision; rule: RateRule } | undefined;
    if (perClient) {
      const client = options.digestAddress(options.clientAddressOf(request, server));
      const decision = await take(`unlock:${link}:${client}`, perClient);
      if (decision && !decision.allowed) refuse(link, decision, perClient);
      if (decision) reported = { decision, rule: perClient };
    }
    if (perLink) {
      const decision = await take(`unlock-link:${link}`, perLink);
      if (decision && !decision.allowed) refuse(link, decision, perLink);
      if (decision && !reported) reported = { decision, rule: perLink };
    }
    if (reported) Object.assign(set.headers, rateLimitHeaders(reported.decision, reported.rule));
  });
}
