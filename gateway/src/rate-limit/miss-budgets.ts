import type { BucketDecision, RateRule, TokenBuckets } from "@linkgeo/shared/rate-limit";
import { KnownCodes } from "./known-codes.ts";

export interface MissBudgetsOptions {
  buckets: TokenBuckets;
  /** RATE_LIMIT_MISSES: the unknown codes a client may ask for. */
  rule: RateRule;
  /** A keyed digest (`addressDigest`): bucket keys hold no address. */
  digest: (text: string) => string;
}

/**
 * Enumeration (docs/abuse.md): a client that asks for codes no link has is
 * guessing. Each 404 its redirects get takes a token from its misses bucket
 * (`misses:<digest>`); while that bucket is empty, its redirects to links
 * it has not been sent on by before are refused 429 at the gateway, never
 * reaching the shortener, so a prober learns nothing more. A link the
 * client did follow (KnownCodes) still sends it on, and every other
 * client's redirects flow as ever.
 */
export class MissBudgets {
  private readonly known = new KnownCodes();

  constructor(private readonly options: MissBudgetsOptions) {}

  /** Undefined: the redirect may go on; else the spent budget's decision (a refusal). */
  async refusal(request: Request, address: string): Promise<BucketDecision | undefined> {
    const client = this.options.digest(address);
    if (this.known.has(client, linkOf(request))) return undefined;
    const decision = await this.options.buckets.peek(this.bucketOf(client), this.options.rule);
    return decision.allowed ? undefined : decision;
  }

  /** The shortener's answer: a 404 spends a token; a redirect that found its link is remembered for the client. */
  async answered(request: Request, address: string, status: number): Promise<void> {
    const client = this.options.digest(address);
    if (status === 404) await this.options.buckets.take(this.bucketOf(client), this.options.rule);
    else if (status < 400) this.known.remember(client, linkOf(request));
  }

  private bucketOf(client: string): string {
    return `misses:${client}`;
  }
}

/** A link as a redirect names it: its code on the host asked (the same code on two hosts is two links). */
function linkOf(request: Request): string {
  const url = URL.parse(request.url);
  const code = url?.pathname.split("/")[1] ?? "";
  return `${url?.hostname ?? ""}/${code}`;
}
