import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/**
 * A request with no credential on a route that needs one is 401, and its
 * message names the credentials that route takes, no others: a manage
 * token only where the link's own token is accepted (never on bulk create
 * or an admin report), and the API key scope the route needs.
 */

interface Route {
  method: string;
  /** `{code}` is a fresh link's code. */
  path: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

const routes: Route[] = [
  { method: "GET", path: "/shorten/" },
  { method: "POST", path: "/shorten/bulk/", json: { links: [{ long_url: "https://example.com/bulk" }] } },
  { method: "PUT", path: "/shorten/{code}/", json: { title: "changed" } },
  { method: "DELETE", path: "/shorten/{code}/" },
  { method: "GET", path: "/shorten/{code}/visits/" },
  { method: "GET", path: "/shorten/{code}/visits/export?format=csv" },
  { method: "GET", path: "/admin/visits/" },
  { method: "GET", path: "/admin/visits/daily/?codes={code}" },
  { method: "GET", path: "/admin/visits/orphans/" },
  { method: "GET", path: "/admin/export/links" },
  { method: "POST", path: "/admin/import?dry_run=true", body: "long_url\nhttps://example.com/imported\n", headers: { "content-type": "text/csv" } },
  { method: "GET", path: "/admin/api-keys" },
  { method: "GET", path: "/admin/domains" },
  { method: "GET", path: "/workspaces" },
  { method: "POST", path: "/workspaces", body: '{"name": "Marketing"}', headers: { "content-type": "application/json" } },
  { method: "POST", path: "/admin/users", body: '{"username": "alice", "password": "a long passphrase"}', headers: { "content-type": "application/json" } },
  { method: "POST", path: "/admin/domains", body: '{"host": "go.example.com"}', headers: { "content-type": "application/json" } },
  { method: "PATCH", path: "/admin/domains/0", body: "{}", headers: { "content-type": "application/json" } },
  { method: "DELETE", path: "/admin/domains/1" },
];

describe("a route's 401 without credentials", () => {
  let api: TestShortener;
  beforeAll(async () => {
    api = await startTestShortener();
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  /** The route asked for a fresh link (made by `maker`, anonymous by default), with `authorization` if given. */
  async function call(route: Route, authorization?: string, maker: () => Promise<{ short_url: string }> = () => api.createLink()): Promise<Response> {
    const link = await maker();
    const headers = { ...route.headers, ...(authorization === undefined ? {} : { authorization: `Bearer ${authorization}` }) };
    const path = route.path.replace("{code}", link.short_url);
    return api.request(route.method, path, { json: route.json, body: route.body, headers });
  }

  /** A person signed in, the owner of a workspace, once for every route: each sign-in costs an argon2id check. */
  let signedIn: Promise<{ token: string; workspace: number }> | undefined;
  function person(): Promise<{ token: string; workspace: number }> {
    signedIn ??= (async () => {
      const person = { username: "kim", password: "a long passphrase" };
      await api.request("POST", "/admin/users", { json: person, headers: { authorization: `Bearer ${api.adminToken()}` } });
      const { token } = (await readJson(await api.request("POST", "/login", { json: person }))) as { token: string };
      const made = await api.request("POST", "/workspaces", { json: { name: "Kim's" }, headers: { authorization: `Bearer ${token}` } });
      return { token, workspace: ((await readJson(made)) as { id: number }).id };
    })();
    return signedIn;
  }

  /** A fresh link of the person's workspace. */
  async function personsLink(): Promise<{ short_url: string }> {
    const { token, workspace } = await person();
    const made = await api.request("POST", "/shorten/", {
      json: { long_url: "https://example.com/kim", workspace },
      headers: { authorization: `Bearer ${token}` },
    });
    return (await readJson(made)) as { short_url: string };
  }

  async function keyWith(scope: string): Promise<string> {
    const response = await api.request("POST", "/admin/api-keys", {
      json: { name: `only ${scope}`, scopes: [scope] },
      headers: { authorization: `Bearer ${api.adminToken()}` },
    });
    return ((await readJson(response)) as { key: string }).key;
  }

  for (const route of routes) {
    test(`${route.method} ${route.path} names the credentials it takes`, async () => {
      const refused = await call(route);
      expect(refused.status).toBe(401);
      const { message } = ((await readJson(refused)) as { error: { message: string } }).error;

      // The manage token is named exactly where the link's own token is let in.
      const link = await api.createLink();
      const path = route.path.replace("{code}", link.short_url);
      const withManageToken = await api.request(route.method, path, {
        json: route.json,
        body: route.body,
        headers: { ...route.headers, authorization: `Bearer ${link.manage_token}` },
      });
      await withManageToken.body?.cancel();
      expect(message.includes("the link's manage token")).toBe(withManageToken.status < 400);

      // A person's sign-in token is named exactly where a person is let in (on a link of their workspace).
      const withPerson = await call(route, (await person()).token, personsLink);
      await withPerson.body?.cancel();
      expect(message.includes("a person's sign-in token")).toBe(withPerson.status < 400);

      // The scope named is one that lets a key in; a route no key may call names none.
      const scope = /an API key with (\S+?),? or sign in/.exec(message)?.[1];
      expect(scope !== undefined).toBe(message.includes("an API key"));
      if (scope === undefined) return;
      const withKey = await call(route, await keyWith(scope));
      expect(withKey.status).toBeLessThan(400);
    });
  }
});
