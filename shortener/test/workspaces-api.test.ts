import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/** `POST /workspaces` and `GET /workspaces` (docs/people.md), on both engines. */
describe.each(["sqlite", "postgres"] as const)("workspaces on %s", (engine) => {
  let api: TestShortener;
  const tokens: Record<string, string> = {};
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  beforeAll(async () => {
    api = await startTestShortener({ engine, hashPassword: cheapPasswordHash });
    for (const username of ["ivy", "jack", "lena"]) {
      const added = await api.request("POST", "/admin/users", {
        json: { username, password: "a long passphrase" },
        headers: { authorization: `Bearer ${api.adminToken()}` },
      });
      expect(added.status).toBe(201);
      tokens[username] = (await readJson(await api.request("POST", "/login", { json: { username, password: "a long passphrase" } }))).token;
    }
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("a person makes a workspace and owns it; each lists only their own; an admin lists every one, with no role", async () => {
    const made = await api.request("POST", "/workspaces/", { json: { name: "  Marketing  " }, headers: as("ivy") });
    expect(made.status).toBe(201);
    const marketing = await readJson(made);
    expect(marketing).toEqual({ id: expect.any(Number), name: "Marketing", role: "owner", created_at: expect.any(String) });
    const jacks = await readJson(await api.request("POST", "/workspaces", { json: { name: "Jack's" }, headers: as("jack") }));

    expect((await readJson(await api.request("GET", "/workspaces", { headers: as("ivy") }))).results).toEqual([marketing]);
    expect((await readJson(await api.request("GET", "/workspaces/", { headers: as("jack") }))).results).toEqual([jacks]);
    const seenByAdmin = (await readJson(await api.request("GET", "/workspaces", { headers: { authorization: `Bearer ${api.adminToken()}` } }))).results;
    expect(seenByAdmin).toEqual([
      { ...marketing, role: null },
      { ...jacks, role: null },
    ]);
  });

  test("an admin reads every workspace a page at a time, following next; a person's come whole, with no next", async () => {
    const admin = { authorization: `Bearer ${api.adminToken()}` };
    for (const name of ["Page one", "Page two", "Page three"]) await api.request("POST", "/workspaces", { json: { name }, headers: as("jack") });
    const every = (await readJson(await api.request("GET", "/workspaces?limit=1000", { headers: admin }))).results;
    expect(every.length).toBeGreaterThanOrEqual(3);
    const paged = [];
    let asked: string | null = "/workspaces?limit=2";
    for (let pages = 0; asked !== null && pages < 100; pages++) {
      const page: { results: unknown[]; next: string | null } = await readJson(await api.request("GET", asked, { headers: admin }));
      expect(page.results.length).toBeLessThanOrEqual(2);
      paged.push(...page.results);
      asked = page.next;
    }
    expect(paged).toEqual(every);
    expect((await readJson(await api.request("GET", "/workspaces?after=2147483647", { headers: admin }))).results).toEqual([]);
    // At most 100 (a person's bound), so a person's list needs no pages.
    const own = await readJson(await api.request("GET", "/workspaces?limit=1", { headers: as("jack") }));
    expect([own.results.length, own.next]).toEqual([4, null]);
    for (const query of ["limit=0", "limit=1001", "after=-1", "after=2147483648", "limit=two"]) {
      expect((await api.request("GET", `/workspaces?${query}`, { headers: admin })).status).toBe(400);
    }
  });

  test("only a person makes one; a name breaking its rule is a 400 naming it", async () => {
    const name = { name: "Sales" };
    expect((await api.request("POST", "/workspaces", { json: name })).status).toBe(401);
    const byAdmin = await api.request("POST", "/workspaces", { json: name, headers: { authorization: `Bearer ${api.adminToken()}` } });
    expect([byAdmin.status, (await readJson(byAdmin)).error.message]).toEqual([403, "a workspace is made by a person: sign in as one (POST /login)"]);
    const key = await api.apiKeys.create({ name: "ops", scopes: ["admin"] });
    expect((await api.request("POST", "/workspaces", { json: name, headers: { authorization: `Bearer ${key.key}` } })).status).toBe(403);
    const link = await api.createLink();
    expect((await api.request("GET", "/workspaces", { headers: { authorization: `Bearer ${link.manage_token}` } })).status).toBe(403);

    for (const [body, message] of [
      [{ name: "   " }, "name must not be empty"],
      [{ name: "x".repeat(101) }, "name must be at most 100 characters"],
      [{ name: "a\u0007b" }, "name must not contain control, invisible or direction characters"],
      [{ name: "Sales\u202egnitekram" }, "name must not contain control, invisible or direction characters"],
      [{ name: "Sa\u200bles" }, "name must not contain control, invisible or direction characters"],
      [{ name: 7 }, "name must be a string"],
    ] as const) {
      const response = await api.request("POST", "/workspaces", { json: body, headers: as("ivy") });
      expect([response.status, (await readJson(response)).error.message]).toEqual([400, message]);
    }
    expect((await api.request("POST", "/workspaces", { json: { name: "Sales", owner: "jack" }, headers: as("ivy") })).status).toBe(400);
    expect((await readJson(await api.request("GET", "/workspaces", { headers: as("ivy") }))).results.map((w: { name: string }) => w.name)).toEqual([
      "Marketing",
    ]);
  });

  test("a person may be in at most 100 workspaces: the 101st is a 409, and their list stays whole", async () => {
    for (let i = 0; i < 100; i++) {
      expect((await api.request("POST", "/workspaces", { json: { name: `Team ${i}` }, headers: as("lena") })).status).toBe(201);
    }
    const refused = await api.request("POST", "/workspaces", { json: { name: "One more" }, headers: as("lena") });
    expect([refused.status, (await readJson(refused)).error.message]).toEqual([409, "a person may be in at most 100 workspaces"]);
    expect((await readJson(await api.request("GET", "/workspaces", { headers: as("lena") }))).results).toHaveLength(100);
  });
});
