import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { Registry } from "prom-client";
import { Counter } from "prom-client";
import { createLogger, errorRenderer, httpMetrics, requestContext, requestTarget, serveMetrics, silentLogger } from "../src/index.ts";
import { rawRequest, waitFor } from "@linkgeo/testing";

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

  test("with logHost, each access line names the host the client asked, as the URL parser spells it; without, none", async () => {
    const lines: string[] = [];
    const log = createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(line) });
    const withHost = new Elysia().use(requestContext({ log, accessLog: true, logHost: true })).get("/", () => "ok");
    const without = new Elysia().use(requestContext({ log, accessLog: true })).get("/", () => "ok");
    await withHost.handle(new Request("http://Go.Brand.Example:8080/"));
    await without.handle(new Request("http://go.brand.example/"));
    // The line is written once the response has gone, after handle() resolves.
    const accessLines = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
    await waitFor("both access lines", () => accessLines().length === 2);
    expect(accessLines().map((entry) => entry.host)).toEqual(["go.brand.example", undefined]);
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
    const server = serveMetrics({ registry, port: 0, hostname: "127.0.0.1", log: silentLogger });
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

  test.each([
    ["no Host", "GET /metrics HTTP/1.0\r\n\r\n", 400],
    ["an empty Host", "GET /metrics HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n", 400],
    ["a Host with a bad port", "GET /metrics HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n", 400],
    ["a Host with a space", "GET /metrics HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n", 400],
    ["an authority-form target", "GET 127.0.0.1:9 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", 400],
    ["CONNECT", "CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nConnection: close\r\n\r\n", 405],
    ["TRACE", "TRACE /metrics HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", 405],
  ])("answers a request with %s as the API ports do (%p), not with a 500", async (_, request, status) => {
    const lines: string[] = [];
    const server = serveMetrics({
      registry: new Registry(),
      port: 0,
      hostname: "127.0.0.1",
      log: createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(line) }),
    });
    try {
      const response = await rawRequest(server.port!, request);
      expect(response.status).toBe(status);
      expect(response.body).not.toContain("at ");
      expect(lines).toEqual([]);
    } finally {
      server.stop(true);
    }
  });

  test("a collector that fails is logged once and answered with a bare 500, no stack trace", async () => {
    const registry = new Registry();
    new Counter({
      name: "broken_total",
      help: "A collector that throws.",
      registers: [registry],
      collect() {
        throw new Error("collector exploded");
      },
    });
    const lines: string[] = [];
    const server = serveMetrics({
      registry,
      port: 0,
      hostname: "127.0.0.1",
      log: createLogger({ service: "test", level: "info", format: "json", write: (line) => lines.push(line) }),
    });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect({ status: response.status, body: await response.text() }).toEqual({ status: 500, body: "internal error\n" });
      expect(lines.map((line) => JSON.parse(line))).toEqual([
        expect.objectContaining({ level: "error", msg: "metrics could not be served", error: expect.stringContaining("collector exploded") }),
      ]);
    } finally {
      server.stop(true);
    }
  });
});
