import type { Server } from "bun";
import type { Registry } from "prom-client";
import { listenOrExit, type Exit } from "../http/listen-or-exit.ts";
import { describeError, type Logger } from "../core/logger.ts";
import { requestUrl } from "../http/request-target.ts";
import { createMetricsRegistry } from "./metrics-registry.ts";

export interface MetricsListenerOptions {
  registry: Registry;
  /** METRICS_PORT: a port of its own, which the gateway never proxies. */
  port: number;
  hostname: string;
  /** Where a collector that fails is reported. */
  log: Logger;
}

/**
 * `GET /metrics` in Prometheus' text format, on its own port: scraping it
 * costs the service's API nothing, and a firewall or compose can keep it
 * off the public network. As on the API ports, a method other than GET or
 * HEAD (CONNECT included) is 405, a request without a path and a valid Host
 * 400, any other path 404; a collector that fails is logged and answered
 * with a bare 500, never a stack trace.
 */
export function serveMetrics(options: MetricsListenerOptions): Server<undefined> {
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    async fetch(request) {
      if (request.method !== "GET" && request.method !== "HEAD") return new Response("method not allowed\n", { status: 405, headers: { allow: "GET, HEAD" } });
      const url = requestUrl(request);
      if (!url) return new Response("the request needs a path and a valid Host header\n", { status: 400 });
      if (url.pathname !== "/metrics") return new Response("not found\n", { status: 404 });
      return new Response(await options.registry.metrics(), { headers: { "content-type": options.registry.contentType } });
    },
    error(error) {
      options.log.error("metrics could not be served", { error: describeError(error) });
      return new Response("internal error\n", { status: 500 });
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
  const server = listenOrExit(
    options.log,
    { what: "metrics", hostname, port },
    () => serveMetrics({ registry, port, hostname, log: options.log }),
    options.exit,
  );
  options.log.info("metrics", { url: `http://${options.hostname}:${server.port}/metrics` });
  return { registry, stop: () => void server.stop(true) };
}
