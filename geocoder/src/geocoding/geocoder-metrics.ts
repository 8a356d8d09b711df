import { declareMetrics, type MetricsRegistry } from "@linkgeo/shared";
import type { ProviderHealthChange } from "../providers/http-provider.ts";
import type { GeocoderObserver } from "./reverse-geocoder.ts";

/** Everything the geocoder reports: its answers and calls, and its providers' health. */
export interface GeocoderMetrics extends GeocoderObserver {
  healthChanged(provider: string, change: ProviderHealthChange): void;
}

/**
 * The ReverseGeocoder's work as Prometheus metrics: answers by cache level
 * (L1, L2, MISS), and provider calls by provider and outcome ("ok" or the
 * failure: timeout, unreachable, rate_limited, cooling_down, …) with their
 * time. Provider names come from the configuration, outcomes from a fixed
 * list: no label value comes from a request. Breaker changes (opened,
 * closed) and 429 cooldowns per provider, and the queries that joined an
 * identical one already in flight instead of calling a provider again.
 */
export function geocoderMetrics(registry: MetricsRegistry): GeocoderMetrics {
  const declare = declareMetrics(registry);
  const answers = declare.counter("geocoder_answers_total", "Queries answered, by where the answer came from (L1, L2, MISS).", ["cache"]);
  const calls = declare.counter("geocoder_provider_calls_total", "Provider calls, by provider and outcome.", ["provider", "outcome"]);
  const seconds = declare.histogram(
    "geocoder_provider_call_seconds",
    "Time of one provider call, by provider.",
    [0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 8],
    ["provider"],
  );
  const health = declare.counter(
    "geocoder_provider_health_changes_total",
    "Provider breaker and cooldown changes: opened (out of rotation), closed (back), cooled_down (asked to wait by a 429).",
    ["provider", "change"],
  );
  const joins = declare.counter("geocoder_single_flight_joins_total", "Cache misses that joined an identical one in flight instead of calling a provider.");
  return {
    healthChanged(provider, change) {
      health.labels(provider, change).inc();
    },
    joinedFlight() {
      joins.inc();
    },
    answered(cache) {
      answers.labels(cache).inc();
    },
    providerCalled(provider, outcome, took) {
      calls.labels(provider, outcome).inc();
      seconds.labels(provider).observe(took);
    },
  };
}
