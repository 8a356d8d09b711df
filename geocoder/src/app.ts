import {
  jobCreationBody,
  reverseBatchBody,
  serviceApp,
  terseBodyFailures,
  type ErrorBody,
  type Logger,
  type MetricsRegistry,
  type ReadinessCheck,
} from "@linkgeo/shared";
import { geocodeRoutes } from "./geocoding/geocode-routes.ts";
import { jobRoutes, type JobRoutesDeps } from "./jobs/job-routes.ts";
import type { ReverseGeocoder } from "./geocoding/reverse-geocoder.ts";
import type { ProviderRegistry } from "./providers/provider-registry.ts";

export interface GeocoderDeps {
  registry: ProviderRegistry;
  /** Answers the queries, over the registry and the cache. */
  geocoder: ReverseGeocoder;
  /** The jobs' store, the runner's wake-up, the clock and how long a finished job is kept. */
  jobs: Omit<JobRoutesDeps, "geocoder">;
  log: Logger;
  accessLog?: boolean;
  readiness: { required: Record<string, ReadinessCheck>; optional?: Record<string, ReadinessCheck> };
  accepting?: () => boolean;
  /** METRICS_PORT set: every request is recorded here. */
  metrics?: MetricsRegistry;
}

/** The geocoder's errors travel in its envelope: {"success": false, "data": [], "error": {…}}. */
const envelope = (body: ErrorBody) => ({ success: false, data: [], error: body.error });

export function createApp(deps: GeocoderDeps) {
  const app = serviceApp({
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
    bodies: [reverseBatchBody, jobCreationBody],
  })
    .use(geocodeRoutes({ geocoder: deps.geocoder, registry: deps.registry }))
    .use(jobRoutes({ ...deps.jobs, geocoder: deps.geocoder }));
  return terseBodyFailures(app);
}
