import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { hashApiKey, type ApiKey } from "../src/auth/api-key.ts";
import type { ApiKeyStore } from "../src/auth/api-key-store.ts";
import { ApiKeys } from "../src/auth/api-keys.ts";
import { silentLogger } from "@linkgeo/shared";
import { storeEngines } from "./support/store-engines.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const t0 = new Date("2026-11-26T12:00:00.000Z");

describe.each(storeEngines)("API key store on $engine", ({ open }) => {
  test("keeps a key by its hash, lists newest first, deletes once, and moves last uses only forward", async () => {
    const { db, cleanup } = await open();
    try {
      const key = (id: string, at: Date): ApiKey => ({
        id,
        name: `key ${id}`,
        keyHash: hashApiKey(`lgk_${id}`),
        scopes: ["links:read", "visits:read"],
        createdAt: at,
        expiresAt: null,
        lastUsedAt: null,
        workspaceId: null,
        madeBy: null,
      });
      await db.apiKeys.insert(key("a", t0));
      await db.apiKeys.insert({ ...key("b", new Date(t0.getTime() + 1000)), expiresAt: new Date("2027-01-01T00:00:00.000Z") });
      expect(await db.apiKeys.findByHash(hashApiKey("lgk_a"))).toEqual({ ...key("a", t0), makerRole: null });
      expect(await db.apiKeys.findByHash(hashApiKey("lgk_nope"))).toBeNull();
      expect((await db.apiKeys.list()).map((k) => k.id)).toEqual(["b", "a"]);
      const later = new Date(t0.getTime() + 60_000);
      await db.apiKeys.recordUses(new Map([["a", later]]));
      await db.apiKeys.recordUses(
        new Map([
          ["a", t0],
          ["gone", later],
        ]),
      );
      expect((await db.apiKeys.findByHash(hashApiKey("lgk_a")))?.lastUsedAt).toEqual(later);
      expect(await db.apiKeys.delete("a")).toBe(true);
      expect(await db.apiKeys.delete("a")).toBe(false);
      expect(await db.apiKeys.findByHash(hashApiKey("lgk_a"))).toBeNull();
    } finally {
      await db.close();
      await cleanup();
    }
  });
});

describe("ApiKeys", () => {
  /** A store in memory that counts its reads and writes. */
  function countingStore() {
    const keys = new Map<string, ApiKey>();
    const counts = { reads: 0, recordUses: 0 };
    const store: ApiKeyStore = {
      insert: async (key) => void keys.set(key.keyHash, key),
      findByHash: async (hash) => {
        counts.reads++;
        const key = keys.get(hash);
        return key ? { ...key, makerRole: null } : null;
      },
      list: async () => [...keys.values()],
      delete: async (id) => [...keys].some(([hash, key]) => key.id === id && keys.delete(hash)),
      recordUses: async () => void counts.recordUses++,
    };
    return { store, counts };
  }

  test("a revoked key stops on another replica once its trust runs out (750 ms), without a read per request before", async () => {
    const { store, counts } = countingStore();
    let now = 0;
    const clock = () => t0;
    const replicaA = new ApiKeys({ store, clock, log: silentLogger, now: () => now });
    const replicaB = new ApiKeys({ store, clock, log: silentLogger, now: () => now });
    const { view, key } = await replicaA.create({ name: "script", scopes: ["links:read"] });
    for (let i = 0; i < 50; i++) expect(await replicaB.verify(key)).toMatchObject({ id: view.id });
    expect(counts.reads).toBe(1);
    await replicaA.revoke(view.id);
    expect(await replicaA.verify(key)).toBeUndefined();
    now = 749;
    expect(await replicaB.verify(key)).toBeDefined();
    now = 750;
    expect(await replicaB.verify(key)).toBeUndefined();
    await Promise.all([replicaA.drain(), replicaB.drain()]);
  });

  test("an expired key stops at once; last uses are written once per flush, not per request", async () => {
    const { store, counts } = countingStore();
    let at = t0;
    const keys = new ApiKeys({ store, clock: () => at, log: silentLogger, recordUsesEveryMs: 3_600_000 });
    const { key } = await keys.create({ name: "short-lived", scopes: ["visits:read"], expires_at: "2026-11-26T12:00:01Z" });
    for (let i = 0; i < 20; i++) expect(await keys.verify(key)).toBeDefined();
    expect(counts.recordUses).toBe(0);
    expect((await keys.list())[0]!.view.last_used_at).toBe(t0.toISOString());
    at = new Date("2026-11-26T12:00:01Z");
    expect(await keys.verify(key)).toBeUndefined();
    await keys.drain();
    expect(counts.recordUses).toBe(1);
  });
});

