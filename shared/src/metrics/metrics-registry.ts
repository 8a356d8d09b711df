import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * A service's metrics: a registry of its own (never prom-client's global
 * one, so two apps in one test process do not share series), every series
 * labelled with the service's name, with the process metrics prom-client
 * collects under Bun: CPU, resident and heap memory, open file descriptors,
 * event-loop lag and active handles. Bun reports no garbage-collection
 * events, so there is no GC duration metric.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** METRICS_PORT's rule, for every service's config. */
export function parseMetricsPort(raw: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) throw new Error("must be a whole number from 1 to 65535");
  return Number(raw);
}
