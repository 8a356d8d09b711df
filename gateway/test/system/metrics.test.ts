import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTestDatabase,
  freePort,
  prometheusSetupTimeoutMs,
  reply,
  startFakeProvider,
  startPrometheus,
  startService,
  startServicesTogether,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
  type FakeProvider,
  type PrometheusProcess,
  type ServiceProcess,
} from "@linkgeo/testing";

/**
 * METRICS_PORT on the three services, started as processes once for the
 * file: each serves Prometheus' text on that port only, and a real
 * Prometheus scraping them reports what happened. One stack for both
 * suites: the services' start-up is paid once.
 */
const stack = new AsyncDisposableStack();
const metricsPorts: Record<"shortener" | "geocoder" | "gateway", number> = { shortener: 0, geocoder: 0, gateway: 0 };
let gateway: ServiceProcess;
let prometheus: PrometheusProcess;
let provider: FakeProvider;

beforeAll(async () => {
  const database = await createTestDatabase("metrics");
  stack.defer(() => database.drop());
  const dir = mkdtempSync(join(tmpdir(), "metrics-test-"));
  stack.defer(() => rmSync(dir, { recursive: true, force: true }));
  provider = stack.use(startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") }));
  for (const name of Object.keys(metricsPorts) as (keyof typeof metricsPorts)[]) metricsPorts[name] = await freePort();
  // Prometheus starts beside the services (its targets are down until they listen): the two start-ups overlap.
  const prometheusStarting = startPrometheus({
    shortener: [`127.0.0.1:${metricsPorts.shortener}`],
    geocoder: [`127.0.0.1:${metricsPorts.geocoder}`],
    gateway: [`127.0.0.1:${metricsPorts.gateway}`],
  });
  // Its failure is seen where it is awaited, below, not as an unhandled rejection while the services start.
  prometheusStarting.catch(() => {});
  stack.defer(async () => (await prometheusStarting.catch(() => undefined))?.[Symbol.asyncDispose]());
  const [shortener, geocoder] = await startServicesTogether(stack, [
    {
      service: "shortener",
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl,
        REDIS_KEY_PREFIX: uniqueRedisPrefix("metrics"),
        METRICS_PORT: String(metricsPorts.shortener),
      },
    },
    // Its own level-2 file: answers cached by an earlier run would never reach the provider.
    {
      service: "geocoder",
      env: {
        NOMINATIM_REVERSER_REPLICA_URL_1: provider.url().toString(),
        GEOCODER_CACHE_PATH: join(dir, "l2.db"),
        METRICS_PORT: String(metricsPorts.geocoder),
        // The fake provider answers every point: LOCAL, last in the chain, would only lengthen the start.
        GEOCODER_LOCAL: "false",
      },
    },
  ]);
  gateway = stack.use(
    await startService("gateway", {
      SHORTENER_URL: shortener.url,
      GEOCODER_URL: geocoder.url,
      METRICS_PORT: String(metricsPorts.gateway),
      RATE_LIMIT_CREATE: "off",
    }),
  );
  prometheus = await prometheusStarting;
  await prometheus.targetsUp();
}, prometheusSetupTimeoutMs);

afterAll(() => stack.disposeAsync());

async function createLink(longUrl: string): Promise<string> {
  const created = await fetch(`${gateway.url}/shorten/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ long_url: longUrl }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { short_url: string }).short_url;
}

async function scrape(name: keyof typeof metricsPorts): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsPorts[name]}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one sample line, found by its name and labels in any order; 0 when there is none yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf("}"));
    if (Object.entries(labels).every(([key, value]) => inside.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

// First in the file: on services that have had no traffic yet, Prometheus' totals are this test's own.
describe("a real Prometheus scraping the three services", () => {
  /** Waits until Prometheus has scraped a value for `query` equal to `expected`, and returns what it last saw. */
  async function settled(query: string, expected: number): Promise<number | undefined> {
    let seen: number | undefined;
    await waitFor(`Prometheus to report ${query} = ${expected}`, async () => (seen = await prometheus.value(query)) === expected, 20_000).catch(() => {});
    return seen;
  }

  test("reports the redirects counted, their rate, and the provider calls made, after known traffic", async () => {
    const code = await createLink("https://example.com/scraped");
    for (let i = 0; i < 12; i++) expect((await fetch(`${gateway.url}/${code}/`, { redirect: "manual" })).status).toBe(302);
    // Five distinct points: five misses, five calls to the provider; the same point again is an L1 hit.
    for (let i = 0; i < 5; i++) expect((await fetch(`${gateway.url}/reverse-geocode?latitude=${48.5 + i / 10}&longitude=2.35`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/reverse-geocode?latitude=48.5&longitude=2.35`)).headers.get("x-cache")).toBe("L1");
    expect(provider.requests).toHaveLength(5);

    expect(await settled('sum(shortener_redirects_counted_total{job="shortener"})', 12)).toBe(12);
    expect(await settled('sum(http_requests_total{job="gateway",route="shortener/redirect",status="302"})', 12)).toBe(12);
    expect(await settled('sum(geocoder_provider_calls_total{job="geocoder",outcome="ok"})', 5)).toBe(5);
    expect(await settled('sum(geocoder_answers_total{job="geocoder",cache="L1"})', 1)).toBe(1);
    // A rate over the last minute: the redirects were a moment ago, so it is above zero and at most 12 a second.
    const rate = await prometheus.value('sum(rate(shortener_redirects_counted_total{job="shortener"}[1m]))');
    expect(rate).toBeGreaterThan(0);
    expect(rate).toBeLessThanOrEqual(12);
  });
});

// Judged by what its own traffic changed, whatever ran before it.
describe("METRICS_PORT", () => {
  test("each service serves its requests by route template and its process metrics there; the gateway's own port does not", async () => {
    const expected = [
      { service: "gateway", labels: { route: "shortener/redirect", method: "GET", status: "302", service: "gateway" }, added: 3 },
      { service: "gateway", labels: { route: "shortener/create", method: "POST", status: "201" }, added: 1 },
      { service: "gateway", labels: { route: "geocoder/api", method: "GET", status: "200" }, added: 1 },
      { service: "shortener", labels: { route: "/shorten/", method: "POST", status: "201", service: "shortener" }, added: 1 },
      { service: "geocoder", labels: { route: "/geocoders", method: "GET", status: "200", service: "geocoder" }, added: 1 },
    ] as const;
    const scrapeAll = async () => {
      const [gateway, shortener, geocoder] = await Promise.all([scrape("gateway"), scrape("shortener"), scrape("geocoder")]);
      return { gateway, shortener, geocoder };
    };
    const before = await scrapeAll();
    const code = await createLink("https://example.com/metrics");
    for (let i = 0; i < 3; i++) expect((await fetch(`${gateway.url}/${code}/`, { redirect: "manual" })).status).toBe(302);
    expect((await fetch(`${gateway.url}/geocoders`)).status).toBe(200);

    const after = await scrapeAll();
    for (const { service, labels, added } of expected) {
      const change = sample(after[service], "http_requests_total", labels) - sample(before[service], "http_requests_total", labels);
      expect({ service, labels, added: change }).toEqual({ service, labels, added });
    }
    for (const text of Object.values(after)) {
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
