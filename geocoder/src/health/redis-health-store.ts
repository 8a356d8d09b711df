import { RedisWithFallback, redisScript, silentLogger, type Logger, type RedisClient, type RedisScript } from "@linkgeo/shared";
import { providerFailures, type ProviderFailure } from "./provider-failure.ts";
import { healthyState, isHealthy, type HealthState, type Transition } from "./health-rules.ts";
import type { HealthStore } from "./health-store.ts";
import { MemoryHealthStore } from "./memory-health-store.ts";

/**
 * Compare-and-set: writes the new state only if the key still holds the
 * text the transition was computed from; an empty text is the healthy
 * state, which is kept as no key at all. The rules stay in TypeScript, in
 * one place (HealthRules), instead of being written again in Lua; a write
 * that lost the race is computed again on the newer state. Comparing the
 * text itself, not a version, cannot be fooled by a key that went away and
 * came back: the same text is the same state, and the same rule gives the
 * same result.
 *
 * KEYS[1]: the provider's state. ARGV[1]: the text read ('' for none);
 * ARGV[2]: the text to write ('' to delete); ARGV[3]: its lifetime in ms.
 * Returns 1 when written, 0 when the key had changed.
 */
const compareAndSetScript = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then
  return 0
end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
`;

export interface RedisHealthStoreOptions {
  /** Namespace of the store's keys, after the client's own keyPrefix. Default `provider-health:`. */
  keyPrefix?: string;
  /**
   * How long a state is kept after the last time it holds (a cooldown's end,
   * a breaker's reopening, a trial's start). Must be longer than the
   * breaker's open period. Default 1 h: a count of failures in a row that
   * nothing added to for an hour starts again from nothing.
   */
  keepMs?: number;
  /** How long to wait for Redis before using the in-process state instead. Default 250 ms. */
  commandTimeoutMs?: number;
  /** The store used while Redis is unreachable. Default: a MemoryHealthStore. */
  fallback?: HealthStore;
  /** Writes that lost the race to another replica before giving up (on the fallback). Default 8. */
  maxAttempts?: number;
  log?: Logger;
}

/**
 * Provider health shared by every geocoder replica through Redis
 * (REDIS_URL): a 429's cooldown and a breaker opened by one replica keep
 * the others away too, and after the breaker's wait exactly one trial
 * request goes out, from whichever replica asks first.
 *
 * One key per provider. A healthy provider has no key, so the usual call
 * costs two GETs (admit, then record the success) and no write. Times in
 * the state are the writing replica's clock; replicas' clocks are assumed
 * to agree to well within the breaker's 30 s.
 *
 * When Redis is unreachable each process falls back to its own state (the
 * rate limits do the same), with a throttled warning: replicas then find
 * out about a failing provider each for itself, as they did before.
 */
export class RedisHealthStore implements HealthStore {
  private readonly keyPrefix: string;
  private readonly keepMs: number;
  private readonly maxAttempts: number;
  private readonly fallback: HealthStore;
  private readonly redisFirst: RedisWithFallback;
  private readonly compareAndSet: RedisScript;

  constructor(
    private readonly redis: RedisClient,
    options: RedisHealthStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? "provider-health:";
    this.keepMs = options.keepMs ?? 60 * 60_000;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.fallback = options.fallback ?? new MemoryHealthStore();
    this.compareAndSet = redisScript(redis, "linkgeoHealthCompareAndSet", compareAndSetScript, 1);
    this.redisFirst = new RedisWithFallback(redis, {
      log: options.log ?? silentLogger,
      commandTimeoutMs: options.commandTimeoutMs,
      fallbackWarning: "Redis unavailable: provider cooldowns and breakers hold per process only",
      recoveredMessage: "provider cooldowns and breakers are shared through Redis again",
    });
  }

  read(provider: string): Promise<HealthState> {
    return this.redisFirst.run(
      async (redis) => parseState(await redis.get(this.keyPrefix + provider)),
      () => this.fallback.read(provider),
    );
  }

  update<T>(provider: string, transition: (state: HealthState) => Transition<T>, now: number): Promise<T> {
    return this.redisFirst.run(
      () => this.compareAndSetLoop(provider, transition, now),
      () => this.fallback.update(provider, transition, now),
    );
  }

  private async compareAndSetLoop<T>(provider: string, transition: (state: HealthState) => Transition<T>, now: number): Promise<T> {
    const key = this.keyPrefix + provider;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const text = await this.redis.get(key);
      const current = parseState(text);
      const { state, result } = transition(current);
      if (state === current) return result;
      const next = isHealthy(state) ? "" : JSON.stringify(state);
      const written = await this.compareAndSet(key, text ?? "", next, this.lifetimeMs(state, now));
      if (written === 1) return result;
    }
    // Each lost race is another replica's change going in, so this takes a storm of them.
    throw new Error(`provider health of ${provider}: ${this.maxAttempts} writes in a row lost to other replicas`);
  }

  /** Until `keepMs` after the last moment the state speaks of, counted from `now`. */
  private lifetimeMs(state: HealthState, now: number): number {
    const last = Math.max(now, state.waitUntil, state.openUntil ?? 0, state.trialSince ?? 0);
    return Math.ceil(last - now + this.keepMs);
  }
}

const knownFailures: ReadonlySet<string> = new Set(providerFailures);

/**
 * The state a key holds. Anything unreadable (written by another version,
 * or by hand) is taken as healthy: the next change replaces it, since the
 * compare-and-set compares the text as it was read.
 */
function parseState(text: string | null): HealthState {
  if (text === null) return healthyState;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return healthyState;
  }
  if (typeof value !== "object" || value === null) return healthyState;
  const { failures: count, lastFailure, openUntil, trialSince, waitUntil } = value as Record<string, unknown>;
  const time = (field: unknown) => typeof field === "number" && Number.isFinite(field);
  const valid =
    Number.isInteger(count) &&
    (count as number) >= 0 &&
    (lastFailure === null || (typeof lastFailure === "string" && knownFailures.has(lastFailure))) &&
    (openUntil === null || time(openUntil)) &&
    (trialSince === null || time(trialSince)) &&
    time(waitUntil);
  if (!valid) return healthyState;
  return {
    failures: count as number,
    lastFailure: lastFailure as ProviderFailure | null,
    openUntil: openUntil as number | null,
    trialSince: trialSince as number | null,
    waitUntil: waitUntil as number,
  };
}
