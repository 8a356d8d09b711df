import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/** `POST /admin/users`: admins, and keys with the admin scope, add people (docs/people.md). */
describe.each(["sqlite", "postgres"] as const)("POST /admin/users on %s", (engine) => {
  let api: TestShortener;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const add = (json: unknown, headers: Record<string, string> = admin()) => api.request("POST", "/admin/users/", { json, headers });
  beforeAll(async () => {
    // A cheap hash: these tests are about the route and its rules, not argon2id (which the default keeps).
    api = await startTestShortener({ engine, hashPassword: async (password) => `test-hash:${password.length}` });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("adds a person in lower case, keeping only the password's hash, and answers its id and username", async () => {
    const response = await add({ username: "Alice.Smith", password: "a long passphrase" });
    expect(response.status).toBe(201);
    const person = await readJson(response);
    expect(person).toEqual({ id: expect.any(Number), username: "alice.smith" });
    const stored = await api.db.people.findByUsername("alice.smith");
    expect(stored).toMatchObject({ id: person.id, username: "alice.smith", passwordHash: "test-hash:17" });

    // The same name in another case is the same person: taken.
    const again = await add({ username: "ALICE.smith", password: "another passphrase" });
    expect([again.status, (await readJson(again)).error]).toEqual([409, { code: "conflict", message: 'the username "alice.smith" is taken' }]);
  });

  test("each field breaking its rule is a 400 naming it, never echoing what was sent", async () => {
    const refusals: Array<[unknown, string]> = [
      [{ username: "", password: "a long passphrase" }, "the username must not be empty"],
      [{ username: "has space", password: "a long passphrase" }, "the username may only contain letters, digits and @ . + - _"],
      [{ username: `<script>${"x".repeat(20)}`, password: "a long passphrase" }, "the username may only contain letters, digits and @ . + - _"],
      [{ username: "x".repeat(151), password: "a long passphrase" }, "the username must be at most 150 characters (got 151)"],
      [{ username: "bob", password: "short" }, "the password must be at least 8 characters"],
      [{ username: "bob", password: "p".repeat(1025) }, "the password must be at most 1024 characters"],
      [{ username: 42, password: "a long passphrase" }, "username must be a string"],
      [{ username: "bob" }, "password must be a string"],
    ];
    for (const [body, message] of refusals) {
      const response = await add(body);
      expect([response.status, (await readJson(response)).error]).toEqual([400, { code: "invalid_request", message }]);
    }
    const unknown = await add({ username: "bob", password: "a long passphrase", role: "owner" });
    expect(unknown.status).toBe(400);
    expect(await api.db.people.findByUsername("bob")).toBeNull();
  });

  test("needs an admin: no credential is 401, a manage token or a key without the admin scope 403, a key with it may", async () => {
    const body = { username: "carol", password: "a long passphrase" };
    expect((await add(body, {})).status).toBe(401);
    const link = await api.createLink();
    expect((await add(body, { authorization: `Bearer ${link.manage_token}` })).status).toBe(403);
    const reader = await api.apiKeys.create({ name: "reader", scopes: ["links:read"] });
    expect((await add(body, { authorization: `Bearer ${reader.key}` })).status).toBe(403);
    expect(await api.db.people.findByUsername("carol")).toBeNull();
    const operator = await api.apiKeys.create({ name: "operator", scopes: ["admin"] });
    expect((await add(body, { authorization: `Bearer ${operator.key}` })).status).toBe(201);
  });
});

/** `POST /login`: a person signs in, and the token makes requests theirs (docs/people.md). */
describe.each(["sqlite", "postgres"] as const)("POST /login on %s", (engine) => {
  let api: TestShortener;
  let now = new Date("2026-12-06T12:00:00.000Z");
  const signIn = (json: unknown) => api.request("POST", "/login", { json });
  beforeAll(async () => {
    api = await startTestShortener({ engine, clock: () => now });
    const added = await api.request("POST", "/admin/users", {
      json: { username: "Frank", password: "a long passphrase" },
      headers: { authorization: `Bearer ${api.adminToken()}` },
    });
    expect(added.status).toBe(201);
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("the username in any case and the password: a token for 12 hours, kept by no cache, and only its hash stored", async () => {
    const response = await signIn({ username: "FRANK", password: "a long passphrase" });
    expect([response.status, response.headers.get("cache-control")]).toEqual([200, "no-store"]);
    const { token, expires_at } = await readJson(response);
    expect(token).toMatch(/^lgs_[A-Za-z0-9_-]{43}$/);
    expect(expires_at).toBe("2026-12-07T00:00:00.000Z");
    const hash = new Bun.CryptoHasher("sha256").update(token).digest("hex");
    expect(await api.db.people.findLiveSession(hash, now)).toMatchObject({ username: "frank" });
  });

  test("a wrong password and an unknown username are the same 401; a malformed body is a 400", async () => {
    for (const body of [
      { username: "frank", password: "not the passphrase" },
      { username: "nobody", password: "a long passphrase" },
    ]) {
      const response = await signIn(body);
      expect([response.status, (await readJson(response)).error]).toEqual([401, { code: "unauthorized", message: "invalid username or password" }]);
    }
    expect((await signIn({ username: "frank" })).status).toBe(400);
    expect((await signIn("frank")).status).toBe(400);
  });

  test("the token is a person's credential: recognised, given no admin's power, and refused once expired or made up", async () => {
    const { token } = await readJson(await signIn({ username: "frank", password: "a long passphrase" }));
    const asPerson = (value: string) => api.request("GET", "/admin/visits/", { headers: { authorization: `Bearer ${value}` } });
    const refused = await asPerson(token);
    expect([refused.status, (await readJson(refused)).error.code]).toEqual([403, "forbidden"]);
    const made = await asPerson(`lgs_${"A".repeat(43)}`);
    expect([made.status, (await readJson(made)).error.message]).toEqual([401, "the sign-in token is unknown, ended or expired: sign in again (POST /login)"]);
    expect((await asPerson("lgs_short")).status).toBe(401);
    // A manage token that happens to begin with lgs_ is still a manage token, not a sign-in token of no one.
    const manageShaped = await asPerson(`lgs_${"A".repeat(39)}`);
    expect((await readJson(manageShaped)).error.message).not.toContain("sign-in token is unknown");
    now = new Date(now.getTime() + 12 * 60 * 60 * 1000);
    try {
      expect((await asPerson(token)).status).toBe(401);
    } finally {
      now = new Date("2026-12-06T12:00:00.000Z");
    }
  });
});

describe.each(["sqlite", "postgres"] as const)("DELETE /login on %s", (engine) => {
  test("ends the bearer's sign-in for good; the person's other sign-ins go on; a second time is a 401", async () => {
    await using api = await startTestShortener({ engine });
    const person = { username: "mona", password: "a long passphrase" };
    await api.request("POST", "/admin/users", { json: person, headers: { authorization: `Bearer ${api.adminToken()}` } });
    const first = (await readJson(await api.request("POST", "/login", { json: person }))).token;
    const second = (await readJson(await api.request("POST", "/login", { json: person }))).token;
    const workspaces = (token: string) => api.request("GET", "/workspaces", { headers: { authorization: `Bearer ${token}` } });
    expect((await workspaces(first)).status).toBe(200);

    expect((await api.request("DELETE", "/login", { headers: { authorization: `Bearer ${first}` } })).status).toBe(204);
    expect((await workspaces(first)).status).toBe(401);
    expect((await workspaces(second)).status).toBe(200);
    expect((await api.request("DELETE", "/login", { headers: { authorization: `Bearer ${first}` } })).status).toBe(401);
    expect((await api.request("DELETE", "/login")).status).toBe(401);
  });
});

describe("a person's password", () => {
  test("is kept as an argon2id hash that verifies, never as sent", async () => {
    await using api = await startTestShortener();
    const response = await api.request("POST", "/admin/users", {
      json: { username: "dora", password: "a long passphrase" },
      headers: { authorization: `Bearer ${api.adminToken()}` },
    });
    expect(response.status).toBe(201);
    const stored = await api.db.people.findByUsername("dora");
    expect(stored?.passwordHash).toStartWith("$argon2id$");
    expect(await Bun.password.verify("a long passphrase", stored!.passwordHash)).toBe(true);
  });
});
