import {
  bodyLimitOf,
  bulkCreateBody,
  describeError,
  jobCreationBody,
  reverseBatchBody,
  forwardBatchBody,
  throttledWarning,
  type Client,
  type LogFields,
  type Logger,
} from "@linkgeo/shared";
import type { GatewayObserver } from "../metrics/gateway-metrics.ts";
import { ApiKeyBudgets, type KeyBudget } from "../rate-limit/api-key-budgets.ts";
import { geocodePointsIn } from "../rate-limit/geocode-points.ts";
import { loginAttemptBucket } from "../rate-limit/login-attempts.ts";
import { linkName, redirectLinkName } from "../rate-limit/link-name.ts";
import { MissBudgets, type MissCheck } from "../rate-limit/miss-budgets.ts";
import { rateLimitHeaders } from "@linkgeo/shared/rate-limit";
import { RateLimited } from "@linkgeo/shared/rate-limit";
import type { RateClass } from "../rate-limit/rate-class.ts";
import type { BucketDecision, RateRule, TokenBuckets } from "@linkgeo/shared/rate-limit";
import type { GatewayRoute } from "../routing/route-table.ts";
import { requestBody, type RequestBody } from "./request-body.ts";

export type { RateClass };

/** Every rule admission applies; a budget without one is not limited (RATE_LIMIT_…=off). */
export type RateRules = Partial<Record<RateClass, RateRule>> & {
  loginPerUser?: RateRule;
  unlockPerLink?: RateRule;
  badKey?: RateRule;
  geocodePoints?: RateRule;
  /** RATE_LIMIT_MISSES: the unknown codes a client's redirects may ask for (rate-limit/miss-budgets.ts). */
  misses?: RateRule;
  /** RATE_LIMIT_MISSES_SLOWDOWN_MS: how long, at most, a guess waits once half of its misses are spent (0 or absent: none). */
  missesSlowdownMs?: number;
};

export interface AdmissionOptions {
  buckets: TokenBuckets;
  rules: RateRules;
  /** A keyed digest (`addressDigest`): no bucket key and no log line holds an address or a key. */
  digest: (text: string) => string;
  /** IMPORT_MAX_BYTES: the largest file an import may stream through. */
  importMaxBytes: number;
  log: Logger;
  /** Told of each refusal by a class's budget (the metrics). */
  observer?: Pick<GatewayObserver, "rateLimited" | "slowed">;
}

/** A request admission let through. */
export interface Admitted {
  /** What to send upstream: read whole within its limit, or an import's file, streamed and not read. */
  body: RequestBody;
  /**
   * To call with the upstream's answer, before it is presented: an answer that does not show an API key was accepted
   * counts against the address; one that asked for a link no one has, against its misses.
   */
  answered(answer: { status: number; headers: Headers }): Promise<void>;
}

/** The bodies read whole past 64 KiB, up to their own limit. */
const largerBodies = [bulkCreateBody, reverseBatchBody, forwardBatchBody, jobCreationBody];

/** One budget a request spends: its bucket, the rule, and what a refusal is counted and logged under. */
interface Spending {
  bucket: string;
  rule: RateRule;
  /** Tokens taken: one, or a geocoding batch's points. */
  cost?: number;
  /** The class a refusal is counted under; none for the budgets taken once the body is read, as the metrics have always had it. */
  counted?: RateClass;
  fields?: LogFields;
  /** Its RateLimit-* are not the ones a client is shown (a link's across clients, when the client's own for the link is on). */
  quiet?: boolean;
}

/**
 * Admission, the first step of a request with a route (app.ts): every
 * budget it spends, decided here and in this order.
 *
 * 1. Its address's budget for its class (`<class>:<digest>`), or, where the
 *    shortener reads the credential first, its API key's own (`key:<digest>`,
 *    ApiKeyBudgets). A password try spends the address's API budget.
 * 2. A password try: the link's budget for this client (`unlock:<code>:<digest>`),
 *    then the link's across clients (`unlock-link:<code>`). The client's
 *    first: a client it refuses spends none of the link's. A redirect: the
 *    client's misses, unless it followed this link before (MissBudgets:
 *    only its 404s spend them, once answered).
 * 3. The body is read, within its limit (413 past it); an import's file is
 *    streamed, never read here. Read only now, so a request refused above
 *    costs no read and no parsing.
 * 4. A login: the username's budget (rate-limit/login-attempts.ts).
 * 5. A geocoding batch: one token a point (rate-limit/geocode-points.ts).
 *
 * A refusal is thrown as RateLimited (429, Retry-After, RateLimit-* of the
 * budget that refused) and takes nothing of the later budgets. The
 * RateLimit-* of the budget that admitted the request (the link's for a
 * password try) go into `answerHeaders` as soon as decided, so every answer
 * carries them: an error's (a 413, a 502) too. Should the buckets ever
 * fail, the request passes unlimited, with a warning: abuse protection
 * must not take the API down with it.
 */
