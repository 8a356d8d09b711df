import type { MetricsRegistry } from "@linkgeo/shared";
import { Counter, Histogram } from "prom-client";
import type { GeocoderObserver } from "./reverse-geocoder.ts";

/**
 * The ReverseGeocoder's work as Prometheus metrics: answers by cache level
 * (L1, L2, MISS), and provider calls by provider and outcome ("ok" or the
 * failure: timeout, unreachable, rate_limited, cooling_down, …) with their
 * time. Provider names come from the configuration, outcomes from a fixed
 * list: no label value comes from a request.
 */
export function geocoderMetrics(registry: MetricsRegistry): GeocoderObserver {
  const registers = [registry];
  const answers = new Counter({ name: "geocoder_answers_total", help: "Queries answered, by where the answer came from (L1, L2, MISS).", labelNames: ["cache"], registers });
  const calls = new Counter({ name: "geocoder_provider_calls_total", help: "Provider calls, by provider and outcome.", labelNames: ["provider", "outcome"], registers });
  const seconds = new Histogram({
    name: "geocoder_provider_call_seconds",
    help: "Time of one provider call, by provider.",
    labelNames: ["provider"],
    buckets: [0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 8],
    registers,
  });
  return {
    answered(cache) {
      answers.labels(cache).inc();
    },
    providerCalled(provider, outcome, took) {
      calls.labels(provider, outcome).inc();
      seconds.labels(provider).observe(took);
    },
  };
}
