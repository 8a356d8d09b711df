import type { Logger } from "@linkgeo/shared";
import type { CachedAnswer } from "../cache/cached-answer.ts";
import { defaultChain, forwardCacheKey } from "../cache/cache-key.ts";
import { SingleFlight } from "../cache/single-flight.ts";
import type { ForwardPlace, ForwardQuery } from "../providers/forward-query.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { Provider } from "../providers/provider.ts";
import { NoProviders, UnknownPlatform } from "./geocode-errors.ts";
import { ProviderChain } from "./provider-chain.ts";
import { askMisses, type MissOutcome } from "./ask-misses.ts";
import { ChainDeadline } from "./chain-deadline.ts";
import { batchMissesInFlight, reverseGeocoderDefaults, type AnswerCache, type GeocoderObserver, type PatientPace } from "./reverse-geocoder.ts";

export interface ForwardAnswer {
  places: ForwardPlace[];
  provider: string;
  cache: "L1" | "L2" | "MISS";
}

/** One query of a batch: its answer, or why it has none. */
export type ForwardOutcome = MissOutcome<ForwardAnswer>;

/** A cached forward answer as places; undefined for an entry whose lists disagree (another version's): a miss. */
function answerOf(entry: CachedAnswer, level: "L1" | "L2"): ForwardAnswer | undefined {
  const { addresses, places = [], provider } = entry;
  if (places.length !== addresses.length) return undefined;
  return { places: addresses.map((address, i) => ({ address, ...places[i]! })), provider, cache: level };
}

/**
 * Forward geocoding (GET /geocode): from a name to places, answered from the
 * cache (keyed by the folded query, cache-key.ts), or from the named
 * provider, or down the default chain of the providers that have a forward
 * search, by the chain's one rule (provider-chain.ts): the first answer
 * wins, a budget for the pass, LOCAL still asked when the network ones run
 * out of time. Identical misses in flight share one call.
 */
