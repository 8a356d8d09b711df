import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { Registry } from "prom-client";
import { createLogger, errorRenderer, httpMetrics, requestContext, requestTarget, serveMetrics } from "../src/index.ts";
import { waitFor } from "@linkgeo/testing";

/** Every sample of one metric, as label strings with their values. */
async function samples(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const found: Record<string, number> = {};
  for (const value of metric?.values ?? []) {
    const labels = Object.entries(value.labels)
      .map(([key, label]) => `${key}=${label}`)
      .join(",");
    found[(value as { metricName?: string }).metricName ? `${(value as { metricName?: string }).metricName}{${labels}}` : `{${labels}}`] = value.value;
  }
  return found;
}

function appWith(registry: Registry) {
  return new Elysia()
    .use(httpMetrics({ registry }))
    .use(requestTarget())
    .get("/:short_url", ({ params }) =>
      params.short_url === "gone" ? new Response("no", { status: 404 }) : new Response(null, { status: 302, headers: { location: "/x" } }),
    )
    .post("/shorten/", ({ set }) => {
      set.status = 201;
      return { ok: true };
    })
    .get("/fail", () => {
      throw new Error("boom");
    });
}

const request = (app: ReturnType<typeof appWith>, method: string, path: string) => app.handle(new Request(`http://localhost${path}`, { method }));

/** Elysia records a request after its answer has gone: wait until none is left in flight. */
async function recorded(registry: Registry): Promise<void> {
  await waitFor("every answered request recorded", async () => Object.values(await samples(registry, "http_requests_in_flight")).every((value) => value === 0));
}

describe("HTTP metrics", () => {
  test("count requests by route template, method and status: never the path or a code", async () => {
    const registry = new Registry();
    const app = appWith(registry);
    for (const path of ["/abc1234", "/zzz9999", "/gone"]) await request(app, "GET", path);
    await request(app, "POST", "/shorten/");
    await request(app, "GET", "/no/such/route");
    await request(app, "GET", "/fail");
    await recorded(registry);
    expect(await samples(registry, "http_requests_total")).toEqual({
      "{route=/:short_url,method=GET,status=302}": 2,
      "{route=/:short_url,method=GET,status=404}": 1,
      "{route=/shorten/,method=POST,status=201}": 1,
      "{route=unmatched,method=GET,status=404}": 1,
      "{route=/fail,method=GET,status=500}": 1,
    });
    const text = await registry.metrics();
    for (const raw of ["abc1234", "zzz9999", "no/such"]) expect(text).not.toContain(raw);
  });

  test("time every request in a histogram and count none in flight once all are answered", async () => {
    const registry = new Registry();
    const app = appWith(registry);
    await Promise.all(Array.from({ length: 5 }, () => request(app, "GET", "/abc1234")));
    await recorded(registry);
    const durations = await samples(registry, "http_request_duration_seconds");
    expect(durations["http_request_duration_seconds_count{route=/:short_url,method=GET,status=302}"]).toBe(5);
    expect(durations["http_request_duration_seconds_bucket{le=+Inf,route=/:short_url,method=GET,status=302}"]).toBe(5);
    expect(await samples(registry, "http_requests_in_flight")).toEqual({ "{}": 0 });
  });

  test("a method outside the known ones is 'other', and requests another hook refuses are counted", async () => {
    const registry = new Registry();
    const app = appWith(registry);
    await request(app, "PROPFIND", "/abc1234");
    await request(app, "TRACE", "/abc1234");
    await recorded(registry);
    const counted = await samples(registry, "http_requests_total");
    expect(Object.keys(counted).every((labels) => labels.includes("method=other"))).toBe(true);
    expect(Object.values(counted).reduce((a, b) => a + b, 0)).toBe(2);
  });

  test("an error is recorded with the status its client got, in the metrics and the access log alike", async () => {
    const registry = new Registry();
    const lines: string[] = [];
    const log = createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(line) });
    const app = new Elysia()
      .use(httpMetrics({ registry }))
      .use(requestTarget())
      .use(requestContext({ log, accessLog: true }))
      .use(errorRenderer({ log }))
      .get("/count", ({ query }) => ({ n: query.n }), { query: t.Object({ n: t.Numeric() }) })
      .post("/things", ({ body }) => body, { body: t.Object({ name: t.String() }) });
    const statuses = [];
    for (const path of ["/no/such/route", "/count?n=many", "/count?n=2"]) {
      statuses.push((await app.handle(new Request(`http://localhost${path}`))).status);
    }
    const post = await app.handle(new Request("http://localhost/things", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    statuses.push(post.status);
    expect(statuses).toEqual([404, 400, 200, 400]);
    await recorded(registry);
    expect(await samples(registry, "http_requests_total")).toEqual({
      "{route=unmatched,method=GET,status=404}": 1,
      "{route=/count,method=GET,status=400}": 1,
      "{route=/count,method=GET,status=200}": 1,
      "{route=/things,method=POST,status=400}": 1,
    });
    const accessLines = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
    expect(accessLines.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      "GET /no/such/route 404",
      "GET /count 400",
      "GET /count 200",
      "POST /things 400",
    ]);
  });

  test("a service with one catch-all route names its own route classes", async () => {
    const registry = new Registry();
    const app = new Elysia()
      .use(httpMetrics({ registry, routeOf: (request) => (new URL(request.url).pathname.startsWith("/shorten") ? "shortener/api" : "other") }))
      .all("*", () => "ok");
    await app.handle(new Request("http://localhost/shorten/abc"));
    await recorded(registry);
    expect(await samples(registry, "http_requests_total")).toEqual({ "{route=shortener/api,method=GET,status=200}": 1 });
  });
});

describe("the metrics listener", () => {
  test("serves GET /metrics in Prometheus' text format on its own port, and nothing else", async () => {
    const registry = new Registry();
    registry.setDefaultLabels({ service: "test" });
    const app = appWith(registry);
    await request(app, "GET", "/abc1234");
    await recorded(registry);
    const server = serveMetrics({ registry, port: 0, hostname: "127.0.0.1" });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
      expect(await metrics.text()).toContain('http_requests_total{route="/:short_url",method="GET",status="302",service="test"} 1');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(405);
    } finally {
      server.stop(true);
    }
  });
});
