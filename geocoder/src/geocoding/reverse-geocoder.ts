import type { Logger } from "@linkgeo/shared";
import type { Address } from "../addresses/address.ts";
import type { CachedAnswer } from "../cache/cached-answer.ts";
import { cacheKey, defaultChain } from "../cache/cache-key.ts";
import { SingleFlight } from "../cache/single-flight.ts";
import type { ProviderFailure } from "../providers/provider-error.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { Provider } from "../providers/provider.ts";
import type { ReverseQuery } from "../providers/reverse-query.ts";
import { askMisses, type MissOutcome } from "./ask-misses.ts";
import { ChainDeadline } from "./chain-deadline.ts";
import { NoProviders, UnknownPlatform } from "./geocode-errors.ts";
import { ProviderChain } from "./provider-chain.ts";

/** The two cache levels as the service sees them. */
export interface AnswerCache {
  get(key: string): Promise<{ answer: CachedAnswer; level: "L1" | "L2" } | undefined>;
  /** `get` for many keys in one read of each level; a key without an answer is left out. */
  getMany(keys: readonly string[]): Promise<Map<string, { answer: CachedAnswer; level: "L1" | "L2" }>>;
  /** `set` for many answers, each level written once. */
  setMany(answers: ReadonlyMap<string, CachedAnswer>): Promise<void>;
  set(key: string, answer: CachedAnswer): Promise<void>;
}

export interface ReverseAnswer {
  addresses: Address[];
  provider: string;
  cache: "L1" | "L2" | "MISS";
}

/** One point of a batch: its answer, or why it has none (its own error; the others are answered all the same). */
export type PointOutcome = MissOutcome<ReverseAnswer>;

/** What the provider chain answered, before it is cached. */
interface ChainAnswer {
  addresses: Address[];
  provider: string;
  fallback: boolean;
}

/** A batch's misses asked at once: each provider sees at most this many calls of one batch, besides its own spacing and breaker. */
export const batchMissesInFlight = 8;

/**
 * How a job's points go down the chain (jobs/), where a batch's would be
 * answered at once: each point has its own chain budget, a network provider
 * waits up to `slotWaitMs` for a slot of our rate limit for it (instead of
 * answering rate_limited after 2 s, which hands the point to the next
 * provider), `inFlight` points at a time; and a fallback the cache keeps is
 * asked again rather than taken. So a job's answers are those the providers
 * give at their own pace.
 */
export interface PatientPace {
  slotWaitMs: number;
  /** Each point's chain budget: at least slotWaitMs plus a provider call's. */
  chainTimeoutMs: number;
  inFlight: number;
  /**
   * Stops the pass: a point not asked yet, or waiting for its slot, is
   * then left unanswered (NotAsked), never handed down the chain to LOCAL
   * (its job was cancelled, or the spacing can no longer be shared).
   */
  stop?: AbortSignal;
}

export const reverseGeocoderDefaults = {
  /**
   * The whole chain's time. Below the gateway's 10 s (its UPSTREAM_TIMEOUT_MS
   * default), so that when network providers hang, LOCAL still answers
   * before the gateway gives up with a 504.
   */
  chainTimeoutMs: 8_000,
} as const;

export interface ReverseGeocoderOptions {
  chainTimeoutMs?: number;
  /** Told of every answer and every provider call: the metrics (METRICS_PORT). */
  observer?: GeocoderObserver;
}

/** What a ReverseGeocoder reports as it answers. */
export interface GeocoderObserver {
  /** A query was answered, from a cache level or by a provider ("MISS"). */
  answered(cache: ReverseAnswer["cache"]): void;
  /** One provider was asked: "ok" when it answered, else why not. */
  providerCalled(provider: string, outcome: "ok" | ProviderFailure, seconds: number): void;
  /** A miss joined an identical one already in flight. */
  joinedFlight(): void;
}

/**
 * Answers a reverse query from the cache, or from the named provider, or
 * from the default chain (first provider that answers wins). Identical
 * misses in flight at the same time share one provider call.
 *
 * A pass down the chain has a time budget. When it runs out, the network
 * provider in flight is aborted (which says nothing about its health), the
 * network providers after it are not asked, and offline ones (LOCAL) still
 * are: they answer in microseconds, so the answer comes in time.
 */
