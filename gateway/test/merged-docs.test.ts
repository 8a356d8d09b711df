import { describe, expect, test } from "bun:test";
import { errorCodes, errorRenderer, silentLogger } from "@linkgeo/shared";
import { readJson } from "@linkgeo/testing";
import { Elysia } from "elysia";
import { gatewayOwnSpec } from "../src/docs/gateway-own-spec.ts";
import { mergedDocs } from "../src/docs/merged-docs.ts";
import type { MergedSpecOptions, ServiceName } from "../src/docs/merged-spec-source.ts";
import { serveServices } from "./support/served-services.ts";
import { unresolvedRefs } from "./support/unresolved-refs.ts";

const shortenerPaths = [
  "/admin/api-keys",
  "/admin/audit",
  "/admin/api-keys/{id}",
  "/admin/domains",
  "/admin/domains/{id}",
  "/admin/allow-list",
  "/admin/allow-list/{id}",
  "/admin/ban-list",
  "/admin/ban-list/{id}",
  "/admin/reports",
  "/admin/reports/{id}/actions",
  "/report",
  "/admin/export/links",
  "/admin/import",
  "/admin/login",
  "/admin/session",
  "/admin/users",
  "/admin/users/{id}",
  "/admin/visits",
  "/admin/visits/daily",
  "/admin/visits/orphans",
  "/invites/{token}/accept",
  "/login",
  "/login/session",
  "/shorten/",
  "/shorten/bulk",
  "/shorten/stats",
  "/shorten/{short_url}",
  "/shorten/{short_url}/stats",
  "/shorten/{short_url}/visits",
  "/shorten/{short_url}/visits/export",
  "/workspaces/",
  "/workspaces/{id}",
  "/workspaces/{id}/api-keys",
  "/workspaces/{id}/audit",
  "/workspaces/{id}/api-keys/{key}",
  "/workspaces/{id}/invites",
  "/workspaces/{id}/invites/{invite}",
  "/workspaces/{id}/members",
  "/workspaces/{id}/members/{person}",
  "/{short_url}",
];
const geocoderPaths = [
  "/reverse-geocode",
  "/geocode",
  "/geocode/batch",
  "/reverse-geocode/batch",
  "/reverse-geocode/jobs",
  "/reverse-geocode/jobs/{id}",
  "/reverse-geocode/jobs/{id}/results",
  "/geocode/jobs",
  "/geocode/jobs/{id}",
  "/geocode/jobs/{id}/results",
  "/geocoders",
];
const ownPaths = ["/health", "/ready", "/docs", "/docs/json"];