describe.each(["sqlite", "postgres"] as const)("API keys through the API on %s", (engine) => {
  let api: TestShortener;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  beforeAll(async () => {
    api = await startTestShortener({ engine });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  const makeKey = async (scopes: string[], name = "test key") => {
    const response = await api.request("POST", "/admin/api-keys", { json: { name, scopes }, headers: admin() });
    expect(response.status).toBe(201);
    return readJson(response);
  };

  test("an admin makes a key (shown once), lists keys without it, and revokes one", async () => {
    const created = await makeKey(["links:read", "links:read", "visits:read"], "nightly export");
    expect(created).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "nightly export",
      key: expect.stringMatching(/^lgk_[A-Za-z0-9_-]{43}$/),
      scopes: ["links:read", "visits:read"],
      created_at: expect.any(String),
      expires_at: null,
      last_used_at: null,
      workspace: null,
    });
    const listed = await api.request("GET", "/admin/api-keys/", { headers: admin() });
    const text = await listed.text();
    expect(text).toContain(created.id);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(hashApiKey(created.key));
    expect((await api.request("DELETE", `/admin/api-keys/${created.id}`, { headers: admin() })).status).toBe(204);
    expect((await api.request("DELETE", `/admin/api-keys/${created.id}`, { headers: admin() })).status).toBe(404);
    const refused = await api.request("GET", "/shorten/", { headers: { authorization: `Bearer ${created.key}` } });
    expect([refused.status, (await readJson(refused)).error.message]).toEqual([401, "the API key is unknown, revoked or expired"]);
  });

  test.each([
    [{ scopes: ["links:read"] }, "name"],
    [{ name: "", scopes: ["links:read"] }, "name"],
    [{ name: "x".repeat(101), scopes: ["links:read"] }, "name"],
    [{ name: "ok" }, "scopes"],
    [{ name: "ok", scopes: [] }, "scopes"],
    [{ name: "ok", scopes: ["links:delete"] }, "scopes"],
    [{ name: "ok", scopes: ["admin"], expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
    [{ name: "ok", scopes: ["admin"], expires_at: "soon" }, "expires_at"],
  ])("%j is a 400 naming %s", async (json, field) => {
    const response = await api.request("POST", "/admin/api-keys", { json, headers: admin() });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain(field);
  });

  test("only admins manage keys: 401 without credentials, 403 for a manage token or a key without the admin scope", async () => {
    const link = await api.createLink();
    const reader = await makeKey(["links:read"]);
    expect((await api.request("GET", "/admin/api-keys")).status).toBe(401);
    expect((await api.request("GET", "/admin/api-keys", { headers: { authorization: `Bearer ${link.manage_token}` } })).status).toBe(403);
    const byKey = await api.request("POST", "/admin/api-keys", { json: { name: "x", scopes: ["admin"] }, headers: { authorization: `Bearer ${reader.key}` } });
    expect([byKey.status, (await readJson(byKey)).error.message]).toEqual([403, "this API key lacks the scope admin"]);
  });

  test("each scope allows exactly its routes, on any link; anything else is 403 naming the missing scope", async () => {
    const link = await api.createLink("https://example.com/scoped");
    const secret = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/hidden", password: "a long password" } }));
    // Each route, the scope it needs, and whether a success changes something (done last, on links of their own).
    const routes: Array<{ scope: string; method: string; path: string | (() => Promise<string>); json?: unknown }> = [
      { scope: "links:read", method: "GET", path: "/shorten/?page_size=1" },
      { scope: "visits:read", method: "GET", path: `/shorten/${link.short_url}/visits/` },
      { scope: "visits:read", method: "GET", path: "/admin/visits/" },
      { scope: "visits:read", method: "GET", path: `/admin/visits/daily/?codes=${link.short_url}` },
      { scope: "visits:read", method: "GET", path: "/admin/visits/orphans/" },
      { scope: "admin", method: "GET", path: "/admin/api-keys" },
      { scope: "links:write", method: "PUT", path: `/shorten/${link.short_url}/`, json: { title: "changed by a key" } },
      { scope: "links:create", method: "POST", path: "/shorten/", json: { long_url: "https://example.com/by-key" } },
      { scope: "links:write", method: "POST", path: "/shorten/bulk/", json: { links: [{ long_url: "https://example.com/by-key" }] } },
      { scope: "links:write", method: "DELETE", path: async () => `/shorten/${(await api.createLink()).short_url}/` },
    ];
    for (const scope of ["links:read", "links:write", "links:create", "visits:read", "admin"]) {
      const { key } = await makeKey([scope]);
      for (const route of routes) {
        const path = typeof route.path === "string" ? route.path : await route.path();
        const response = await api.request(route.method, path, { json: route.json, headers: { authorization: `Bearer ${key}` } });
        // links:write makes links too; links:create does nothing else.
        const allowed = scope === "admin" || scope === route.scope || (scope === "links:write" && route.scope === "links:create");
        const seen = { scope, route: `${route.method} ${path}`, status: response.status };
        if (allowed) expect(seen).toEqual({ ...seen, status: response.status < 300 ? response.status : -1 });
        else {
          expect(seen).toEqual({ ...seen, status: 403 });
          expect((await readJson(response)).error.message).toBe(`this API key lacks the scope ${route.scope}`);
        }
      }
      // links:read (or admin) sees a protected link's URL; the others see the record without it.
      const record = await readJson(await api.request("GET", `/shorten/${secret.short_url}/`, { headers: { authorization: `Bearer ${key}` } }));
      expect({ scope, long_url: record.long_url }).toEqual({
        scope,
        long_url: scope === "links:read" || scope === "admin" ? "https://example.com/hidden" : null,
      });
    }
  });

  test("creating needs no credential, but a key sent must be live: a revoked or made-up one is 401 and creates nothing", async () => {
    const { id, key } = await makeKey(["links:write"]);
    const create = (headers: Record<string, string>) => api.request("POST", "/shorten/", { json: { long_url: "https://example.com/by-key" }, headers });
    expect((await create({})).status).toBe(201);
    expect((await create({ authorization: `Bearer ${key}` })).status).toBe(201);
    const before = (await readJson(await api.request("GET", "/shorten/?page_size=1", { headers: admin() }))).count;
    expect((await create({ authorization: `Bearer ${key}x` })).status).toBe(401);
    await api.request("DELETE", `/admin/api-keys/${id}`, { headers: admin() });
    expect((await create({ authorization: `Bearer ${key}` })).status).toBe(401);
    expect((await readJson(await api.request("GET", "/shorten/?page_size=1", { headers: admin() }))).count).toBe(before);
  });

  test("a key without links:read gets a protected link's URL as null and no options in every answer: create, bulk, PUT and GET", async () => {
    const protectedLink = {
      long_url: "https://example.com/hidden",
      expired_url: "https://example.com/hidden-over",
      rules: [{ when: { device: "ios" }, url: "https://example.com/hidden-ios" }],
      password: "a long password",
    };
    const urls = { long_url: protectedLink.long_url, expired_url: protectedLink.expired_url, rules: protectedLink.rules };
    // The options are a reader's of the link (docs/people.md: "Private by default"): absent, not null.
    const hidden = { long_url: null, expired_url: undefined, rules: undefined };
    const urlsOf = (record: Record<string, unknown>) => ({ long_url: record.long_url, expired_url: record.expired_url, rules: record.rules });
    // A link the keys did not make, whose manage token they never saw.
    const theirs = await readJson(await api.request("POST", "/shorten/", { json: protectedLink }));
    for (const [scopes, expected] of [
      [["links:write"], hidden],
      [["links:write", "links:read"], urls],
    ] as const) {
      const auth = { authorization: `Bearer ${(await makeKey([...scopes])).key}` };
      const created = await api.request("POST", "/shorten/", { json: protectedLink, headers: auth });
      const bulk = await api.request("POST", "/shorten/bulk/", { json: { links: [protectedLink] }, headers: auth });
      const changed = await api.request("PUT", `/shorten/${theirs.short_url}/`, { json: { title: "by a key" }, headers: auth });
      const read = await api.request("GET", `/shorten/${theirs.short_url}/`, { headers: auth });
      const [createdRecord, bulkRecord, changedRecord, readRecord] = [
        await readJson(created),
        (await readJson(bulk)).results[0].record,
        await readJson(changed),
        await readJson(read),
      ];
      expect({
        scopes,
        statuses: [created.status, bulk.status, changed.status, read.status],
        created: urlsOf(createdRecord),
        bulk: urlsOf(bulkRecord),
        changed: { ...urlsOf(changedRecord), title: changedRecord.title },
        read: urlsOf(readRecord),
      }).toEqual({
        scopes,
        statuses: [201, 200, 200, 200],
        created: expected,
        bulk: expected,
        changed: { ...expected, title: expected === hidden ? undefined : "by a key" },
        read: expected,
      });
      expect((await api.db.links.find(theirs.short_url))?.title).toBe("by a key");
    }
  });

  test("a key without links:read may not change or remove a protected link's password, which would hand it the URLs", async () => {
    const theirs = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/kept-hidden", password: "a long password" } }),
    );
    const unprotected = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/open" } }));
    const answers = [];
    for (const scopes of [["links:write"], ["links:write", "links:read"]]) {
      const auth = { authorization: `Bearer ${(await makeKey(scopes)).key}` };
      for (const [code, password] of [
        [theirs.short_url, null],
        [theirs.short_url, "one the key knows"],
        [unprotected.short_url, "one the key knows"],
      ] as const) {
        const response = await api.request("PUT", `/shorten/${code}/`, { json: { password }, headers: auth });
        answers.push({ scopes, code, status: response.status, body: response.ok ? undefined : await readJson(response) });
        // What a key may do changes nothing for the next: the link is protected again for each try.
        if (code === theirs.short_url && response.ok) await api.db.links.update(code, { passwordHash: await Bun.password.hash("a long password") }, new Date());
      }
    }
    const refusal = { error: { code: "forbidden", message: "this API key lacks the scope links:read" } };
    expect(answers).toEqual([
      { scopes: ["links:write"], code: theirs.short_url, status: 403, body: refusal },
      { scopes: ["links:write"], code: theirs.short_url, status: 403, body: refusal },
      { scopes: ["links:write"], code: unprotected.short_url, status: 200, body: undefined },
      { scopes: ["links:write", "links:read"], code: theirs.short_url, status: 200, body: undefined },
      { scopes: ["links:write", "links:read"], code: theirs.short_url, status: 200, body: undefined },
      { scopes: ["links:write", "links:read"], code: unprotected.short_url, status: 200, body: undefined },
    ]);
    expect((await api.db.links.find(theirs.short_url))?.passwordHash).not.toBeNull();
  });

  test("a key without links:read that sends back the record it read keeps the protected link's hidden URLs; a null for one is refused", async () => {
    const theirs = await readJson(
      await api.request("POST", "/shorten/", {
        json: { long_url: "https://example.com/kept", expired_url: "https://example.com/kept-over", password: "a long password" },
      }),
    );
    const writer = { authorization: `Bearer ${(await makeKey(["links:write"])).key}` };
    const read = await readJson(await api.request("GET", `/shorten/${theirs.short_url}/`, { headers: writer }));
    expect(read).not.toHaveProperty("expired_url");
    const { long_url: _hidden, ...sentBack } = { ...read, title: "by a writer" };
    const nulled = await api.request("PUT", `/shorten/${theirs.short_url}/`, { json: { ...sentBack, expired_url: null }, headers: writer });
    const asRead = await api.request("PUT", `/shorten/${theirs.short_url}/`, { json: sentBack, headers: writer });
    expect([nulled.status, await readJson(nulled), asRead.status]).toEqual([
      400,
      { error: { code: "invalid_request", message: "expired_url is hidden from this caller (the link has a password): leave it out to keep it" } },
      200,
    ]);
    const stored = await api.db.links.find(theirs.short_url);
    expect({ expiredUrl: stored?.expiredUrl, title: stored?.title }).toEqual({ expiredUrl: "https://example.com/kept-over", title: "by a writer" });
  });

  test("the key never appears in the API page or an error", async () => {
    const { key } = await makeKey(["links:read"]);
    expect(await (await api.request("GET", "/docs/json")).text()).not.toContain(key);
    const refused = await api.request("PUT", "/shorten/NoSuchLink1/", { json: { title: "x" }, headers: { authorization: `Bearer ${key}` } });
    expect(await refused.text()).not.toContain(key);
    const unknown = await api.request("GET", "/shorten/", { headers: { authorization: `Bearer ${key}x` } });
    expect(await unknown.text()).not.toContain(key);
  });
});