export class ReverseGeocoder {
  private readonly inFlight: SingleFlight<ReverseAnswer>;
  private readonly chainTimeoutMs: number;
  private readonly observer: GeocoderObserver | undefined;
  private readonly chain: ProviderChain;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly cache: AnswerCache,
    private readonly clock: () => Date,
    log: Logger,
    options: ReverseGeocoderOptions = {},
  ) {
    this.chainTimeoutMs = options.chainTimeoutMs ?? reverseGeocoderDefaults.chainTimeoutMs;
    this.observer = options.observer;
    this.inFlight = new SingleFlight<ReverseAnswer>({ onJoin: () => this.observer?.joinedFlight() });
    // The chain checks the budget (a positive number of ms).
    this.chain = new ProviderChain(this.chainTimeoutMs, clock, log, this.observer);
  }

  /** Throws UnknownPlatform (400) for a platform no provider has, NoProviders (503) for the default chain when none is configured. */
  checkPlatform(platform: string | undefined): void {
    if (platform !== undefined && !this.registry.find(platform)) throw UnknownPlatform.named(platform, this.registry.names());
    if (platform === undefined && this.registry.isEmpty()) throw NoProviders.configured();
  }

  async reverse(query: ReverseQuery, platform?: string): Promise<ReverseAnswer> {
    // Checked before the cache so a bad platform is always a 400; the chain
    // itself is only built on a miss, off the hot path of cache hits.
    this.checkPlatform(platform);
    const key = cacheKey({ platform: platform ?? defaultChain, ...query });
    const answer = (await this.fromCache(key)) ?? (await this.inFlight.run(key, () => this.answerMiss(this.chainFor(platform), query, key)));
    this.observer?.answered(answer.cache);
    return answer;
  }

  /**
   * Many points at once (`POST /reverse-geocode/batch`), answered in their
   * order. Equal points are one question; the cache is read once for all of
   * them (each level in one round trip); the misses go down the chain
   * `batchMissesInFlight` at a time, sharing with single queries the
   * in-flight calls and with each other one chain budget: once it is used
   * up, network providers are no longer asked and offline ones (LOCAL)
   * still answer. Their answers are cached together at the end (each level
   * written once). A point that cannot be answered gets its own error.
   * An unknown platform, or none configured, fails the whole batch.
   * `patient`: a job's points, at the providers' pace (PatientPace).
   */
  async reverseMany(queries: readonly ReverseQuery[], platform?: string, patient?: PatientPace): Promise<PointOutcome[]> {
    this.checkPlatform(platform);
    const keys = queries.map((query) => cacheKey({ platform: platform ?? defaultChain, ...query }));
    const queryOf = new Map(keys.map((key, i) => [key, queries[i]!]));
    const outcomes = new Map<string, PointOutcome>();
    for (const [key, hit] of await this.cache.getMany([...queryOf.keys()])) {
      // A patient pass asks again what LOCAL only stood in for.
      if (patient && hit.answer.fallback) continue;
      outcomes.set(key, { answer: { addresses: hit.answer.addresses, provider: hit.answer.provider, cache: hit.level } });
    }
    const misses = [...queryOf.keys()].filter((key) => !outcomes.has(key));
    if (misses.length > 0) {
      const chain = this.chainFor(platform);
      // A batch's points share one budget; a patient pass gives each its own.
      using shared = patient ? undefined : new ChainDeadline(this.chainTimeoutMs);
      // The batch's answers, cached together once every miss is answered (each level written once).
      const toKeep = new Map<string, CachedAnswer>();
      const ask = async (key: string): Promise<ReverseAnswer> => {
        using own = patient ? new ChainDeadline(patient.chainTimeoutMs) : undefined;
        const { addresses, provider, fallback } = await this.askProviders(chain, queryOf.get(key)!, {
          deadline: shared ?? own,
          slotWaitMs: patient?.slotWaitMs,
          stop: patient?.stop,
        });
        toKeep.set(key, { addresses, provider, storedAt: this.clock().getTime(), fallback });
        return { addresses, provider, cache: "MISS" };
      };
      await askMisses(misses, ask, outcomes, { inFlight: patient?.inFlight ?? batchMissesInFlight, flights: this.inFlight, joinFlights: !patient?.stop });
      await this.cache.setMany(toKeep);
    }
    return keys.map((key) => {
      const outcome = outcomes.get(key)!;
      if ("answer" in outcome) this.observer?.answered(outcome.answer.cache);
      return outcome;
    });
  }

  private async fromCache(key: string): Promise<ReverseAnswer | undefined> {
    const hit = await this.cache.get(key);
    return hit && { addresses: hit.answer.addresses, provider: hit.answer.provider, cache: hit.level };
  }

  private async answerMiss(chain: Provider[], query: ReverseQuery, key: string): Promise<ReverseAnswer> {
    // A flight for this key may have finished between our cache read and now.
    const cached = await this.fromCache(key);
    if (cached) return cached;
    const { addresses, provider, fallback } = await this.askProviders(chain, query);
    // Answers are cached, failures never are; fallbacks only briefly (the cache knows how long).
    await this.cache.set(key, { addresses, provider, storedAt: this.clock().getTime(), fallback });
    return { addresses, provider, cache: "MISS" };
  }

  private chainFor(platform: string | undefined): Provider[] {
    if (platform === undefined) {
      const chain = this.registry.defaultChain();
      if (chain.length === 0) throw NoProviders.configured();
      return chain;
    }
    const provider = this.registry.find(platform);
    if (!provider) throw UnknownPlatform.named(platform, this.registry.names());
    return [provider];
  }

  /**
   * The first answer down the chain (ProviderChain). It is a fallback when an
   * offline provider gave it after a network provider before it did not:
   * LOCAL standing in for a street address. LOCAL asked alone (the only
   * provider, or `platform=local`) is a real answer.
   */
  private async askProviders(
    chain: Provider[],
    query: ReverseQuery,
    options: { deadline?: ChainDeadline; slotWaitMs?: number; stop?: AbortSignal } = {},
  ): Promise<ChainAnswer> {
    const { result, provider, fallback } = await this.chain.ask(chain, (each, signal, slot) => each.reverse(query, signal, slot), options);
    return { addresses: result, provider, fallback };
  }
}
