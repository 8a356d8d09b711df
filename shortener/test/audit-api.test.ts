import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

interface Event {
  id: number;
  at: string;
  actor: { kind: string; id: string | null };
  action: string;
  target: string;
}

/** The audit logs (docs/people.md: "Audit log"), on both engines. */
describe.each(["sqlite", "postgres"] as const)("the audit log on %s", (engine) => {
  let api: TestShortener;
  const tokens: Record<string, string> = {};
  let workspace: number;
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const events = async (path: string, headers: Record<string, string>): Promise<Event[]> =>
    (await readJson(await api.request("GET", path, { headers }))).results;

  beforeAll(async () => {
    api = await startTestShortener({ engine, hashPassword: cheapPasswordHash, auditKeep: 40 });
    for (const username of ["olga", "ed", "otto"]) {
      const person = { username, password: "a long passphrase" };
      await api.request("POST", "/admin/users", { json: person, headers: admin() });
      tokens[username] = (await readJson(await api.request("POST", "/login", { json: person }))).token;
    }
    workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Team" }, headers: as("olga") }))).id;
    await api.request("POST", "/workspaces", { json: { name: "Otto's" }, headers: as("otto") });
    const invite = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "editor" }, headers: as("olga") }));
    await api.request("POST", `/invites/${invite.token}/accept`, { headers: as("ed") });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  test("each thing done in a workspace names its actor, newest first, and never a secret", async () => {
    const made = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/logged", short_url: "logged" }, headers: as("ed") }),
    );
    const key = await readJson(
      await api.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: "ci", scopes: ["links:write"] }, headers: as("olga") }),
    );
    await api.request("PUT", "/shorten/logged/", { json: { title: "by key" }, headers: { authorization: `Bearer ${key.key}` } });
    await api.request("DELETE", "/shorten/logged/", { headers: admin() });
    const members = (await readJson(await api.request("GET", `/workspaces/${workspace}/members`, { headers: as("olga") }))).results;
    const ed = members.find((member: { username: string }) => member.username === "ed");
    await api.request("PATCH", `/workspaces/${workspace}/members/${ed.id}`, { json: { role: "viewer" }, headers: as("olga") });

    const log = await events(`/workspaces/${workspace}/audit`, as("olga"));
    const host = made.domain;
    expect(log.map(({ actor, action, target }) => [actor.kind, actor.id, action, target])).toEqual([
      ["person", "olga", "member.role", "ed viewer"],
      ["admin", "admin", "link.delete", `${host}/logged`],
      ["api-key", key.id, "link.update", `${host}/logged`],
      ["person", "olga", "key.create", `${key.id} links:write`],
      ["person", "ed", "link.create", `${host}/logged`],
      ["person", "ed", "member.join", "ed editor"],
      ["person", "olga", "member.invite", "editor"],
    ]);
    expect(log.every((event) => !Number.isNaN(Date.parse(event.at)))).toBe(true);
    const exported = await (await api.request("GET", `/workspaces/${workspace}/audit?format=ndjson`, { headers: as("olga") })).text();
    expect(
      exported
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(log);
    for (const secret of [key.key, tokens.olga!, tokens.ed!]) expect(exported).not.toContain(secret);
  });

  test("an owner and the admins read a workspace's log; its other members are 403, anyone else 404", async () => {
    const status = async (headers: Record<string, string>) => (await api.request("GET", `/workspaces/${workspace}/audit`, { headers })).status;
    expect(await status(as("olga"))).toBe(200);
    expect(await status(admin())).toBe(200);
    expect(await status(as("ed"))).toBe(403);
    expect(await status(as("otto"))).toBe(404);
    expect(await status({})).toBe(401);
    expect((await api.request("GET", "/workspaces/999999/audit", { headers: admin() })).status).toBe(404);
    expect((await api.request("GET", "/admin/audit", { headers: as("olga") })).status).toBe(403);
  });

  test("the instance's log holds the admins' work and keys' on links of no workspace, not anonymous creations", async () => {
    const key = await readJson(await api.request("POST", "/admin/api-keys", { json: { name: "cms", scopes: ["links:write"] }, headers: admin() }));
    await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/anonymous" } });
    await api.request("POST", "/shorten/", {
      json: { long_url: "https://example.com/cms", short_url: "by-cms" },
      headers: { authorization: `Bearer ${key.key}` },
    });
    await api.request("POST", "/admin/domains", { json: { host: "go.example.com" }, headers: admin() });
    const log = await events("/admin/audit?limit=3", admin());
    expect(log.map(({ actor, action, target }) => [actor.kind, actor.id, action, target])).toEqual([
      ["admin", "admin", "domain.create", "go.example.com"],
      ["api-key", key.id, "link.create", "localhost/by-cms"],
      ["admin", "admin", "key.create", `${key.id} links:write`],
    ]);
    const people = (await events("/admin/audit?limit=1000", admin())).filter((event) => event.action === "person.create").map((event) => event.target);
    expect(people.sort()).toEqual(["ed", "olga", "otto"]);
  });

  test("a manage token's changes are not logged; an import is, in the workspace it filled; a move in both logs", async () => {
    const anonymous = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/token-held" } }));
    const newest = async (path: string, headers: Record<string, string>) => (await events(`${path}?limit=1`, headers))[0]!;
    const before = await newest("/admin/audit", admin());
    await api.request("PUT", `/shorten/${anonymous.short_url}/`, {
      json: { title: "by token" },
      headers: { authorization: `Bearer ${anonymous.manage_token}` },
    });
    expect(await newest("/admin/audit", admin())).toEqual(before);

    const file = "long_url,short_url\nhttps://example.com/imported-a,audit-imported-a\nhttps://example.com/imported-b,audit-imported-b\n";
    const imported = await api.request("POST", `/admin/import?workspace=${workspace}&format=csv`, {
      body: file,
      headers: { ...as("olga"), "content-type": "text/csv" },
    });
    await imported.text();
    expect(await newest(`/workspaces/${workspace}/audit`, as("olga"))).toMatchObject({
      actor: { kind: "person", id: "olga" },
      action: "link.import",
      target: "2 links",
    });

    await api.request("PUT", "/shorten/audit-imported-a/", { json: { workspace: null }, headers: admin() });
    const moved = { actor: { kind: "admin", id: "admin" }, action: "link.update", target: `${anonymous.domain}/audit-imported-a` };
    expect(await newest(`/workspaces/${workspace}/audit`, as("olga"))).toMatchObject(moved);
    expect(await newest("/admin/audit", admin())).toMatchObject(moved);
    expect((await api.request("GET", "/admin/audit?before=9223372036854775807", { headers: admin() })).status).toBe(400);
    expect((await api.request("GET", "/admin/audit?before=1e30", { headers: admin() })).status).toBe(400);
  });

  test("pages follow next to the oldest; a log keeps its newest events, so its size is bounded", async () => {
    for (let i = 0; i < 50; i++) await api.request("PUT", "/shorten/by-cms/", { json: { title: `t${i}` }, headers: admin() });
    const seen: Event[] = [];
    let path: string | null = "/admin/audit?limit=15";
    while (path !== null) {
      const page = await readJson(await api.request("GET", path, { headers: admin() }));
      seen.push(...page.results);
      path = page.next;
    }
    // 40 kept, and at most a hundredth of that written since the last trim.
    expect(seen.length).toBeGreaterThanOrEqual(40);
    expect(seen.length).toBeLessThanOrEqual(41);
    expect(seen[0]!.target).toBe("localhost/by-cms");
    expect(seen.map((event) => event.id)).toEqual(seen.map((event) => event.id).sort((a, b) => b - a));
    const csv = await (await api.request("GET", "/admin/audit?format=csv", { headers: admin() })).text();
    expect(csv.split("\r\n")[0]).toBe("id,at,actor_kind,actor_id,action,target");
    expect((await api.request("GET", "/admin/audit?format=xml", { headers: admin() })).status).toBe(400);
  });
});
