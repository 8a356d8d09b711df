import { describe, expect, test } from "bun:test";
import { Registry } from "prom-client";
import { reply, startFakeProvider } from "@linkgeo/testing";
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import { startTestGeocoder } from "./support/test-geocoder.ts";

/** Every sample of one metric as `label=value,…` → value. */
async function samples(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return Object.fromEntries(
    (metric?.values ?? []).map((value) => [
      Object.entries(value.labels)
        .map(([key, label]) => `${key}=${label}`)
        .join(","),
      value.value,
    ]),
  );
}

// Side by side: each case makes its own fake providers and geocoder (in-process caches and a
// registry of its own) and spends most of its time waiting on their deadlines and pace.
describe.concurrent("geocoder metrics", () => {
  test("count answers by cache level and provider calls by provider and outcome", async () => {
    await using replica = startFakeProvider({ otherwise: reply.status(500) });
    await using nominatim = startFakeProvider({ otherwise: reply.html(503) });
    await using geoapify = startFakeProvider({ otherwise: reply.fixture("geoapify-02-white-house-tn-us-json.json") });
    const registry = new Registry();
    const geocoder = startTestGeocoder({
      providers: {
        replicas: [{ number: 1, url: replica.url().toString() }],
        nominatim: { userAgent: "t", url: nominatim.url().toString() },
        geoapify: { apiKey: "geo-secret", url: geoapify.url().toString() },
      },
      metrics: registry,
    });
    for (let i = 0; i < 2; i++) expect((await geocoder.get("/reverse-geocode?latitude=36.4682&longitude=-86.6536")).status).toBe(200);

    expect(await samples(registry, "geocoder_answers_total")).toEqual({ "cache=MISS": 1, "cache=L1": 1 });
    expect(await samples(registry, "geocoder_provider_calls_total")).toEqual({
      "provider=NOMINATIM_REPLICA_1,outcome=upstream_error": 1,
      "provider=NOMINATIM,outcome=upstream_error": 1,
      "provider=GEOAPIFY,outcome=ok": 1,
    });
    const seconds = await samples(registry, "geocoder_provider_call_seconds");
    expect(seconds["le=+Inf,provider=GEOAPIFY"]).toBe(1);
    expect(JSON.stringify(await registry.metrics())).not.toContain("geo-secret");
  });

  test("count breaker and cooldown changes per provider, and misses that joined one in flight", async () => {
    await using limited = startFakeProvider({ otherwise: { ...reply.status(429), headers: { "retry-after": "60" } } });
    await using broken = startFakeProvider({ otherwise: reply.status(500) });
    await using slow = startFakeProvider({ otherwise: { ...reply.fixture("geoapify-02-white-house-tn-us-json.json"), delayMs: 200 } });
    const registry = new Registry();
    const geocoder = startTestGeocoder({
      providers: {
        replicas: [{ number: 1, url: limited.url().toString() }],
        nominatim: { userAgent: "t", url: broken.url().toString() },
        geoapify: { apiKey: "k", url: slow.url().toString() },
      },
      metrics: registry,
    });
    // Three distinct misses: the replica asks us to wait once, Nominatim fails three times and is taken out.
    for (let i = 0; i < 3; i++) expect((await geocoder.get(`/reverse-geocode?latitude=${10 + i}&longitude=20`)).status).toBe(200);
    // Five identical misses at once: one provider call, four joins.
    const same = await Promise.all(Array.from({ length: 5 }, () => geocoder.get("/reverse-geocode?latitude=50&longitude=20")));
    expect(same.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

    expect(await samples(registry, "geocoder_provider_health_changes_total")).toEqual({
      "provider=NOMINATIM_REPLICA_1,change=cooled_down": 1,
      "provider=NOMINATIM,change=opened": 1,
    });
    expect(await samples(registry, "geocoder_single_flight_joins_total")).toEqual({ "": 4 });
  });

  test("LOCAL's lookups are provider calls like any other, and a fallback after a network failure is counted for both", async () => {
    await using down = startFakeProvider({ otherwise: reply.status(500) });
    const registry = new Registry();
    const geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "t", url: down.url().toString() } },
      local: inProcessProvider([localVienna]),
      metrics: registry,
    });
    expect((await geocoder.get("/reverse-geocode?latitude=48.2&longitude=16.37")).headers.get("x-geocoder-provider")).toBe("LOCAL");
    expect((await geocoder.get("/reverse-geocode?latitude=48.2&longitude=16.37&platform=local")).status).toBe(200);
    expect(await samples(registry, "geocoder_provider_calls_total")).toEqual({
      "provider=NOMINATIM,outcome=upstream_error": 1,
      "provider=LOCAL,outcome=ok": 2,
    });
  });
});
