import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTestDatabase,
  freePort,
  prometheusSetupTimeoutMs,
  startPrometheus,
  startService,
  testRedisUrl,
  uniqueRedisPrefix,
  waitFor,
  type PrometheusProcess,
  type ServiceProcess,
} from "@linkgeo/testing";
import { reply, startFakeProvider, type FakeProvider } from "@linkgeo/testing";

/**
 * A real Prometheus scraping the three services, started as processes with
 * METRICS_PORT: after known traffic, its HTTP API reports the redirects the
 * shortener counted and the calls the geocoder made to its provider.
 */
const stack = new AsyncDisposableStack();
let gateway: ServiceProcess;
let prometheus: PrometheusProcess;
let provider: FakeProvider;

beforeAll(async () => {
  const database = await createTestDatabase("prometheus");
  stack.defer(() => database.drop());
  const dir = mkdtempSync(join(tmpdir(), "prometheus-test-"));
  stack.defer(() => rmSync(dir, { recursive: true, force: true }));
  provider = stack.use(startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") }));
  const ports = { shortener: await freePort(), geocoder: await freePort(), gateway: await freePort() };
  const [shortener, geocoder] = await Promise.all([
    startService("shortener", {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: uniqueRedisPrefix("prometheus"),
      METRICS_PORT: String(ports.shortener),
    }),
    // Its own level-2 file: answers cached by an earlier run would never reach the provider.
    startService("geocoder", {
      NOMINATIM_REVERSER_REPLICA_URL_1: provider.url().toString(),
      GEOCODER_CACHE_PATH: join(dir, "l2.db"),
      METRICS_PORT: String(ports.geocoder),
    }),
  ]);
  stack.use(shortener!);
  stack.use(geocoder!);
  gateway = stack.use(
    await startService("gateway", {
      SHORTENER_URL: shortener!.url,
      GEOCODER_URL: geocoder!.url,
      METRICS_PORT: String(ports.gateway),
      RATE_LIMIT_CREATE: "off",
    }),
  );
  prometheus = stack.use(
    await startPrometheus({
      shortener: [`127.0.0.1:${ports.shortener}`],
      geocoder: [`127.0.0.1:${ports.geocoder}`],
      gateway: [`127.0.0.1:${ports.gateway}`],
    }),
  );
  await prometheus.targetsUp();
}, prometheusSetupTimeoutMs);

afterAll(() => stack.disposeAsync());

/** Waits until Prometheus has scraped a value for `query` equal to `expected`, and returns what it last saw. */
async function settled(query: string, expected: number): Promise<number | undefined> {
  let seen: number | undefined;
  await waitFor(`Prometheus to report ${query} = ${expected}`, async () => (seen = await prometheus.value(query)) === expected, 20_000).catch(() => {});
  return seen;
}

describe("a real Prometheus scraping the three services", () => {
  test("reports the redirects counted, their rate, and the provider calls made, after known traffic", async () => {
    const created = await fetch(`${gateway.url}/shorten/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ long_url: "https://example.com/scraped" }),
    });
    const code = ((await created.json()) as { short_url: string }).short_url;
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
