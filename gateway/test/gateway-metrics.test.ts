import { describe, expect, test } from "bun:test";
import { answersBody, clientOfRequest, parseBatchItems, parseIpRangeList, silentLogger } from "@linkgeo/shared";
import { freePort } from "@linkgeo/testing";
import { Registry } from "prom-client";
import { createApp } from "../src/app.ts";
import { gatewayMetrics, type GatewayObserver } from "../src/metrics/gateway-metrics.ts";
import { proxyRequest } from "../src/proxy/proxy-request.ts";
import { RedirectBatcher } from "../src/proxy/redirect-batcher.ts";
import { MemoryTokenBuckets } from "@linkgeo/shared/rate-limit";
import { UpstreamPool } from "../src/upstreams/upstream-pool.ts";
import { buildWebAssets } from "@linkgeo/webapp";
import { startFakeUpstream } from "./support/fake-upstream.ts";

/** Every sample of one metric as `label=value,…` → value. */
async function samples(registry: Registry, name: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const value of metric.values) {
      const sampleName = (value as { metricName?: string }).metricName ?? metric.name;
      if (sampleName !== name) continue;
      found[
        Object.entries(value.labels)
          .map(([key, label]) => `${key}=${label}`)
          .join(",")
      ] = value.value;
    }
  }
  return found;
}

/** A pool whose ejections reach the observer, as main.ts builds them. */
function observedPool(name: string, urls: string[], observer: () => GatewayObserver) {
  return new UpstreamPool({ name, urls, refreshMs: 60_000, log: silentLogger, onEject: (replica) => observer().ejected(name, replica) });
}

describe("gateway metrics", () => {
  test("count attempts by upstream, replica and outcome, retries, ejections and the replicas known; time the answers", async () => {
    await using alive = startFakeUpstream(() => new Response(null, { status: 302, headers: { location: "https://example.com/" } }));
    const dead = `http://127.0.0.1:${await freePort()}`;
    const registry = new Registry();
    let observer: GatewayObserver;
    const pool = observedPool("shortener", [dead, alive.origin], () => observer);
    observer = gatewayMetrics(registry, [pool]);
    const answer = await proxyRequest(new Request("http://gw.test/abc1234/"), {
      pool,
      upstream: "shortener",
      body: null,
      clientAddress: "203.0.113.9",
      viaTrustedProxy: false,
      requestId: "r1",
      timeoutMs: 5_000,
      observer,
    });
    expect(answer.status).toBe(302);

    expect(await samples(registry, "gateway_upstream_requests_total")).toEqual({
      [`upstream=shortener,replica=${dead},outcome=refused`]: 1,
      [`upstream=shortener,replica=${alive.origin},outcome=3xx`]: 1,
    });
    expect(await samples(registry, "gateway_upstream_retries_total")).toEqual({ "upstream=shortener": 1 });
    expect(await samples(registry, "gateway_upstream_ejections_total")).toEqual({ [`upstream=shortener,replica=${dead}`]: 1 });
    expect(await samples(registry, "gateway_upstream_replicas")).toEqual({ "upstream=shortener": 2 });
    expect((await samples(registry, "gateway_upstream_response_seconds_count"))["upstream=shortener"]).toBe(1);
  });

  test("record the size of each batch of redirects", async () => {
    await using replica = startFakeUpstream(async (request) => {
      const items = parseBatchItems(await request.text());
      return new Response(answersBody(items.map(() => ({ status: 302, headers: { location: "https://example.com/" }, body: null }))));
    });
    const registry = new Registry();
    let observer: GatewayObserver;
    const pool = observedPool("shortener", [replica.origin], () => observer);
    observer = gatewayMetrics(registry, [pool]);
    const batcher = new RedirectBatcher({ pool, secret: "s".repeat(32), timeoutMs: 5_000, log: silentLogger, observer });
    const item = (i: number) => ({
      code: `c${i}`,
      path: `/c${i}/`,
      requestId: `r${i}`,
      forwardedFor: "203.0.113.9",
      userAgent: null,
      referer: null,
      accept: null,
    });
    await batcher.redirect(item(0));
    await Promise.all(Array.from({ length: 150 }, (_, i) => batcher.redirect(item(i))));
    expect(await samples(registry, "gateway_redirect_batch_size_count")).toEqual({ "": 3 });
    expect(await samples(registry, "gateway_redirect_batch_size_sum")).toEqual({ "": 151 });
    expect(await samples(registry, "gateway_upstream_requests_total")).toEqual({ [`upstream=shortener,replica=${replica.origin},outcome=2xx`]: 3 });
  });

  test("count the requests refused by each rate-limit class", async () => {
    await using upstream = startFakeUpstream(() => Response.json({ short_url: "abc1234" }, { status: 201 }));
    const registry = new Registry();
    const upstreams = {
      shortener: observedPool("shortener", [upstream.origin], () => observer),
      geocoder: observedPool("geocoder", [upstream.origin], () => observer),
    };
    const observer = gatewayMetrics(registry, [upstreams.shortener, upstreams.geocoder]);
    const app = createApp({
      upstreams,
      buckets: new MemoryTokenBuckets(),
      rateLimits: { create: { capacity: 2, perSecond: 1 / 60 }, unlock: { capacity: 1, perSecond: 1 / 60 } },
      clientOf: clientOfRequest(parseIpRangeList("127.0.0.1/8")),
      upstreamTimeoutMs: 2_000,
      log: silentLogger,
      clock: () => new Date(),
      web: await buildWebAssets(),
      observer,
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const response = await app.handle(
        new Request("http://gw.test/shorten/", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
      );
      statuses.push(response.status);
    }
    for (let i = 0; i < 2; i++) statuses.push((await app.handle(new Request("http://gw.test/Ab3dE9x", { method: "POST", body: "password=x" }))).status);
    expect(statuses).toEqual([201, 201, 429, 429, 201, 429]);
    expect(await samples(registry, "gateway_rate_limited_total")).toEqual({ "class=create": 2, "class=unlock": 1 });
  });
});
