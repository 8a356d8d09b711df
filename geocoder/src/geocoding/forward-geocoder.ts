import type { Logger } from "@linkgeo/shared";
import type { CachedAnswer } from "../cache/cached-answer.ts";
import { defaultChain, forwardCacheKey } from "../cache/cache-key.ts";
import { SingleFlight } from "../cache/single-flight.ts";
import type { ForwardPlace, ForwardQuery } from "../providers/forward-query.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { Provider } from "../providers/provider.ts";
import { NoProviders, UnknownPlatform } from "./geocode-errors.ts";
import { ProviderChain } from "./provider-chain.ts";
import { reverseGeocoderDefaults, type AnswerCache, type GeocoderObserver } from "./reverse-geocoder.ts";

export interface ForwardAnswer {
  places: ForwardPlace[];
  provider: string;
  cache: "L1" | "L2" | "MISS";
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

  async forward(query: ForwardQuery, platform?: string): Promise<ForwardAnswer> {
    // Before the cache, so a bad platform is always a 400.
    const providers = this.chainFor(platform);
    const key = forwardCacheKey({ platform: platform ?? defaultChain, ...query });
    const answer = (await this.fromCache(key)) ?? (await this.inFlight.run(key, () => this.answerMiss(providers, query, key)));
    this.options.observer?.answered(answer.cache);
    return answer;
  }

  private async fromCache(key: string): Promise<ForwardAnswer | undefined> {
    const hit = await this.cache.get(key);
    if (!hit) return undefined;
    const { addresses, places = [], provider } = hit.answer;
    // An entry is what this service wrote; one whose lists disagree (another version's) is a miss.
    if (places.length !== addresses.length) return undefined;
    return { places: addresses.map((address, i) => ({ address, ...places[i]! })), provider, cache: hit.level };
  }

  private async answerMiss(providers: Provider[], query: ForwardQuery, key: string): Promise<ForwardAnswer> {
    const cached = await this.fromCache(key);
    if (cached) return cached;
    const { result, provider, fallback } = await this.chain.ask(providers, (each, signal, slot) => each.forward!(query, signal, slot));
    const places = result.slice(0, query.limit);
    const answer: CachedAnswer = {
      addresses: places.map((place) => place.address),
      places: places.map(({ latitude, longitude, confidence, providerId }) => ({ latitude, longitude, confidence, providerId })),
      provider,
      storedAt: this.clock().getTime(),
      fallback,
    };
    await this.cache.set(key, answer);
    return { places, provider, cache: "MISS" };
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