export class ForwardGeocoder {
  private readonly inFlight: SingleFlight<ForwardAnswer>;
  private readonly chain: ProviderChain;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly cache: AnswerCache,
    private readonly clock: () => Date,
    log: Logger,
    private readonly options: { chainTimeoutMs?: number; observer?: GeocoderObserver } = {},
  ) {
    this.inFlight = new SingleFlight<ForwardAnswer>({ onJoin: () => options.observer?.joinedFlight() });
    this.chain = new ProviderChain(options.chainTimeoutMs ?? reverseGeocoderDefaults.chainTimeoutMs, clock, log, options.observer);
  }

  /** Throws UnknownPlatform (400) for a platform with no forward search, NoProviders (503) for a default chain without one. */
  checkPlatform(platform: string | undefined): void {
    this.chainFor(platform);
  }

  async forward(query: ForwardQuery, platform?: string): Promise<ForwardAnswer> {
    // Before the cache, so a bad platform is always a 400.
    const providers = this.chainFor(platform);
    const key = forwardCacheKey({ platform: platform ?? defaultChain, ...query });
    const answer = (await this.fromCache(key)) ?? (await this.inFlight.run(key, () => this.answerMiss(providers, query, key)));
    this.options.observer?.answered(answer.cache);
    return answer;
  }

  /**
   * Many queries at once (`POST /geocode/batch`), answered in their order, as
   * the reverse batch is: equal queries asked once, the cache read once for
   * all (each level in one round trip), the misses down the chain
   * `batchMissesInFlight` at a time sharing one chain budget (then LOCAL
   * answers the rest), joining single queries' flights, cached together at
   * the end. A query that cannot be answered gets its own error; an unknown
   * platform, or none configured, fails the whole batch. `patient`: a forward
   * job's queries, at the providers' pace, as `reverseMany` takes a job's
   * points (PatientPace).
   */
  async forwardMany(queries: readonly ForwardQuery[], platform?: string, patient?: PatientPace): Promise<ForwardOutcome[]> {
    const providers = this.chainFor(platform);
    const keys = queries.map((query) => forwardCacheKey({ platform: platform ?? defaultChain, ...query }));
    const queryOf = new Map(keys.map((key, i) => [key, queries[i]!]));
    const outcomes = new Map<string, ForwardOutcome>();
    for (const [key, hit] of await this.cache.getMany([...queryOf.keys()])) {
      // A patient pass asks again what LOCAL only stood in for.
      if (patient && hit.answer.fallback) continue;
      const answer = answerOf(hit.answer, hit.level);
      if (answer) outcomes.set(key, { answer });
    }
    const misses = [...queryOf.keys()].filter((key) => !outcomes.has(key));
    if (misses.length > 0) {
      // A batch's queries share one budget; a patient pass gives each its own.
      using shared = patient ? undefined : new ChainDeadline(this.options.chainTimeoutMs ?? reverseGeocoderDefaults.chainTimeoutMs);
      const toKeep = new Map<string, CachedAnswer>();
      const ask = async (key: string): Promise<ForwardAnswer> => {
        using own = patient ? new ChainDeadline(patient.chainTimeoutMs) : undefined;
        const { places, entry } = await this.askChain(providers, queryOf.get(key)!, {
          deadline: shared ?? own,
          slotWaitMs: patient?.slotWaitMs,
          stop: patient?.stop,
        });
        toKeep.set(key, entry);
        return { places, provider: entry.provider, cache: "MISS" };
      };
      await askMisses(misses, ask, outcomes, { inFlight: patient?.inFlight ?? batchMissesInFlight, flights: this.inFlight, joinFlights: !patient?.stop });
      await this.cache.setMany(toKeep);
    }
    return keys.map((key) => {
      const outcome = outcomes.get(key)!;
      if ("answer" in outcome) this.options.observer?.answered(outcome.answer.cache);
      return outcome;
    });
  }

  private async fromCache(key: string): Promise<ForwardAnswer | undefined> {
    const hit = await this.cache.get(key);
    return hit && answerOf(hit.answer, hit.level);
  }

  private async answerMiss(providers: Provider[], query: ForwardQuery, key: string): Promise<ForwardAnswer> {
    const cached = await this.fromCache(key);
    if (cached) return cached;
    const { places, entry } = await this.askChain(providers, query);
    await this.cache.set(key, entry);
    return { places, provider: entry.provider, cache: "MISS" };
  }

  /** The chain's answer, cut to the limit, and the cache's entry of it. `deadline`: a batch's shared budget, or a patient query's own. */
  private async askChain(
    providers: Provider[],
    query: ForwardQuery,
    options: { deadline?: ChainDeadline; slotWaitMs?: number; stop?: AbortSignal } = {},
  ): Promise<{ places: ForwardPlace[]; entry: CachedAnswer }> {
    const { result, provider, fallback } = await this.chain.ask(providers, (each, signal, slot) => each.forward!(query, signal, slot), options);
    const places = result.slice(0, query.limit);
    const entry: CachedAnswer = {
      addresses: places.map((place) => place.address),
      places: places.map(({ latitude, longitude, confidence, providerId }) => ({ latitude, longitude, confidence, providerId })),
      provider,
      storedAt: this.clock().getTime(),
      fallback,
    };
    return { places, entry };
  }

  /** The providers asked: the named one (400 when none has that name or it has no forward search), else the default chain's that have one. */
  private chainFor(platform: string | undefined): Provider[] {
    if (platform !== undefined) {
      const provider = this.registry.find(platform);
      if (!provider?.forward) throw UnknownPlatform.named(platform, this.forwardNames());
      return [provider];
    }
    const chain = this.registry.defaultChain().filter((provider) => provider.forward !== undefined);
    if (chain.length === 0) throw NoProviders.configured();
    return chain;
  }

  private forwardNames(): string[] {
    return this.registry.names().filter((name) => this.registry.find(name)?.forward !== undefined);
  }
}
