/** A token bucket: `capacity` requests at once, refilled at `perSecond`. */
export interface RateRule {
  capacity: number;
  perSecond: number;
}

/** The answer to one request for a token, with what the RateLimit-* headers report. */
export interface BucketDecision {
  allowed: boolean;
  /** The bucket's capacity (the burst). */
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again if nobody takes a token meanwhile. */
  resetSeconds: number;
  /** Seconds until one token is there; 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Token buckets by key: each holds at most `rule.capacity` tokens and refills
 * at `rule.perSecond`; a request takes one, or `cost` (a geocoding batch
 * takes one per point: geocode-points.ts). A bucket never used (or long idle)
 * is full. A refused request takes nothing, so hammering a full-stop bucket
 * does not push the client's next token further away.
 *
 * `take` does not reject: an implementation whose store fails answers from a
 * fallback, because a broken limiter must not take the API down with it.
 */
export interface TokenBuckets {
  take(key: string, rule: RateRule, cost?: number): Promise<BucketDecision>;
  /** Whether a take would be allowed now, taking nothing: a budget that only some answers spend (a bad API key's). */
  peek(key: string, rule: RateRule): Promise<BucketDecision>;
}

/** A bucket as stored: `tokens` (fractional) at `atMs` on the store's clock. */
export interface BucketState {
  tokens: number;
  atMs: number;
}

/**
 * One take of `cost` tokens on a bucket at `nowMs`: the refilled level,
 * whether they were all there (none are taken otherwise), and the level
 * left. `state` undefined is a full bucket. The Redis script does the same
 * arithmetic in Lua; keep the two in step.
 */
export function takeFromBucket(state: BucketState | undefined, rule: RateRule, nowMs: number, cost = 1): { allowed: boolean; tokensLeft: number } {
  const tokens = bucketLevel(state, rule, nowMs);
  return tokens >= cost ? { allowed: true, tokensLeft: tokens - cost } : { allowed: false, tokensLeft: tokens };
}

/** The tokens a bucket holds at `nowMs`, refilled since it was stored; `state` undefined is a full bucket. */
export function bucketLevel(state: BucketState | undefined, rule: RateRule, nowMs: number): number {
  if (state === undefined) return rule.capacity;
  // A clock that stepped back (NTP, a Redis failover) refills nothing rather than draining.
  const elapsedMs = Math.max(0, nowMs - state.atMs);
  return Math.min(rule.capacity, state.tokens + (elapsedMs / 1000) * rule.perSecond);
}

/** What a peek reports: allowed while a whole token is there, `remaining` the whole tokens there. */
export function peekDecision(rule: RateRule, tokens: number): BucketDecision {
  return decisionFor(rule, tokens >= 1, tokens);
}

/** Milliseconds until a bucket holding `tokens` is full again. */
export function msUntilFull(tokens: number, rule: RateRule): number {
  return (Math.max(0, rule.capacity - tokens) / rule.perSecond) * 1000;
}

/** What the client is told about a take of `cost` that left `tokensLeft` in the bucket. */
export function decisionFor(rule: RateRule, allowed: boolean, tokensLeft: number, cost = 1): BucketDecision {
  return {
    allowed,
    limit: rule.capacity,
    remaining: allowed ? Math.floor(tokensLeft) : 0,
    resetSeconds: wholeSeconds(msUntilFull(tokensLeft, rule)),
    // Rounded up: a client that waits exactly this long finds its tokens.
    retryAfterSeconds: allowed ? 0 : Math.max(1, wholeSeconds(((cost - tokensLeft) / rule.perSecond) * 1000)),
  };
}

// Rates like 20/min are not exact in binary (1000 / (20/60) is 3000.0000000000005 ms):
// without the epsilon a full minute would be announced as 61 seconds.
function wholeSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000 - 1e-9));
}
