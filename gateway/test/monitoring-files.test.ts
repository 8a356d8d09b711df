import { describe, expect, test } from "bun:test";
import { createMetricsRegistry, httpMetrics, parseMetricsPort } from "@linkgeo/shared";
import { geocoderMetrics } from "../../geocoder/src/geocoding/geocoder-metrics.ts";
import { visitMetrics } from "../../shortener/src/visits/visit-metrics.ts";
import { gatewayMetrics } from "../src/metrics/gateway-metrics.ts";
import { parseCompose, readRepositoryFile } from "./support/deployment-files.ts";

/**
 * The compose `monitoring` profile's files (docs/monitoring/) against the
 * code: Prometheus scrapes each service where it serves its metrics, and
 * the Grafana dashboard asks only for metrics the code exposes.
 */
const compose = parseCompose(readRepositoryFile("compose.yaml"));

/** Every metric name a scrape of the three services can show (histograms with their series). */
async function exposedMetricNames(): Promise<Set<string>> {
  const registry = createMetricsRegistry("any");
  httpMetrics({ registry });
  visitMetrics(registry);
  geocoderMetrics(registry);
  gatewayMetrics(registry, []);
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

/** The metric names a PromQL expression reads: label matchers, strings and `by (...)` lists removed, functions left out. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\b(by|without)\s*\([^)]*\)/g, "");
  const functions = new Set(["histogram_quantile"]);
  return [...bare.matchAll(/[a-zA-Z_][a-zA-Z0-9_]*/g)].map((m) => m[0]).filter((word) => word.includes("_") && !functions.has(word));
}

/** The container path a service mounts `source` (relative to the repository) at. */
function mountTarget(serviceName: string, source: string): string | undefined {
  const mount = compose.services[serviceName]!.volumes.find((volume) => volume.split(":")[0] === source);
  return mount?.split(":")[1];
}

describe("docs/monitoring: Prometheus", () => {
  const config = Bun.YAML.parse(readRepositoryFile("docs/monitoring/prometheus.yml")) as {
    scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; type: string; port: number }[] }[];
  };

  test("scrapes every replica of each service, found by its compose name, on the METRICS_PORT compose gives it", () => {
    // What each service's config reads METRICS_PORT with.
    const metricsPortOf = (name: string) => parseMetricsPort(compose.services[name]!.environment.METRICS_PORT ?? "unset");
    const metricsPorts = { shortener: metricsPortOf("shortener"), geocoder: metricsPortOf("geocoder"), gateway: metricsPortOf("gateway") };
    const jobs = Object.fromEntries(
      config.scrape_configs.map((job) => [job.job_name, job.dns_sd_configs.map((sd) => `${sd.type} ${sd.names.join(",")}:${sd.port}`)]),
    );
    expect(jobs).toEqual({
      shortener: [`A shortener:${metricsPorts.shortener}`],
      geocoder: [`A geocoder:${metricsPorts.geocoder}`],
      gateway: [`A gateway:${metricsPorts.gateway}`],
    });
    expect(mountTarget("prometheus", "./docs/monitoring/prometheus.yml")).toBe("/etc/prometheus/prometheus.yml");
    expect(compose.services.prometheus!.command).toContain("--config.file=/etc/prometheus/prometheus.yml");
  });
});

describe("docs/monitoring: Grafana", () => {
  const dashboard = JSON.parse(readRepositoryFile("docs/monitoring/grafana/dashboards/linkgeo.json")) as {
    panels: { title: string; datasource: { uid: string }; targets: { expr: string; datasource: { uid: string } }[] }[];
  };

  test("the dashboard shows traffic, errors, latency, redirects, the cache hit ratio and provider health", () => {
    const titles = dashboard.panels.map((panel) => panel.title.toLowerCase()).join(" | ");
    for (const topic of ["traffic", "errors", "latency", "redirects", "cache hit ratio", "provider health"])
      expect({ topic, shown: titles.includes(topic) }).toEqual({ topic, shown: true });
  });

  test("every expression of the dashboard asks for metrics the code exposes", async () => {
    const exposed = await exposedMetricNames();
    const asked = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) => metricNamesIn(target.expr).map((name) => ({ panel: panel.title, name }))),
    );
    expect(asked.length).toBeGreaterThan(20);
    expect(asked.filter(({ name }) => !exposed.has(name))).toEqual([]);
  });

  test("the dashboard's data source is the one provisioned, pointing at the profile's Prometheus; the provisioned folder is the one mounted", () => {
    const uids = new Set(dashboard.panels.flatMap((panel) => [panel.datasource.uid, ...panel.targets.map((target) => target.datasource.uid)]));
    const datasources = Bun.YAML.parse(readRepositoryFile("docs/monitoring/grafana/provisioning/datasources/prometheus.yml")) as {
      datasources: { uid: string; url: string }[];
    };
    expect([...uids]).toEqual([datasources.datasources[0]!.uid]);
    expect(datasources.datasources[0]!.url).toBe("http://prometheus:9090");
    const providers = Bun.YAML.parse(readRepositoryFile("docs/monitoring/grafana/provisioning/dashboards/linkgeo.yml")) as {
      providers: { options: { path: string } }[];
    };
    expect(mountTarget("grafana", "./docs/monitoring/grafana/dashboards")).toBe(providers.providers[0]!.options.path);
    expect(mountTarget("grafana", "./docs/monitoring/grafana/provisioning")).toBe("/etc/grafana/provisioning");
  });
});
