import {
  clientOf,
  defaultTrustedProxies,
  jobCreationBody,
  parseIpRangeList,
  reverseBatchBody,
  forwardBatchBody,
  serviceApp,
  terseBodyFailures,
  type ErrorBody,
  type IpRange,
  type Logger,
  type MetricsRegistry,
  type ReadinessCheck,
} from "@linkgeo/shared";
import type { Server } from "elysia/universal";
import { geocodeRoutes } from "./geocoding/geocode-routes.ts";
import { jobClientDigest } from "./jobs/job-client.ts";
import { jobRoutes, type JobRoutesDeps } from "./jobs/job-routes.ts";
import type { ReverseGeocoder } from "./geocoding/reverse-geocoder.ts";
import type { ForwardGeocoder } from "./geocoding/forward-geocoder.ts";
import type { ProviderRegistry } from "./providers/provider-registry.ts";

export interface GeocoderDeps {
  registry: ProviderRegistry;
  /** Answers the queries, over the registry and the cache. */
  geocoder: ReverseGeocoder;
  /** GET /geocode: from a name to places, down the same chain and caches. */
  forwardGeocoder: ForwardGeocoder;
  /**
   * The jobs' store, the runner's wake-up, the clock, how long a finished job is kept, the quotas, and how a
   * client's address is kept with its jobs (`jobClientDigest`; default: under a random secret of this process).
   */
  jobs: Omit<JobRoutesDeps, "geocoder" | "forward" | "clientOf"> & { clientDigest?: (address: string) => string };
  /** TRUSTED_PROXIES: whose X-Forwarded-For names a job's client; default this machine only. */
  trustedProxies?: readonly IpRange[];
  /** The socket's peer; default what Bun says (tests without a socket name one). */
  peerOf?: (request: Request, server: Server | null) => string | undefined;
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
  const trustedProxies = deps.trustedProxies ?? parseIpRangeList(defaultTrustedProxies);
  const peerOf = deps.peerOf ?? ((request: Request, server: Server | null) => server?.requestIP(request)?.address);
  const { clientDigest = jobClientDigest(undefined), ...jobs } = deps.jobs;
  // The client as the gateway (a trusted proxy) forwarded it, else the socket's peer: never a header anyone else wrote.
  const jobClientOf = (request: Request, server: Server | null) =>
    clientDigest(clientOf(peerOf(request, server), request.headers.get("x-forwarded-for"), trustedProxies).address);
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
    bodies: [reverseBatchBody, forwardBatchBody, jobCreationBody],
  })
    .use(geocodeRoutes({ geocoder: deps.geocoder, forward: deps.forwardGeocoder, registry: deps.registry }))
    .use(jobRoutes({ ...jobs, geocoder: deps.geocoder, forward: deps.forwardGeocoder, clientOf: jobClientOf }));
  return terseBodyFailures(app);
}
