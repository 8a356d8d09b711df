import type { Logger } from "@linkgeo/shared";
import type { KyInstance } from "ky";
import type { GeocoderConfig } from "../config.ts";
import type { RateLimiter } from "../rate-limit/rate-limiter.ts";
import { buildGeoapifyForwardRequest, buildGeoapifyRequest, geoapifyReverseUrl, mapGeoapifyForwardPayload, mapGeoapifyPayload } from "./geoapify.ts";
import { buildHereForwardRequest, buildHereRequest, hereRevgeocodeUrl, mapHereForwardPayload, mapHerePayload } from "./here.ts";
import { HttpProvider, type HttpProviderOptions, type ProviderHealthChange, type ProviderRequest } from "./http-provider.ts";
import { buildNominatimForwardRequest, buildNominatimRequest, mapNominatimForwardPayload, mapNominatimPayload, nominatimReverseUrl } from "./nominatim.ts";
import type { HealthStore } from "../health/health-store.ts";
import { MemoryHealthStore } from "../health/memory-health-store.ts";
import { ProviderHealth } from "./provider-health.ts";
import { replicaName } from "./provider-registry.ts";
import type { Provider } from "./provider.ts";
import type { ReverseQuery } from "./reverse-query.ts";

export interface ProviderDeps {
  http: KyInstance;
  rateLimiter: RateLimiter;
  clock: () => Date;
  log: Logger;
  /**
   * Where the providers' cooldowns and breakers are kept: a RedisHealthStore
   * to share them with every replica; default one in this process.
   */
  healthStore?: HealthStore;
  /** LOCAL, already loaded (its data takes a moment): registered last when given. */
  local?: Provider;
  /** Told of every provider's breaker and cooldown changes (the metrics). */
  onHealth?: (provider: string, change: ProviderHealthChange) => void;
}

type ProviderSettings = Pick<GeocoderConfig, "geoapify" | "here" | "nominatim" | "replicas" | "providerTimeoutMs" | "rateLimits">;

/** Registers a provider for every one the configuration names; the order here is the order of GET /geocoders. */
export function buildProviders(config: ProviderSettings, deps: ProviderDeps): Provider[] {
  const healthStore = deps.healthStore ?? new MemoryHealthStore();
  const make = (
    name: string,
    publicUrl: string,
    buildRequest: (query: ReverseQuery) => ProviderRequest,
    mapPayload: (body: unknown) => ReturnType<typeof mapNominatimPayload>,
    forward: HttpProviderOptions["forward"],
    rateLimitName = name,
  ) => {
    const perSecond = config.rateLimits[rateLimitName];
    return new HttpProvider({
      name,
      publicUrl,
      buildRequest,
      mapPayload,
      forward,
      http: deps.http,
      rateLimiter: deps.rateLimiter,
      health: new ProviderHealth({ provider: name, store: healthStore, clock: deps.clock }),
      clock: deps.clock,
      timeoutMs: config.providerTimeoutMs,
      minIntervalMs: perSecond ? 1000 / perSecond : undefined,
      log: deps.log,
      onHealth: deps.onHealth && ((change) => deps.onHealth!(name, change)),
    });
  };

  const providers: Provider[] = config.replicas.map((replica) =>
    make(
      replicaName(replica.number),
      replica.url,
      (query) => buildNominatimRequest(query, { baseUrl: replica.url, userAgent: config.nominatim?.userAgent }),
      mapNominatimPayload,
      {
        buildRequest: (query) => buildNominatimForwardRequest(query, { baseUrl: replica.url, userAgent: config.nominatim?.userAgent }),
        mapPayload: mapNominatimForwardPayload,
      },
    ),
  );
  const { nominatim, geoapify, here } = config;
  if (nominatim) {
    const url = nominatim.url ?? nominatimReverseUrl;
    const options = { baseUrl: nominatim.url, userAgent: nominatim.userAgent };
    providers.push(
      make("NOMINATIM", url, (query) => buildNominatimRequest(query, { ...options, baseUrl: url }), mapNominatimPayload, {
        buildRequest: (query) => buildNominatimForwardRequest(query, options),
        mapPayload: mapNominatimForwardPayload,
      }),
    );
  }
  if (geoapify) {
    const url = geoapify.url ?? geoapifyReverseUrl;
    const options = { baseUrl: url, apiKey: geoapify.apiKey };
    providers.push(
      make("GEOAPIFY", url, (query) => buildGeoapifyRequest(query, options), mapGeoapifyPayload, {
        buildRequest: (query) => buildGeoapifyForwardRequest(query, options),
        mapPayload: mapGeoapifyForwardPayload,
      }),
    );
  }
  if (here) {
    const url = here.url ?? hereRevgeocodeUrl;
    const options = { baseUrl: url, apiKey: here.apiKey };
    providers.push(
      make("HERE", url, (query) => buildHereRequest(query, options), mapHerePayload, {
        buildRequest: (query) => buildHereForwardRequest(query, options),
        mapPayload: mapHereForwardPayload,
      }),
    );
  }
  if (deps.local) providers.push(deps.local);
  return providers;
}
