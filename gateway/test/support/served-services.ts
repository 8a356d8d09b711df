import { startTestGeocoder } from "../../../geocoder/test/support/test-geocoder.ts";
import { startTestShortener } from "../../../shortener/test/support/test-shortener.ts";
import type { ServiceName } from "../../src/docs/merged-spec-source.ts";

export interface ServedServices extends AsyncDisposable {
  url: Record<ServiceName, string>;
  /** What the gateway's main would pass to docsRoutes: GET <service>/docs/json over HTTP. */
  fetchServiceSpec(service: ServiceName, signal: AbortSignal): Promise<unknown>;
  /** How many times fetchServiceSpec asked each service. */
  specRequests: Record<ServiceName, number>;
  /** Closes the service's socket: the next request is refused, as when its container is gone. */
  stop(service: ServiceName): Promise<void>;
}

/** The real shortener and geocoder apps, each listening on 127.0.0.1 port 0. */
export async function serveServices(): Promise<ServedServices> {
  const shortener = await startTestShortener();
  const geocoder = startTestGeocoder({ providers: {} });
  const specRequests: Record<ServiceName, number> = { shortener: 0, geocoder: 0 };
  const apps = { shortener: shortener.app, geocoder: geocoder.app };
  for (const name of ["shortener", "geocoder"] as const) {
    apps[name].listen({ port: 0, hostname: "127.0.0.1" });
  }
  const url = {
    shortener: `http://127.0.0.1:${apps.shortener.server!.port}`,
    geocoder: `http://127.0.0.1:${apps.geocoder.server!.port}`,
  };
  const stopped = new Set<ServiceName>();
  const stop = async (service: ServiceName) => {
    if (stopped.has(service)) return;
    stopped.add(service);
    await apps[service].stop(true);
  };
  return {
    url,
    specRequests,
    async fetchServiceSpec(service, signal) {
      specRequests[service]++;
      const response = await fetch(`${url[service]}/docs/json`, { signal });
      if (!response.ok) throw new Error(`${service} answered ${response.status}`);
      return response.json();
    },
    stop,
    async [Symbol.asyncDispose]() {
      await stop("shortener");
      await stop("geocoder");
      await shortener[Symbol.asyncDispose]();
      geocoder.l2Database.close();
    },
  };
}
