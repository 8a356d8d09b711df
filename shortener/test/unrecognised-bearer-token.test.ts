import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/**
 * A bearer token of none of the three shapes (a manage token's 43 base64url
 * characters, an admin token's dot, an API key's `lgk_`) is 401 on every
 * route that reads credentials, saying the token is not valid, not that this
 * link or report is refused to it: `null` is what `jq -r .token` leaves in a
 * shell variable after a failed login. A token of a manage token's shape
 * that no link has keeps its own answers.
 */

interface Route {
  method: string;
  /** `{code}` is a fresh link's code. */
  path: string;
  json?: unknown;
}

const routes: Route[] = [
  { method: "GET", path: "/shorten/" },
  { method: "PUT", path: "/shorten/{code}/", json: { title: "changed" } },
  { method: "DELETE", path: "/shorten/{code}/" },
  { method: "GET", path: "/shorten/{code}/visits/" },
  { method: "GET", path: "/admin/visits/" },
  { method: "GET", path: "/admin/api-keys" },
];

const notTokens: [string, string][] = [
  ["the shell's null", "null"],
  ["undefined", "undefined"],
  ["200 characters", "a".repeat(200)],
  ["a manage token's length with a character base64url lacks", `${"x".repeat(42)}!`],
];

const notAToken = {
  error: {
    code: "unauthorized",
    message:
      "the bearer token is not a manage token, an admin token, an API key or a sign-in token: log in again (POST /admin/login, POST /login) or check the token",
  },
};

describe("a bearer token of no kind's shape", () => {
  let api: TestShortener;
  let adminKey: string;
  beforeAll(async () => {
    api = await startTestShortener();
    const created = await api.request("POST", "/admin/api-keys", {
      json: { name: "every route", scopes: ["admin"] },
      headers: { authorization: `Bearer ${api.adminToken()}` },
    });
    adminKey = ((await readJson(created)) as { key: string }).key;
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  async function call(route: Route, token: string, code: string): Promise<Response> {
    return api.request(route.method, route.path.replace("{code}", code), { json: route.json, headers: { authorization: `Bearer ${token}` } });
  }

  describe.each(notTokens)("%s", (_, token) => {
    for (const route of routes) {
      test(`${route.method} ${route.path} is 401 saying the token is not one, and changes nothing`, async () => {
        const link = await api.createLink();
        const refused = await call(route, token, link.short_url);
        expect([refused.status, await readJson(refused)]).toEqual([401, notAToken]);
        expect(await api.db.links.find(link.short_url)).toMatchObject({ title: null });
      });
    }
  });

  const credentials = ["manage token", "admin token", "API key"] as const;
  describe.each(credentials)("a real %s", (kind) => {
    for (const route of routes.filter((route) => kind !== "manage token" || !route.path.startsWith("/admin/"))) {
      test(`still passes on ${route.method} ${route.path}`, async () => {
        const link = await api.createLink();
        const token = { "manage token": link.manage_token, "admin token": api.adminToken(), "API key": adminKey }[kind];
        const response = await call(route, token, link.short_url);
        await response.body?.cancel();
        expect(response.status).toBe(route.method === "DELETE" ? 204 : 200);
      });
    }
  });

  test("a manage token's shape that no link has keeps its answers: 401 on the listing, 403 on a link", async () => {
    const link = await api.createLink();
    const unknown = "x".repeat(43);
    const listing = await call({ method: "GET", path: "/shorten/" }, unknown, link.short_url);
    expect([listing.status, await readJson(listing)]).toEqual([401, { error: { code: "unauthorized", message: "no short URL has this manage token" } }]);
    const deleting = await call({ method: "DELETE", path: "/shorten/{code}/" }, unknown, link.short_url);
    expect(deleting.status).toBe(403);
    expect(await api.db.links.find(link.short_url)).not.toBeNull();
  });
});