export function admission(options: AdmissionOptions) {
  const { buckets, rules, digest, log } = options;
  const warnFailure = throttledWarning(log, "rate limit check failed: requests pass unlimited");
  const keyBudgets = rules.key && new ApiKeyBudgets({ buckets, rules: { key: rules.key, badKey: rules.badKey }, digest });
  const missBudgets = rules.misses && new MissBudgets({ buckets, rule: rules.misses, digest, slowdownMs: rules.missesSlowdownMs ?? 0 });

  /**
   * A redirect from a client whose misses are half spent, to a link it has not followed, waits; once spent, it is
   * refused. The budget is asked again after a wait: guesses sent at once must not all pass on one look.
   */
  const checkMisses = async (request: Request, route: GatewayRoute, address: string): Promise<void> => {
    const link = linkAsked(request, route);
    if (!missBudgets || !rules.misses || link === undefined) return;
    let check: MissCheck;
    try {
      check = await missBudgets.check(address, link);
      if ("delayMs" in check && check.delayMs > 0) {
        options.observer?.slowed("misses");
        await waitUnlessGone(check.delayMs, request.signal);
        check = await missBudgets.check(address, link);
      }
    } catch (error) {
      warnFailure({ error: describeError(error) });
      return;
    }
    if ("delayMs" in check) return;
    options.observer?.rateLimited("misses");
    log.debug("rate limited", { class: "misses", client: digest(address), retry_after_s: check.refused.retryAfterSeconds });
    throw RateLimited.refused(check.refused, rules.misses);
  };

  /** The decision; undefined when the buckets failed. A refusal is thrown. */
  const spend = async (spending: Spending): Promise<BucketDecision | undefined> => {
    let decision: BucketDecision;
    try {
      decision = await buckets.take(spending.bucket, spending.rule, spending.cost);
    } catch (error) {
      warnFailure({ error: describeError(error) });
      return undefined;
    }
    if (decision.allowed) return decision;
    if (spending.counted) options.observer?.rateLimited(spending.counted);
    log.debug("rate limited", { class: spending.counted, ...spending.fields, retry_after_s: decision.retryAfterSeconds });
    throw RateLimited.refused(decision, spending.rule);
  };

  // Only where the shortener reads the key first: anywhere else a made-up key would be a free budget.
  const keyBudgetOf = async (request: Request, route: GatewayRoute, address: string): Promise<KeyBudget | undefined> => {
    if (!keyBudgets || !route.checksKey) return undefined;
    try {
      return await keyBudgets.budgetOf(request, address);
    } catch (error) {
      // The key's budget could not be looked at: the address's, as for any other request.
      warnFailure({ error: describeError(error) });
      return undefined;
    }
  };

  /** Steps 1 and 2: the budgets decided before the body is read. */
  const budgetsBeforeBody = async (request: Request, route: GatewayRoute, address: string): Promise<Spending[]> => {
    const client = digest(address);
    const own = await keyBudgetOf(request, route, address);
    const rateClass = route.limit === "unlock" ? "api" : route.limit;
    const rule = own?.rule ?? rules[rateClass];
    const spendings: Spending[] = [];
    if (rule) spendings.push({ bucket: own?.bucket ?? `${rateClass}:${client}`, rule, counted: own ? "key" : rateClass, fields: { client } });
    if (route.limit !== "unlock") return spendings;
    const fields = { link: route.link };
    const link = linkName(request, route.link);
    if (rules.unlock) spendings.push({ bucket: `unlock:${link}:${client}`, rule: rules.unlock, counted: "unlock", fields });
    if (rules.unlockPerLink) {
      spendings.push({ bucket: `unlock-link:${link}`, rule: rules.unlockPerLink, counted: "unlock", fields, quiet: rules.unlock !== undefined });
    }
    return spendings;
  };

  /** Steps 4 and 5: the budgets the body names. */
  const budgetsInBody = (request: Request, route: GatewayRoute, address: string, body: ArrayBuffer | null): Spending[] => {
    const { loginPerUser, geocodePoints } = rules;
    const spendings: Spending[] = [];
    const user = route.limit === "login" && loginPerUser ? loginAttemptBucket(body) : undefined;
    if (user && loginPerUser) spendings.push({ bucket: user, rule: loginPerUser });
    const points = route.upstream === "geocoder" && geocodePoints ? geocodePointsIn(request, body) : 0;
    if (points > 0 && geocodePoints) spendings.push({ bucket: `points:${digest(address)}`, rule: geocodePoints, cost: points });
    return spendings;
  };

  return async function admit(request: Request, route: GatewayRoute, client: Client, answerHeaders: Record<string, unknown>): Promise<Admitted> {
    // The last budget decided is the one shown: a password try's for this client and link rather than the address's API budget.
    for (const spending of await budgetsBeforeBody(request, route, client.address)) {
      const decision = await spend(spending);
      if (decision && !spending.quiet) Object.assign(answerHeaders, rateLimitHeaders(decision, spending.rule));
    }
    await checkMisses(request, route, client.address);
    const body = await requestBody(request, { limitBytes: bodyLimitOf(request, largerBodies), importMaxBytes: options.importMaxBytes });
    if (!(body instanceof ReadableStream)) for (const spending of budgetsInBody(request, route, client.address, body)) await spend(spending);
    return {
      body,
      answered: async (answer) => {
        try {
          if (keyBudgets && route.checksKey) await keyBudgets.answered(request, client.address, answer.status);
          const link = linkAsked(request, route);
          if (missBudgets && link !== undefined) await missBudgets.answered(client.address, link, answer);
        } catch (error) {
          warnFailure({ error: describeError(error) });
        }
      },
    };
  };
}

/** Waits `ms`, or less if the client hangs up meanwhile (its request goes no further then anyway). */
function waitUnlessGone(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** The link a request asks for by its code, whose "no such link" is a miss: a redirect's, or an API read's (`asksCode`). */
function linkAsked(request: Request, route: GatewayRoute): string | undefined {
  if (route.limit === "redirect") return redirectLinkName(request);
  return route.asksCode === undefined ? undefined : linkName(request, route.asksCode);
}
