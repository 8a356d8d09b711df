import type { Server } from "bun";
import type { Registry } from "prom-client";
import { listenOrExit, type Exit } from "../listen-or-exit.ts";
import type { Logger } from "../logger.ts";
import { createMetricsRegistry } from "./metrics-registry.ts";

export interface MetricsListenerOptions {
  registry: Registry;
  /** METRICS_PORT: a port of its own, which the gateway never proxies. */
  port: number;
  hostname: string;
}

/**
 * `GET /metrics` in Prometheus' text format, on its own port: scraping it
 * costs the service's API nothing, and a firewall or compose can keep it
 * off the public network. Anything else there is a 404.
 */
export function serveMetrics(options: MetricsListenerOptions): Server<undefined> {
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path !== "/metrics") return new Response("not found\n", { status: 404 });
      if (request.method !== "GET" && request.method !== "HEAD") return new Response("method not allowed\n", { status: 405, headers: { allow: "GET, HEAD" } });
      return new Response(await options.registry.metrics(), { headers: { "content-type": options.registry.contentType } });
    },
  });
}

/** A service's metrics as main.ts starts them: a registry for its app and the listener serving it. */
export interface ServiceMetrics {
  /** Undefined when METRICS_PORT is not set: nothing is recorded, no hook is registered. */
  registry: Registry | undefined;
  stop(): void;
}

/**
 * METRICS_PORT set: a registry (process metrics included) and its listener on that port; unset: neither.
 * A port that cannot be had stops the process (listenOrExit).
 */
export function startServiceMetrics(options: { service: string; port: number | undefined; hostname: string; log: Logger; exit?: Exit }): ServiceMetrics {
  if (options.port === undefined) return { registry: undefined, stop: () => {} };
  const registry = createMetricsRegistry(options.service);
  const { port, hostname } = options;
  const server = listenOrExit(options.log, { what: "metrics", hostname, port }, () => serveMetrics({ registry, port, hostname }), options.exit);
  options.log.info("metrics", { url: `http://${options.hostname}:${server.port}/metrics` });
  return { registry, stop: () => void server.stop(true) };
}
