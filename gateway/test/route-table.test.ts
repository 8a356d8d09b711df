import { describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { isReserved } from "../../shortener/src/links/short-code.ts";
import { startTestShortener } from "../../shortener/test/support/test-shortener.ts";
import { ownSegments, routeFor, type GatewayRoute } from "../src/routing/route-table.ts";

const create: GatewayRoute = { upstream: "shortener", limit: "create", checksKey: true };
const bulk: GatewayRoute = { upstream: "shortener", limit: "bulk", checksKey: true };
const shortenerApi: GatewayRoute = { upstream: "shortener", limit: "api" };
// Where the shortener reads the credential first: an API key may have a budget of its own.
const keyedApi: GatewayRoute = { upstream: "shortener", limit: "api", checksKey: true };
const redirect: GatewayRoute = { upstream: "shortener", limit: "redirect" };
const geocoderApi: GatewayRoute = { upstream: "geocoder", limit: "api" };
const login: GatewayRoute = { upstream: "shortener", limit: "login" };
const unlock = (link: string): GatewayRoute => ({ upstream: "shortener", limit: "unlock", link });

describe("routeFor", () => {
  test.each([
    ["POST", "/shorten", create],
    ["POST", "/shorten/", create],
    ["post", "/shorten/", create],
    ["POST", "/shorten/bulk", bulk],
    ["POST", "/shorten/bulk/", bulk],
    ["post", "/shorten/bulk/", bulk],
    ["GET", "/shorten/bulk/", shortenerApi],
    ["PUT", "/shorten/bulk/", keyedApi],
    ["POST", "/shorten/bulk/more", shortenerApi],
    // Many links' stats at once: ordinary API traffic, one request of the budget.
    ["POST", "/shorten/stats/", shortenerApi],
    ["GET", "/shorten/", keyedApi],
    ["GET", "/shorten", keyedApi],
    // Reading one link by its code: a "no such link" there is a guess, as a redirect's (asksCode).
    ["GET", "/shorten/Ab3dE9x", { ...shortenerApi, asksCode: "Ab3dE9x" }],
    ["GET", "/shorten/Ab3dE9x/", { ...shortenerApi, asksCode: "Ab3dE9x" }],
    ["HEAD", "/shorten/Ab3dE9x/", { ...shortenerApi, asksCode: "Ab3dE9x" }],
    ["GET", "/shorten/Ab3dE9x/stats/", { ...shortenerApi, asksCode: "Ab3dE9x" }],
    ["GET", "/shorten/stats/", shortenerApi],
    ["PUT", "/shorten/Ab3dE9x/", keyedApi],
    ["DELETE", "/shorten/Ab3dE9x", keyedApi],
    ["GET", "/shorten/Ab3dE9x/visits/", keyedApi],
    ["GET", "/shorten/Ab3dE9x/visits/extra", shortenerApi],
    ["GET", "/shorten/x/y/z", shortenerApi],
    ["PATCH", "/shorten/Ab3dE9x/", shortenerApi],
    ["POST", "/shorten/Ab3dE9x/", shortenerApi],
    ["POST", "/admin/login", login],
    ["POST", "/admin/login/", login],
    ["post", "/admin/login", login],
    ["GET", "/admin/login", shortenerApi],
    ["POST", "/admin/session", login],
    ["POST", "/admin/session/", login],
    ["POST", "/login", login],
    ["POST", "/login/", login],
    ["GET", "/login", redirect],
    ["DELETE", "/login/", keyedApi],
    ["POST", "/login/extra", undefined],
    ["GET", "/login/session", shortenerApi],
    ["POST", "/login/session", undefined],
    ["GET", "/workspaces", keyedApi],
    ["POST", "/workspaces/", keyedApi],
    ["GET", "/workspaces/3/members", keyedApi],
    ["POST", "/workspaces/3/invites/", keyedApi],
    ["DELETE", "/workspaces/3", keyedApi],
    ["PATCH", "/workspaces/3", shortenerApi],
    ["PATCH", "/workspaces/3/members/7", keyedApi],
    ["DELETE", "/workspaces/3/members/7/", keyedApi],
    ["POST", "/workspaces/3/api-keys", keyedApi],
    ["GET", "/workspaces/3/api-keys/", keyedApi],
    ["DELETE", "/workspaces/3/api-keys/key_V1StGXR8_Z5jdHi6", keyedApi],
    ["PUT", "/workspaces/3/api-keys/key_V1StGXR8_Z5jdHi6", shortenerApi],
    ["GET", "/workspaces/3/audit", keyedApi],
    ["GET", "/admin/audit/", keyedApi],
    ["POST", "/admin/audit", shortenerApi],
    ["POST", "/invites/lgi_x/accept", login],
    ["GET", "/invites/lgi_x/accept", shortenerApi],
    ["GET", "/invites", shortenerApi],
    ["GET", "/admin/session", shortenerApi],
    ["DELETE", "/admin/session", shortenerApi],
    ["POST", "/admin/visits/", shortenerApi],
    ["GET", "/admin/visits/orphans/", keyedApi],
    ["GET", "/admin/api-keys", keyedApi],
    ["POST", "/admin/api-keys/", keyedApi],
    ["DELETE", "/admin/api-keys/key_V1StGXR8_Z5jdHi6", keyedApi],
    ["PUT", "/admin/api-keys/key_V1StGXR8_Z5jdHi6", shortenerApi],
    ["GET", "/admin/domains/", keyedApi],
    ["POST", "/admin/domains", keyedApi],
    ["PATCH", "/admin/domains/3", keyedApi],
    ["DELETE", "/admin/domains/3/", keyedApi],
    ["PUT", "/admin/domains/3", shortenerApi],
    ["GET", "/admin/allow-list", keyedApi],
    ["POST", "/admin/allow-list/", keyedApi],
    ["DELETE", "/admin/allow-list/2", keyedApi],
    ["PATCH", "/admin/allow-list/2", shortenerApi],
    ["GET", "/admin/ban-list", keyedApi],
    ["POST", "/admin/ban-list", keyedApi],
    ["DELETE", "/admin/ban-list/2/", keyedApi],
    ["GET", "/admin/reports", keyedApi],
    ["POST", "/admin/reports/7/actions", keyedApi],
    ["POST", "/report", { upstream: "shortener", limit: "create" }],
    ["POST", "/report/", { upstream: "shortener", limit: "create" }],
    ["GET", "/report", { upstream: "shortener", limit: "redirect" }],
    ["POST", "/admin/users/", keyedApi],
    ["GET", "/admin/users", shortenerApi],
    ["DELETE", "/admin/users/7", keyedApi],
    ["PATCH", "/admin/users/7", shortenerApi],
    ["GET", "/admin/no-such-thing", shortenerApi],
    ["GET", "/admin/a/b/c", shortenerApi],
    ["GET", "/admin", shortenerApi],
    ["GET", "/reverse-geocode", geocoderApi],
    ["GET", "/geocode", geocoderApi],
    ["GET", "/geocode/", geocoderApi],
    ["POST", "/geocode/batch", geocoderApi],
    ["GET", "/geocode/batch", undefined],
    ["GET", "/reverse-geocode/", geocoderApi],
    ["POST", "/reverse-geocode/batch", geocoderApi],
    ["POST", "/reverse-geocode/batch/", geocoderApi],
    ["POST", "/reverse-geocode/jobs", geocoderApi],
    ["POST", "/reverse-geocode/jobs/", geocoderApi],
    ["GET", "/reverse-geocode/jobs/Ab3dE9xAb3dE9xAb3dE9x_-1", geocoderApi],
    ["DELETE", "/reverse-geocode/jobs/Ab3dE9xAb3dE9xAb3dE9x_-1/", geocoderApi],
    ["GET", "/reverse-geocode/jobs/Ab3dE9xAb3dE9xAb3dE9x_-1/results", geocoderApi],
    ["POST", "/geocode/jobs", geocoderApi],
    ["GET", "/geocode/jobs/Ab3dE9xAb3dE9xAb3dE9x_-1", geocoderApi],
    ["DELETE", "/geocode/jobs/Ab3dE9xAb3dE9xAb3dE9x_-1", geocoderApi],
    ["GET", "/geocode/jobs/Ab3dE9xAb3dE9xAb3dE9x_-1/results", geocoderApi],
    ["GET", "/geocoders", geocoderApi],
    ["GET", "/geocoders/", geocoderApi],
    ["GET", "/Ab3dE9x", redirect],
    ["GET", "/Ab3dE9x/", redirect],
    ["HEAD", "/Ab3dE9x/", redirect],
    ["GET", "/my-alias_1", redirect],
    ["GET", "/shortener", redirect],
    ["GET", "/healthz", redirect],
    // POST on a code is a password try on a protected link, with the link's own budgets.
    ["POST", "/Ab3dE9x", unlock("Ab3dE9x")],
    ["POST", "/Ab3dE9x/", unlock("Ab3dE9x")],
    ["post", "/my-alias_1", unlock("my-alias_1")],
    ["POST", "/abc", unlock("abc")],
    ["POST", `/${"x".repeat(32)}`, unlock("x".repeat(32))],
    // The shortener decodes the segment: an escaped spelling is the same link and the same budget.
    ["POST", "/%41b3dE9x", unlock("Ab3dE9x")],
    // What cannot be a code gets no bucket of its own: the API budget, as before.
    // Shorter than 3 or longer than 32: no link has such a code (shared/src/wire/short-code-shape.ts).
    ["POST", "/ab", shortenerApi],
    ["POST", `/${"x".repeat(33)}`, shortenerApi],
    ["POST", "/favicon.ico", shortenerApi],
    ["POST", "/a%2Fb", shortenerApi],
    ["POST", "/%E0%A4%A", shortenerApi],
    ["POST", "/caf%C3%A9", shortenerApi],
    // Only GET and HEAD follow a link, only POST tries a password; anything else on a code is an API call.
    ["PUT", "/Ab3dE9x/", shortenerApi],
    ["DELETE", "/Ab3dE9x", shortenerApi],
    ["OPTIONS", "/Ab3dE9x", shortenerApi],
    ["PATCH", "/Ab3dE9x", shortenerApi],
  ] as const)("%s %s goes upstream", (method, path, expected) => {
    expect(routeFor(method, path)).toEqual(expected);
  });

  test.each([
    ["GET", "/docs"],
    ["GET", "/docs/"],
    ["GET", "/docs/json"],
    ["GET", "/health"],
    ["GET", "/health/"],
    ["GET", "/ready"],
    ["GET", "/"],
    ["GET", "//"],
    ["GET", "/a/b"],
    ["GET", "/Ab3dE9x/extra"],
    ["GET", "/a//"],
    ["GET", "/reverse-geocode/x"],
    ["GET", "/reverse-geocode/batch"],
    ["POST", "/reverse-geocode/batch/x"],
    ["GET", "/reverse-geocode/jobs/id/results/x"],
    ["GET", "/reverse-geocode/jobs/id/other"],
    ["GET", "/reverse-geocode/jobs//results"],
    ["GET", "/geocode/jobs/id/other"],
    ["GET", "/geocode/other"],
    ["GET", "/geocoders/x/"],
    ["POST", "/Ab3dE9x/extra"],
  ] as const)("%s %s is not routed upstream", (method, path) => {
    expect(routeFor(method, path)).toBeUndefined();
  });
});

describe("the routes where an API key has a budget of its own", () => {
  test("are exactly the shortener's routes that take a bearer credential, as its own OpenAPI document says", async () => {
    await using shortener = await startTestShortener();
    const spec = (await readJson(await shortener.request("GET", "/docs/json"))) as {
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        operation: `${method.toUpperCase()} ${path}`,
        bearer: (operation.security ?? []).some((requirement) => "bearer" in requirement),
      })),
    );
    const keyed = operations.map(({ operation }) => {
      const [method, path] = operation.split(" ") as [string, string];
      const route = routeFor(method, path.replace(/\{[^}]+\}/g, "Ab3dE9x"));
      return { operation, bearer: route?.checksKey === true };
    });
    expect(keyed).toEqual(operations);
    expect(operations.filter((operation) => operation.bearer).length).toBeGreaterThanOrEqual(10);
  });
});

describe("paths the gateway keeps for itself", () => {
  test("are reserved words of the shortener, so no alias can be shadowed by a page, /docs or /health", () => {
    for (const segment of ownSegments) expect({ segment, reserved: isReserved(segment) }).toEqual({ segment, reserved: true });
  });

  test("are never routed upstream, with or without more segments", () => {
    for (const segment of ownSegments) {
      for (const path of [`/${segment}`, `/${segment}/`, `/${segment}/anything/below`]) expect(routeFor("GET", path)).toBeUndefined();
    }
  });

  test("are never taken for a password try", () => {
    for (const segment of ownSegments) {
      for (const path of [`/${segment}`, `/${segment}/`]) expect(routeFor("POST", path)).toBeUndefined();
    }
  });
});
