import type { BucketDecision, RateRule, TokenBuckets } from "@linkgeo/shared/rate-limit";
import { KnownCodes } from "./known-codes.ts";

/** How the shortener marks an answer that is a miss though no 404 (a domain's redirect to its not_found_url); the web app drops the header. */
const missMarkHeader = "link-page";
const missMark = "not-found";

/** How many clients' last misses a process remembers: past it, the one that missed longest ago is forgotten (and asked no more). */
const maxMissingClients = 100_000;

export interface MissBudgetsOptions {
  buckets: TokenBuckets;
  /** RATE_LIMIT_MISSES: the unknown codes a client may ask for. */
  rule: RateRule;
  /** A keyed digest (`addressDigest`): bucket keys hold no address. */
  digest: (text: string) => string;
  /** RATE_LIMIT_MISSES_SLOWDOWN_MS: the longest a guess waits before it is refused outright (0: none). */
  slowdownMs: number;
}

/** What a redirect meets: a refusal (the budget spent), or a wait first (0: none). */
export type MissCheck = { refused: BucketDecision } | { delayMs: number };

/**
 * Enumeration (docs/abuse.md): a client that asks for codes no link has is
 * guessing. Each miss its redirects get (a 404, or a domain's redirect to
 * its `not_found_url`, which the shortener marks `link-page: not-found`),
 * and each 404 of its reads of a link by code (`GET /shorten/<code>/`, its
 * stats), takes a token from its misses bucket
 * (`misses:<digest>`). Once half of it is spent, its redirects to links it
 * has not been sent on by before wait first, longer the less is left, up
 * to `slowdownMs`; while it is empty they are refused 429 at the gateway,
 * never reaching the shortener, so a prober learns nothing more. A link the
 * client did follow (KnownCodes) still sends it on, and every other
 * client's redirects flow as ever.
 */
export class MissBudgets {
  private readonly known = new KnownCodes();
  /**
   * When each client last missed here (a monotonic ms), the latest
   * `maxMissingClients`: a redirect from a client that has not missed on
   * this process within a full refill asks the buckets nothing, so the
   * redirect path pays no Redis call for clients that never guess. A
   * prober spread over replicas is known to each at its first miss there.
   */
  private readonly missedAt = new Map<string, number>();
  private readonly refillMs: number;

  constructor(private readonly options: MissBudgetsOptions) {
    this.refillMs = (options.rule.capacity / options.rule.perSecond) * 1000;
  }

  /** Whether the request for `link` (linkName) goes on at once, after a wait, or is refused (the spent budget's decision). */
  async check(address: string, link: string): Promise<MissCheck> {
    const client = this.options.digest(address);
    const missed = this.missedAt.get(client);
    if (missed === undefined || performance.now() - missed > this.refillMs) return noWait;
    if (this.known.has(client, link)) return noWait;
    const decision = await this.options.buckets.peek(this.bucketOf(client), this.options.rule);
    if (!decision.allowed) return { refused: decision };
    // The second half of the budget: from no wait at half, to slowdownMs with one miss left.
    const half = this.options.rule.capacity / 2;
    if (decision.remaining >= half || this.options.slowdownMs === 0) return noWait;
    return { delayMs: Math.round(this.options.slowdownMs * (1 - decision.remaining / half)) };
  }

  /** The shortener's answer for `link`: a miss spends a token; a request that found its link is remembered for the client. */
  async answered(address: string, link: string, answer: { status: number; headers: Headers }): Promise<void> {
    const client = this.options.digest(address);
    const { status } = answer;
    if (status === 404 || answer.headers.get(missMarkHeader) === missMark) {
      // Deleted and set again: the map's order is the clients' last miss, oldest first.
      this.missedAt.delete(client);
      this.missedAt.set(client, performance.now());
      if (this.missedAt.size > maxMissingClients) this.missedAt.delete(this.missedAt.keys().next().value!);
      await this.options.buckets.take(this.bucketOf(client), this.options.rule);
    } else if (status < 400) this.known.remember(client, link);
  }

  private bucketOf(client: string): string {
    return `misses:${client}`;
  }
}

const noWait: MissCheck = { delayMs: 0 };
