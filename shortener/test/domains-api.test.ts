import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import type { DomainView } from "@linkgeo/shared";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

describe.each(["sqlite", "postgres"] as const)("/admin/domains on %s", (engine) => {
  let api: TestShortener;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const add = (json: unknown) => api.request("POST", "/admin/domains", { json, headers: admin() });
  beforeAll(async () => {
    api = await startTestShortener({ engine, publicBaseUrl: new URL("https://sho.rt") });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("an admin adds a domain in its one spelling, finds it listed after the default one, changes and deletes it", async () => {
    const created = await add({ host: "Go.Brand.Example.", not_found_url: "https://brand.example/404", redirect_status: 301 });
    expect(created.status).toBe(201);
    const domain: DomainView = await readJson(created);
    expect(domain).toEqual({
      id: expect.any(Number),
      host: "go.brand.example",
      default: false,
      root_url: null,
      not_found_url: "https://brand.example/404",
      expired_url: null,
      redirect_status: 301,
      created_at: expect.any(String),
      workspaces: [],
    });
    expect(created.headers.get("location")).toBe(`/admin/domains/${domain.id}`);

    const listed: { results: DomainView[] } = await readJson(await api.request("GET", "/admin/domains", { headers: admin() }));
    expect(listed.results.map((d) => [d.id, d.host, d.default])).toEqual([
      [0, "sho.rt", true],
      [domain.id, "go.brand.example", false],
    ]);

    const changed = await api.request("PATCH", `/admin/domains/${domain.id}`, {
      json: { root_url: "https://brand.example/", redirect_status: null },
      headers: admin(),
    });
    expect(await readJson(changed)).toEqual({ ...domain, root_url: "https://brand.example/", redirect_status: null });
    expect((await api.request("DELETE", `/admin/domains/${domain.id}`, { headers: admin() })).status).toBe(204);
    expect((await api.request("DELETE", `/admin/domains/${domain.id}`, { headers: admin() })).status).toBe(404);
  });

  test("a host twice, or the default domain's, is a 409; the default domain keeps its host and is never deleted", async () => {
    expect((await add({ host: "twice.brand.example" })).status).toBe(201);
    const again = await add({ host: "TWICE.brand.example" });
    expect(again.status).toBe(409);
    expect(await readJson(again)).toEqual({ error: { code: "conflict", message: 'host "twice.brand.example" is already a domain' } });
    expect((await add({ host: "sho.rt" })).status).toBe(409);
    expect((await api.request("PATCH", "/admin/domains/0", { json: { host: "new.brand.example" }, headers: admin() })).status).toBe(409);
    expect((await api.request("DELETE", "/admin/domains/0", { headers: admin() })).status).toBe(409);
    const settings = await api.request("PATCH", "/admin/domains/0", { json: { expired_url: "https://sho-rt.example/gone" }, headers: admin() });
    expect(await readJson(settings)).toMatchObject({ id: 0, host: "sho.rt", default: true, expired_url: "https://sho-rt.example/gone" });
  });

  test("each bad field is a 400 naming it; an id that is no number is a 404", async () => {
    const refused = async (json: unknown) => {
      const response = await add(json);
      expect(response.status).toBe(400);
      return ((await readJson(response)) as { error: { message: string } }).error.message;
    };
    expect(await refused({})).toBe("host is required");
    expect(await refused({ host: 7 })).toBe("host must be a string");
    for (const host of [
      "https://go.brand.example",
      "go.brand.example:8080",
      "go.brand.example/x",
      "localhost",
      "127.0.0.1",
      "*.brand.example",
      "a..b",
      "-x.example",
      "é x.example",
      "",
    ]) {
      expect(await refused({ host })).toStartWith("host ");
    }
    expect(await refused({ host: "ok.brand.example", root_url: "ftp://x.example" })).toBe("root_url must be an http or https URL");
    expect(await refused({ host: "ok.brand.example", not_found_url: "https://ok.brand.example/x" })).toBe("not_found_url must not point at this service");
    expect(await refused({ host: "ok.brand.example", expired_url: "https://sho.rt/x" })).toBe("expired_url must not point at this service");
    expect(await refused({ host: "ok.brand.example", redirect_status: 303 })).toBe("redirect_status must be 301, 302, 307, 308 or null");
    expect(await refused({ host: "ok.brand.example", hots: "typo" })).toContain('unknown field "hots"');
    for (const id of ["x", "-1", "1.5", "99999999999"]) {
      expect((await api.request("PATCH", `/admin/domains/${id}`, { json: { root_url: null }, headers: admin() })).status).toBe(404);
    }
  });

  test("a URL may not point at another domain's host", async () => {
    expect((await add({ host: "first.brand.example" })).status).toBe(201);
    const response = await add({ host: "second.brand.example", root_url: "https://first.brand.example/" });
    expect(await readJson(response)).toEqual({ error: { code: "invalid_url", message: "root_url must not point at this service" } });
  });

  test("only admins manage domains: 401 without credentials, 403 for a key without the admin scope", async () => {
    expect((await api.request("GET", "/admin/domains")).status).toBe(401);
    const link = await api.createLink();
    expect((await api.request("GET", "/admin/domains", { headers: { authorization: `Bearer ${link.manage_token}` } })).status).toBe(403);
  });
});
