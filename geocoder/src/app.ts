import { swagger } from "@elysiajs/swagger";
import { errorRenderer, health, jsonBody, requestContext, type ErrorBody, type Logger, type ReadinessCheck } from "@linkgeo/shared";
import { Elysia } from "elysia";
import { geocodeRoutes } from "./geocoding/geocode-routes.ts";
import { ReverseGeocoder, type AnswerCache } from "./geocoding/reverse-geocoder.ts";
import type { ProviderRegistry } from "./providers/provider-registry.ts";

export interface GeocoderDeps {
  registry: ProviderRegistry;
  cache: AnswerCache;
  clock: () => Date;
  log: Logger;
  accessLog?: boolean;
  readiness: { required: Record<string, ReadinessCheck>; optional?: Record<string, ReadinessCheck> };
  accepting?: () => boolean;
}

/** The geocoder's errors travel in its envelope: {"success": false, "data": [], "error": {…}}. */
const envelope = (body: ErrorBody) => ({ success: false, data: [], error: body.error });

export function createApp(deps: GeocoderDeps) {
  const geocoder = new ReverseGeocoder(deps.registry, deps.cache, deps.clock, deps.log);
  return new Elysia()
    .use(requestContext({ log: deps.log, accessLog: deps.accessLog ?? false }))
    .use(errorRenderer({ log: deps.log, wrap: envelope }))
    .use(jsonBody)
    .use(
      swagger({
        path: "/docs",
        documentation: {
          info: {
            title: "Geocoder API",
            version: "1.0.0",
            description: "Reverse geocoding over Geoapify, HERE and Nominatim, with a two-level cache.",
          },
        },
      }),
    )
    .use(health({ ...deps.readiness, accepting: deps.accepting ?? (() => true) }))
    .use(geocodeRoutes({ geocoder, registry: deps.registry }));
}
