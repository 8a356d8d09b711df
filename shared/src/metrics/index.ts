export * from "./http-metrics.ts";
export * from "./metric-declarations.ts";
export * from "./metrics-listener.ts";
export * from "./metrics-registry.ts";
export type { Registry as MetricsRegistry } from "prom-client";
