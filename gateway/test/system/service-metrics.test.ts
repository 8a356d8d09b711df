import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestDatabase, freePort, startService, testRedisUrl, uniqueRedisPrefix, type ServiceProcess } from "@linkgeo/testing";

/**
 * METRICS_PORT on the three services, as processes: each serves Prometheus'
 * text on that port only, with its requests by route template and its
 * process metrics, and the gateway's own port never shows them.
 */
const stack = new AsyncDisposableStack();
const metricsPorts: Record<"shortener" | "geocoder" | "gateway", number> = { shortener: 0, geocoder: 0, gateway: 0 };
let gateway: ServiceProcess;

beforeAll(async () => {
  const database = await createTestDatabase("metrics");
  stack.defer(() => database.drop());
  for (const name of Object.keys(metricsPorts) as (keyof typeof metricsPorts)[]) metricsPorts[name] = await freePort();
  const [shortener, geocoder] = await Promise.all([
    startService("shortener", {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: uniqueRedisPrefix("metrics"),
      METRICS_PORT: String(metricsPorts.shortener),
    }),
    startService("geocoder", { METRICS_PORT: String(metricsPorts.geocoder) }),
  ]);
  stack.use(shortener!);
  stack.use(geocoder!);
  gateway = stack.use(
    await startService("gateway", {
      SHORTENER_URL: shortener!.url,
      GEOCODER_URL: geocoder!.url,
      METRICS_PORT: String(metricsPorts.gateway),
      RATE_LIMIT_CREATE: "off",
    }),
  );
}, 60_000);

afterAll(() => stack.disposeAsync());

async function scrape(name: keyof typeof metricsPorts): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsPorts[name]}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one sample line, found by its name and labels in any order. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf("}"));
    if (Object.entries(labels).every(([key, value]) => inside.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("METRICS_PORT", () => {
  test("each service serves its requests by route template and its process metrics there; the gateway's own port does not", async () => {
    const created = await fetch(`${gateway.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: "https://example.com/metrics" }),
    });
    const code = ((await created.json()) as { short_url: string }).short_url;
    for (let i = 0; i < 3; i++) expect((await fetch(`${gateway.url}/${code}/`, { redirect: "manual" })).status).toBe(302);
    expect((await fetch(`${gateway.url}/geocoders`)).status).toBe(200);

    const [gatewayText, shortenerText, geocoderText] = await Promise.all([scrape("gateway"), scrape("shortener"), scrape("geocoder")]);
    expect(sample(gatewayText, "http_requests_total", { route: "shortener/redirect", method: "GET", status: "302", service: "gateway" })).toBe(3);
    expect(sample(gatewayText, "http_requests_total", { route: "shortener/create", method: "POST", status: "201" })).toBe(1);
    expect(sample(gatewayText, "http_requests_total", { route: "geocoder/api", method: "GET", status: "200" })).toBe(1);
    expect(sample(shortenerText, "http_requests_total", { route: "/shorten/", method: "POST", status: "201", service: "shortener" })).toBe(1);
    expect(sample(geocoderText, "http_requests_total", { route: "/geocoders", method: "GET", status: "200", service: "geocoder" })).toBe(1);
    for (const text of [gatewayText, shortenerText, geocoderText]) {
      expect(text).not.toContain(code);
      for (const name of [
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_eventloop_lag_seconds",
        "http_request_duration_seconds_bucket",
        "http_requests_in_flight",
      ]) {
        expect({ name, present: text.includes(`${name}`) }).toEqual({ name, present: true });
      }
    }

    const throughGateway = await fetch(`${gateway.url}/metrics`);
    expect(throughGateway.status).toBe(404);
    expect(await throughGateway.text()).not.toContain("http_requests_total");
  });
});
