import { serviceApp, type ErrorBody, type Logger, type MetricsRegistry, type ReadinessCheck } from "@linkgeo/shared";
import { geocodeRoutes } from "./geocoding/geocode-routes.ts";
import { ReverseGeocoder, type AnswerCache, type GeocoderObserver } from "./geocoding/reverse-geocoder.ts";
import type { ProviderRegistry } from "./providers/provider-registry.ts";

export interface GeocoderDeps {
  registry: ProviderRegistry;
  cache: AnswerCache;
  clock: () => Date;
  log: Logger;
  /** The provider chain's time budget (GEOCODER_CHAIN_TIMEOUT_MS); default reverseGeocoderDefaults. */
  chainTimeoutMs?: number;
  accessLog?: boolean;
  readiness: { required: Record<string, ReadinessCheck>; optional?: Record<string, ReadinessCheck> };
  accepting?: () => boolean;
  /** METRICS_PORT set: every request is recorded here. */
  metrics?: MetricsRegistry;
  /** METRICS_PORT set: the geocoder's own metrics (geocoderMetrics). */
  observer?: GeocoderObserver;
}

/** The geocoder's errors travel in its envelope: {"success": false, "data": [], "error": {…}}. */
const envelope = (body: ErrorBody) => ({ success: false, data: [], error: body.error });

export function createApp(deps: GeocoderDeps) {
  const geocoder = new ReverseGeocoder(deps.registry, deps.cache, deps.clock, deps.log, {
    chainTimeoutMs: deps.chainTimeoutMs,
    observer: deps.observer,
  });
  return serviceApp({
    log: deps.log,
    accessLog: deps.accessLog ?? false,
    errors: { wrap: envelope },
    docs: {
      title: "Geocoder API",
      description: "Reverse geocoding over Geoapify, HERE, Nominatim (and its replicas) and the offline LOCAL data, with a two-level cache.",
    },
    readiness: deps.readiness,
    accepting: deps.accepting ?? (() => true),
    metrics: deps.metrics,
  }).use(geocodeRoutes({ geocoder, registry: deps.registry }));
}