/** A clock the test moves by hand: cache expiry without sleeping. */
function manualClock(start = "2026-11-22T07:00:00.000Z") {
  let now = new Date(start).getTime();
  return { clock: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

/** The gateway's docs routes behind the same error renderer the gateway uses. */
function gateway(options: Partial<MergedSpecOptions> & Pick<MergedSpecOptions, "fetchServiceSpec">) {
  const app = new Elysia().use(errorRenderer({ log: silentLogger })).use(mergedDocs({ ownSpec: gatewayOwnSpec, clock: () => new Date(), ...options }));
  // Elysia finds the path from character 11 on, so the host must be a real-looking one.
  return (path: string, headers: Record<string, string> = {}) => app.handle(new Request(new URL(path, "http://localhost").href, { headers }));
}

const mergeOf = (spec: { "x-linkgeo-merge": unknown }) => spec["x-linkgeo-merge"];

describe("GET /docs/json", () => {
  test("merges every shortener and geocoder path with the gateway's own, every $ref resolving", async () => {
    await using services = await serveServices();
    const get = gateway({ fetchServiceSpec: services.fetchServiceSpec });

    const response = await get("/docs/json");

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const spec = await readJson(response);
    expect(Object.keys(spec.paths).sort()).toEqual([...ownPaths, ...shortenerPaths, ...geocoderPaths].sort());
    expect(spec.info.title).toBe("linkgeo API");
    expect(spec.paths["/health"]).toEqual(gatewayOwnSpec().paths["/health"]!);
    expect(Object.keys(spec.paths["/shorten/{short_url}"])).toEqual(expect.arrayContaining(["get", "put", "delete"]));
    // A bearer token, or the web app's admin session cookie with its CSRF header.
    expect(spec.paths["/shorten/{short_url}"].put.security).toEqual([{ bearer: [] }, { adminSession: [], csrfToken: [] }]);
    expect(spec.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
      adminSession: expect.objectContaining({ type: "apiKey", in: "cookie", name: "linkgeo_admin" }),
      csrfToken: expect.objectContaining({ type: "apiKey", in: "header", name: "X-CSRF-Token" }),
    });
    expect(Object.keys(spec.components.schemas)).toContain("Error");
    // The error codes are a closed list: every one the services answer with, and no other.
    expect(spec.components.schemas.Error.properties.error.properties.code.enum).toEqual([...errorCodes]);
    expect(unresolvedRefs(spec)).toEqual([]);
    expect(mergeOf(spec)).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "shortener", status: "available" },
        { name: "geocoder", status: "available" },
      ],
      conflicts: [],
    });
  });

  test("with a service down, still answers 200 with the other's paths and says which one is missing", async () => {
    await using services = await serveServices();
    await services.stop("geocoder");
    const get = gateway({ fetchServiceSpec: services.fetchServiceSpec });

    const response = await get("/docs/json");

    expect(response.status).toBe(200);
    const spec = await readJson(response);
    expect(Object.keys(spec.paths).sort()).toEqual([...ownPaths, ...shortenerPaths].sort());
    expect(spec.info.description).toContain("- **geocoder**: unavailable; its operations are missing here until it answers.");
    expect(mergeOf(spec)).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "shortener", status: "available" },
        { name: "geocoder", status: "unavailable" },
      ],
      conflicts: [],
    });
  });

  test("serves the last spec of a service that went down after a first fetch, marked stale", async () => {
    await using services = await serveServices();
    const time = manualClock();
    const get = gateway({ fetchServiceSpec: services.fetchServiceSpec, clock: time.clock, cacheMs: 30_000 });
    expect(Object.keys((await readJson(await get("/docs/json"))).paths)).toContain("/{short_url}");

    await services.stop("shortener");
    time.advance(30_000);
    const spec = await readJson(await get("/docs/json"));

    expect(services.specRequests).toEqual({ shortener: 2, geocoder: 2 });
    expect(Object.keys(spec.paths).sort()).toEqual([...ownPaths, ...shortenerPaths, ...geocoderPaths].sort());
    expect(mergeOf(spec)).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "shortener", status: "stale", as_of: "2026-11-22T07:00:00.000Z" },
        { name: "geocoder", status: "available" },
      ],
      conflicts: [],
    });
    expect(spec.info.description).toContain("(not answering now; as it described itself at 2026-11-22T07:00:00.000Z)");
  });

  test("asks the services once per cacheMs, and once for requests that arrive together", async () => {
    const asked: ServiceName[] = [];
    const time = manualClock();
    const fetchServiceSpec = async (service: ServiceName) => {
      asked.push(service);
      return { openapi: "3.0.3", info: { title: service, version: "1" }, paths: { [`/${service}`]: { get: { responses: {} } } } };
    };
    const get = gateway({ fetchServiceSpec, clock: time.clock, cacheMs: 30_000 });

    await Promise.all([get("/docs/json"), get("/docs/json"), get("/docs/json")]);
    time.advance(29_999);
    await get("/docs/json");
    expect(asked).toEqual(["shortener", "geocoder"]);

    time.advance(1);
    const spec = await readJson(await get("/docs/json"));
    expect(asked).toEqual(["shortener", "geocoder", "shortener", "geocoder"]);
    expect(Object.keys(spec.paths)).toEqual([...ownPaths, "/shortener", "/geocoder"]);
  });

  test("asks again after 5 s, not the whole cacheMs, while a service is missing", async () => {
    let geocoderUp = false;
    const time = manualClock();
    const fetchServiceSpec = async (service: ServiceName) => {
      if (service === "geocoder" && !geocoderUp) throw new Error("connection refused");
      return { openapi: "3.0.3", info: { title: service, version: "1" }, paths: { [`/${service}`]: { get: { responses: {} } } } };
    };
    const get = gateway({ fetchServiceSpec, clock: time.clock, cacheMs: 30_000 });
    expect(Object.keys((await readJson(await get("/docs/json"))).paths)).not.toContain("/geocoder");

    geocoderUp = true;
    time.advance(5_000);

    expect(Object.keys((await readJson(await get("/docs/json"))).paths)).toContain("/geocoder");
  });

  test("gives up on a service that does not answer within timeoutMs, aborting its request", async () => {
    let signalOf: AbortSignal | undefined;
    const fetchServiceSpec = (service: ServiceName, signal: AbortSignal) => {
      if (service === "shortener") return Promise.resolve({ openapi: "3.0.3", info: { title: "s", version: "1" }, paths: {} });
      signalOf = signal;
      return new Promise<unknown>(() => {});
    };
    const get = gateway({ fetchServiceSpec, timeoutMs: 50 });

    const spec = await readJson(await get("/docs/json"));

    expect(signalOf?.aborted).toBe(true);
    expect(mergeOf(spec)).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "shortener", status: "available" },
        { name: "geocoder", status: "unavailable" },
      ],
      conflicts: [],
    });
  });

  test("counts a service that answers something other than OpenAPI 3 as unavailable", async () => {
    const get = gateway({ fetchServiceSpec: async () => ({ error: { code: "not_found", message: "no such resource" } }) });

    const spec = await readJson(await get("/docs/json"));

    expect(Object.keys(spec.paths)).toEqual(ownPaths);
    expect((mergeOf(spec) as { sources: unknown[] }).sources).toEqual([
      { name: "gateway", status: "own" },
      { name: "shortener", status: "unavailable" },
      { name: "geocoder", status: "unavailable" },
    ]);
  });
});

describe("GET /docs", () => {
  test("is the API page titled after the merged spec, which it loads from /docs/json", async () => {
    const get = gateway({ fetchServiceSpec: async () => ({ openapi: "3.0.3", info: { title: "s", version: "1" }, paths: {} }) });

    const response = await get("/docs");

    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>linkgeo API</title>");
    expect(html).toContain('data-spec-url="docs/json"');
  });
});
