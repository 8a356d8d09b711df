import type { RateRule } from "@linkgeo/shared/rate-limit";
import type { TokenBuckets } from "@linkgeo/shared/rate-limit";

/** The shortener's API keys start so (shortener/src/auth/api-key.ts): any other token is no key. */
const apiKeyPrefix = "lgk_";

/**
 * Answers of the shortener that do not show a key was accepted: 401 (unknown,
 * revoked or expired), and the 400 and 415 a request can get before its
 * credential is read (the query or body failed the route's schema), which a
 * made-up key would otherwise get for free.
 */
const unprovenStatuses: ReadonlySet<number> = new Set([400, 401, 415]);

export interface ApiKeyBudgetsOptions {
  buckets: TokenBuckets;
  /** `key`: each API key's own budget; `badKey`: the answers above one client address may have before its keys stop counting. */
  rules: { key: RateRule; badKey?: RateRule };
  /** A keyed digest (`addressDigest`): bucket keys hold neither a key nor an address. */
  digest: (text: string) => string;
}

/** The bucket a request draws on instead of its address's: `key:<digest>` under the key rule. */
export interface KeyBudget {
  bucket: string;
  rule: RateRule;
}

/**
 * Per-key budgets: a request with `Authorization: Bearer lgk_…`, on a route
 * where the shortener reads the credential first, draws on its key's bucket
 * (`key:<digest of the key>`) instead of its address's, so programs behind
 * one address (an office, a CI runner) each have their own budget, and one
 * key is one budget from any number of addresses.
 *
 * The gateway cannot tell a real key from a made-up one; the shortener can.
 * So each answer that does not show the key was accepted takes a token from
 * the address's bad-key bucket (`bad-key:<digest of the address>`), and
 * while that bucket is empty the address's keyed requests draw on the
 * address's own API budget, as requests without a key do. Spraying made-up
 * keys thus buys an address a few requests (the bad-key burst) and then
 * exactly what it would have without keys; legitimate key users behind the
 * same address share a budget only while someone there keeps sending bad ones.
 */
export class ApiKeyBudgets {
  constructor(private readonly options: ApiKeyBudgetsOptions) {}

  /** The key's budget for a keyed request from `address`; undefined: no key, or the address's bad keys are spent. */
  async budgetOf(request: Request, address: string): Promise<KeyBudget | undefined> {
    const key = apiKeyOf(request);
    if (key === undefined) return undefined;
    const { key: rule, badKey } = this.options.rules;
    if (badKey && !(await this.options.buckets.peek(this.badKeyBucket(address), badKey)).allowed) return undefined;
    return { bucket: `key:${this.options.digest(key)}`, rule };
  }

  /** Counts the shortener's answer to a keyed request against `address` when it does not show the key was accepted. */
  async answered(request: Request, address: string, status: number): Promise<void> {
    const { badKey } = this.options.rules;
    if (!badKey || !unprovenStatuses.has(status) || apiKeyOf(request) === undefined) return;
    await this.options.buckets.take(this.badKeyBucket(address), badKey);
  }

  private badKeyBucket(address: string): string {
    return `bad-key:${this.options.digest(address)}`;
  }
}

/** The API key a request carries in `Authorization: Bearer lgk_…`, as the shortener reads it; undefined for any other credential. */
export function apiKeyOf(request: Request): string | undefined {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return token?.startsWith(apiKeyPrefix) ? token : undefined;
}
