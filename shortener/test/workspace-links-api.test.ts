import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { ApiKeys } from "../src/auth/api-keys.ts";
import { silentLogger } from "@linkgeo/shared";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/** Who calls, as the table's columns name them. */
const callers = [
  "owner",
  "editor",
  "viewer",
  "outsider",
  "anonymous",
  "admin",
  "adminsKey",
  "keyRead",
  "keyWrite",
  "keyCreate",
  "keyVisits",
  "otherKey",
] as const;
type Caller = (typeof callers)[number];

/**
 * Every route of a workspace's links, and the status each caller gets
 * (docs/people.md), in the order of `callers`: the workspace's owner,
 * editor and viewer; the owner of another workspace; no credential; an
 * admin; an admin's key with links:read, links:write and visits:read; the
 * workspace's keys with links:read, links:write, links:create and
 * visits:read alone; a key of the other workspace with every scope. A bulk
 * create's status is its one item's, when the request as a whole passed.
 */
const table: Array<{ route: string; body?: unknown; statuses: number[] }> = [
  { route: "GET /shorten/CODE/", statuses: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: "GET /shorten/?workspace=W", statuses: [200, 200, 200, 404, 401, 200, 200, 200, 403, 403, 403, 404] },
  { route: "PUT /shorten/CODE/", statuses: [200, 200, 403, 404, 401, 200, 200, 403, 200, 403, 403, 404] },
  { route: "DELETE /shorten/CODE/", statuses: [204, 204, 403, 404, 401, 204, 204, 403, 204, 403, 403, 404] },
  { route: "GET /shorten/CODE/visits/", statuses: [200, 200, 200, 404, 401, 200, 200, 403, 403, 403, 200, 404] },
  { route: "GET /shorten/CODE/visits/export?format=csv", statuses: [200, 200, 200, 404, 401, 200, 200, 403, 403, 403, 200, 404] },
  { route: "POST /shorten/", statuses: [201, 201, 403, 404, 401, 201, 201, 403, 201, 201, 403, 404] },
  { route: "POST /shorten/bulk/", statuses: [201, 201, 403, 404, 401, 201, 201, 403, 201, 403, 403, 404] },
  { route: "GET /admin/export/links?workspace=W", statuses: [200, 200, 200, 404, 401, 200, 200, 200, 403, 403, 403, 404] },
  { route: "POST /admin/import?workspace=W", statuses: [200, 200, 403, 404, 401, 200, 403, 403, 200, 403, 403, 404] },
  { route: "GET /workspaces/W/members", statuses: [200, 200, 200, 404, 401, 200, 404, 404, 404, 404, 404, 404] },
  { route: "GET /workspaces/W/api-keys", statuses: [200, 200, 200, 404, 401, 200, 404, 404, 404, 404, 404, 404] },
  {
    route: "POST /workspaces/W/api-keys",
    body: { name: "table", scopes: ["links:read"] },
    statuses: [201, 201, 403, 404, 401, 403, 403, 403, 403, 403, 403, 403],
  },
  { route: "POST /workspaces/W/invites", body: { role: "viewer" }, statuses: [201, 403, 403, 404, 401, 403, 403, 403, 403, 403, 403, 403] },
  { route: "GET /workspaces/W/audit", statuses: [200, 403, 403, 404, 401, 200, 404, 404, 404, 404, 404, 404] },
];

describe.each(["sqlite", "postgres"] as const)("a workspace's links on %s", (engine) => {
  let api: TestShortener;
  const tokens = {} as Record<Caller, string | undefined>;
  let workspace: number;
  let otherWorkspace: number;
  const as = (who: Caller): Record<string, string> => (tokens[who] === undefined ? {} : { authorization: `Bearer ${tokens[who]}` });
  const adminHeaders = () => ({ authorization: `Bearer ${api.adminToken()}` });

  async function signIn(username: string): Promise<string> {
    const person = { username, password: "a long passphrase" };
    expect((await api.request("POST", "/admin/users", { json: person, headers: adminHeaders() })).status).toBe(201);
    return (await readJson(await api.request("POST", "/login", { json: person }))).token;
  }

  async function join(owner: Caller, who: Caller, role: string): Promise<void> {
    const invite = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role }, headers: as(owner) }));
    expect((await api.request("POST", `/invites/${invite.token}/accept`, { headers: as(who) })).status).toBe(200);
  }

  async function keyOf(maker: Caller, workspaceId: number, scopes: string[]): Promise<string> {
    const made = await api.request("POST", `/workspaces/${workspaceId}/api-keys`, { json: { name: scopes.join(" "), scopes }, headers: as(maker) });
    expect(made.status).toBe(201);
    return (await readJson(made)).key;
  }

  /** A link of the workspace, made by its owner. */
  async function workspaceLink(longUrl = "https://example.com/team"): Promise<{ short_url: string; workspace: number }> {
    const made = await api.request("POST", "/shorten/", { json: { long_url: longUrl, workspace }, headers: as("owner") });
    expect(made.status).toBe(201);
    return readJson(made);
  }

  beforeAll(async () => {
    api = await startTestShortener({ engine, hashPassword: cheapPasswordHash });
    tokens.owner = await signIn("olga");
    tokens.editor = await signIn("ed");
    tokens.viewer = await signIn("vic");
    tokens.outsider = await signIn("otto");
    tokens.admin = api.adminToken();
    workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Team" }, headers: as("owner") }))).id;
    otherWorkspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Otto's" }, headers: as("outsider") }))).id;
    await join("owner", "editor", "editor");
    await join("owner", "viewer", "viewer");
    tokens.adminsKey = (await api.apiKeys.create({ name: "ops", scopes: ["links:read", "links:write", "visits:read"] })).key;
    tokens.keyRead = await keyOf("owner", workspace, ["links:read"]);
    tokens.keyWrite = await keyOf("editor", workspace, ["links:write"]);
    tokens.keyCreate = await keyOf("owner", workspace, ["links:create"]);
    tokens.keyVisits = await keyOf("owner", workspace, ["visits:read"]);
    tokens.otherKey = await keyOf("outsider", otherWorkspace, ["links:read", "links:write", "links:create", "visits:read"]);
  });
  afterAll(() => api[Symbol.asyncDispose]());

  /** The route of the table asked by `who`, on a fresh link of the workspace; the status (a bulk create's: its item's). */
  async function statusOf(route: string, who: Caller, body: unknown): Promise<number> {
    const [method, template] = route.split(" ") as [string, string];
    const path = template.replace("W", String(workspace)).replace("CODE", (await workspaceLink()).short_url);
    const json =
      body ??
      (path === "/shorten/"
        ? { long_url: "https://example.com/new", workspace }
        : path === "/shorten/bulk/"
          ? { links: [{ long_url: "https://example.com/bulk", workspace }] }
          : method === "PUT"
            ? { title: "changed" }
            : undefined);
    const importing = path.startsWith("/admin/import");
    const response = importing
      ? await api.request(method, path, { body: "long_url\nhttps://example.com/imported\n", headers: { ...as(who), "content-type": "text/csv" } })
      : await api.request(method, path, { json, headers: as(who) });
    if (path !== "/shorten/bulk/" || response.status !== 200) {
      await response.body?.cancel();
      return response.status;
    }
    return (await readJson(response)).results[0].status;
  }

  for (const { route, body, statuses } of table) {
    test(`${route}: each caller allowed gets through, each other is refused as the docs say`, async () => {
      const seen: Record<string, number> = {};
      for (const who of callers) seen[who] = await statusOf(route, who, body);
      expect(seen).toEqual(Object.fromEntries(callers.map((who, i) => [who, statuses[i]!])));
    });
  }

  test("a link outside the caller's workspaces answers as one that does not exist; a guessed code tells nothing", async () => {
    const link = await workspaceLink();
    const missing = await api.request("PUT", "/shorten/NoSuchCode/", { json: { title: "x" }, headers: as("outsider") });
    const hidden = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { title: "x" }, headers: as("outsider") });
    const shape = async (response: Response) => {
      const { error } = await readJson(response);
      return { status: response.status, code: error.code, message: error.message.replace(/"[^"]*"/, '"…"') };
    };
    expect(await shape(hidden)).toEqual(await shape(missing));
    const byOtherKey = await api.request("GET", `/shorten/${link.short_url}/visits/`, { headers: as("otherKey") });
    expect(byOtherKey.status).toBe(404);
    // A workspace no member may see is as missing as one never made.
    const otherList = await api.request("GET", `/shorten/?workspace=${otherWorkspace}`, { headers: as("owner") });
    const noneList = await api.request("GET", "/shorten/?workspace=999999", { headers: as("owner") });
    expect(await shape(otherList)).toEqual(await shape(noneList));
  });

  test("two workspaces' links never cross: each listing and search holds its own; an admin sees both, or one", async () => {
    const ours = await workspaceLink("https://example.com/crossing-ours");
    const theirs = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/crossing-theirs" }, headers: as("otherKey") }),
    );
    expect(theirs.workspace).toBe(otherWorkspace);
    const codes = async (path: string, who: Caller) =>
      (await readJson(await api.request("GET", path, { headers: as(who) }))).results.map((r: { short_url: string }) => r.short_url);
    expect(await codes(`/shorten/?q=crossing&workspace=${workspace}`, "viewer")).toEqual([ours.short_url]);
    expect(await codes("/shorten/?q=crossing", "outsider")).toEqual([theirs.short_url]);
    expect(await codes("/shorten/?q=crossing", "otherKey")).toEqual([theirs.short_url]);
    // Both, in either order: made in the same millisecond, they tie on the listing's order.
    expect((await codes("/shorten/?q=crossing", "admin")).sort()).toEqual([theirs.short_url, ours.short_url].sort());
    expect(await codes(`/shorten/?q=crossing&workspace=${otherWorkspace}`, "admin")).toEqual([theirs.short_url]);
    const page = await readJson(await api.request("GET", `/shorten/?workspace=${workspace}&page_size=1`, { headers: as("owner") }));
    expect(new URL(page.next).searchParams.get("workspace")).toBe(String(workspace));
  });

  test("an import into the workspace fills it; a member adds no domain", async () => {
    const file = "long_url,short_url\nhttps://example.com/brought,brought-in\n";
    const imported = await api.request("POST", `/admin/import?workspace=${workspace}&format=csv`, {
      body: file,
      headers: { ...as("editor"), "content-type": "text/csv" },
    });
    const lines = (await imported.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-1).summary).toMatchObject({ imported: 1 });
    const listed = await readJson(await api.request("GET", `/shorten/?workspace=${workspace}&q=brought-in`, { headers: as("viewer") }));
    expect(listed.results.map((r: { short_url: string; workspace: number }) => [r.short_url, r.workspace])).toEqual([["brought-in", workspace]]);
    const exported = await (await api.request("GET", `/admin/export/links?workspace=${otherWorkspace}`, { headers: as("outsider") })).text();
    expect(exported).not.toContain("brought-in");
    const creating = await api.request("POST", `/admin/import?workspace=${workspace}&domains=create`, {
      body: file,
      headers: { ...as("owner"), "content-type": "text/csv" },
    });
    expect([creating.status, (await readJson(creating)).error.message]).toEqual([403, "domains=create adds domains, which only an admin does"]);
  });

  test("a workspace makes links on the default domain and its own; a granted domain is its workspaces' and the admins'", async () => {
    const addDomain = async (host: string, workspaces?: number[]) => {
      const made = await readJson(await api.request("POST", "/admin/domains", { json: { host }, headers: adminHeaders() }));
      if (workspaces === undefined) return made;
      const granted = await api.request("PATCH", `/admin/domains/${made.id}`, { json: { workspaces }, headers: adminHeaders() });
      expect(granted.status).toBe(200);
      return readJson(granted);
    };
    const ours = await addDomain("team.brand.test", [workspace]);
    expect(ours.workspaces).toEqual([workspace]);
    await addDomain("instance.brand.test");
    await addDomain("otto.brand.test", [otherWorkspace]);
    const create = async (who: Caller, domain: string | undefined, inWorkspace?: number) =>
      (
        await api.request("POST", "/shorten/", {
          json: { long_url: "https://example.com/branded", ...(domain ? { domain } : {}), ...(inWorkspace ? { workspace: inWorkspace } : {}) },
          headers: as(who),
        })
      ).status;
    expect(await create("owner", "team.brand.test", workspace)).toBe(201);
    expect(await create("keyWrite", "team.brand.test")).toBe(201);
    expect(await create("owner", undefined, workspace)).toBe(201);
    expect(await create("owner", "instance.brand.test", workspace)).toBe(403);
    expect(await create("owner", "otto.brand.test", workspace)).toBe(403);
    expect(await create("outsider", "otto.brand.test")).toBe(201);
    expect(await create("anonymous", "team.brand.test")).toBe(403);
    expect(await create("anonymous", "instance.brand.test")).toBe(201);
    expect(await create("admin", "team.brand.test")).toBe(201);
    expect(await create("adminsKey", "team.brand.test")).toBe(403);
    const bulk = await readJson(
      await api.request("POST", "/shorten/bulk/", {
        json: {
          links: [
            { long_url: "https://example.com/b1", domain: "instance.brand.test" },
            { long_url: "https://example.com/b2", domain: "team.brand.test" },
          ],
        },
        headers: as("editor"),
      }),
    );
    expect(bulk.results.map((result: { status: number }) => result.status)).toEqual([403, 201]);
    const rows = [
      { short_url: "domain-row-one", long_url: "https://example.com/i1", domain: "instance.brand.test" },
      { short_url: "domain-row-two", long_url: "https://example.com/i2", domain: "team.brand.test" },
    ];
    const imported = await api.request("POST", `/admin/import?workspace=${workspace}&format=linkgeo-ndjson`, {
      body: rows.map((row) => JSON.stringify(row)).join("\n"),
      headers: { ...as("editor"), "content-type": "application/x-ndjson" },
    });
    const lines = (await imported.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.status === "problem").map((line) => [line.line, line.reason])).toEqual([
      [1, "a workspace makes links on the default domain and the domains granted to it: instance.brand.test is not one"],
    ]);
    expect(lines.at(-1).summary).toMatchObject({ imported: 1, problems: 1 });
    // An admin moving a link into a workspace is held to the same rule.
    const onInstance = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/instance", domain: "instance.brand.test" }, headers: adminHeaders() }),
    );
    const move = await api.request("PUT", `/shorten/${onInstance.short_url}/?domain=instance.brand.test`, { json: { workspace }, headers: adminHeaders() });
    expect(move.status).toBe(403);
    // The default domain is every workspace's; a workspace granted must exist.
    expect((await api.request("PATCH", "/admin/domains/0", { json: { workspaces: [workspace] }, headers: adminHeaders() })).status).toBe(409);
    const none = await api.request("PATCH", `/admin/domains/${ours.id}`, { json: { workspaces: [999999] }, headers: adminHeaders() });
    expect([none.status, (await readJson(none)).error.message]).toEqual([400, "workspaces: no workspace 999999"]);
    expect((await api.request("PATCH", `/admin/domains/${ours.id}`, { json: { workspaces: "all" }, headers: adminHeaders() })).status).toBe(400);
  });

  test("a record names its workspace to those who may read it, and null to anyone else", async () => {
    const link = await workspaceLink();
    const workspaceOf = async (who: Caller) => (await readJson(await api.request("GET", `/shorten/${link.short_url}/`, { headers: as(who) }))).workspace;
    expect(await workspaceOf("viewer")).toBe(workspace);
    expect(await workspaceOf("keyRead")).toBe(workspace);
    expect(await workspaceOf("anonymous")).toBeNull();
    expect(await workspaceOf("outsider")).toBeNull();
    expect(await workspaceOf("otherKey")).toBeNull();
  });

  test("a member in one workspace may leave it out; in several, a create and a listing name it", async () => {
    const alone = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/alone" }, headers: as("editor") }));
    expect(alone.workspace).toBe(workspace);
    const listed = await api.request("GET", "/shorten/", { headers: as("viewer") });
    expect(listed.status).toBe(200);
    // The owner is in one workspace too: in a second, they must name it.
    const second = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Second" }, headers: as("owner") }))).id;
    for (const [method, path, json] of [
      ["POST", "/shorten/", { long_url: "https://example.com/which" }],
      ["GET", "/shorten/", undefined],
    ] as const) {
      const response = await api.request(method, path, { json, headers: as("owner") });
      expect([response.status, (await readJson(response)).error.message]).toEqual([400, "workspace: you are a member of several workspaces; name one"]);
    }
    const named = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/which", workspace: String(second) }, headers: as("owner") });
    expect([named.status, (await readJson(named)).workspace]).toEqual([201, second]);
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/x", workspace: "x1" }, headers: as("owner") })).status).toBe(400);
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/x", workspace } })).status).toBe(401);
  });

  test("a workspace's link hands out no manage token, and one moved in leaves its token behind", async () => {
    const made = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/no-token", workspace }, headers: as("editor") }),
    );
    expect(made.manage_token).toBeNull();
    const bulk = await readJson(
      await api.request("POST", "/shorten/bulk/", { json: { links: [{ long_url: "https://example.com/no-token", workspace }] }, headers: as("editor") }),
    );
    expect(bulk.results[0].record.manage_token).toBeNull();
    const anonymous = await api.createLink("https://example.com/moved-with-token");
    const byToken = (method: string, path: string, json?: unknown) =>
      api.request(method, path, { json, headers: { authorization: `Bearer ${anonymous.manage_token}` } });
    expect((await byToken("PUT", `/shorten/${anonymous.short_url}/`, { title: "mine" })).status).toBe(200);
    expect((await api.request("PUT", `/shorten/${anonymous.short_url}/`, { json: { workspace }, headers: adminHeaders() })).status).toBe(200);
    expect((await byToken("PUT", `/shorten/${anonymous.short_url}/`, { long_url: "https://evil.example/" })).status).toBe(403);
    expect((await byToken("GET", `/shorten/${anonymous.short_url}/visits/`)).status).toBe(403);
    expect((await byToken("GET", "/shorten/")).status).toBe(401);
    expect((await readJson(await byToken("GET", `/shorten/${anonymous.short_url}/`))).workspace).toBeNull();
    // Moved out again, it stays the admins' and keys': the token left behind does not come back.
    expect((await api.request("PUT", `/shorten/${anonymous.short_url}/`, { json: { workspace: null }, headers: adminHeaders() })).status).toBe(200);
    expect((await byToken("PUT", `/shorten/${anonymous.short_url}/`, { title: "mine again" })).status).toBe(403);
    expect((await byToken("DELETE", `/shorten/${anonymous.short_url}/`)).status).toBe(403);
    expect((await byToken("GET", `/shorten/${anonymous.short_url}/visits/`)).status).toBe(403);
  });

  test("a workspace's key on an admin route is told it acts on its workspace's links only", async () => {
    const response = await api.request("GET", "/admin/visits/", { headers: as("keyVisits") });
    expect([response.status, (await readJson(response)).error.message]).toEqual([403, "this API key is a workspace's: it acts on its workspace's links only"]);
  });

  test("a key with links:create makes links and nothing else: no manage token, no record to read", async () => {
    const made = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/from-a-page", password: "a long password" }, headers: as("keyCreate") }),
    );
    expect(made).toMatchObject({ workspace: null, long_url: null, manage_token: null });
    expect((await api.request("GET", `/shorten/?workspace=${workspace}`, { headers: as("keyCreate") })).status).toBe(403);
    // An admin's key with links:create alone makes links of no workspace, and no token either; with links:write, it gets one.
    const { key } = await api.apiKeys.create({ name: "page", scopes: ["links:create"] });
    const byPage = await readJson(
      await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/page" }, headers: { authorization: `Bearer ${key}` } }),
    );
    expect([byPage.workspace, byPage.manage_token]).toEqual([null, null]);
    const byWriter = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/by-writer" }, headers: as("adminsKey") }));
    expect(byWriter.manage_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("a key never carries more than its maker's role; a viewer makes none, an owner lists every key, an editor their own", async () => {
    const beyond = await api.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: "x", scopes: ["admin"] }, headers: as("owner") });
    expect([beyond.status, (await readJson(beyond)).error.message]).toEqual([
      403,
      "a key never carries more than its maker's role: owner does not allow admin",
    ]);
    const byViewer = await api.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: "x", scopes: ["links:read"] }, headers: as("viewer") });
    expect(byViewer.status).toBe(403);
    const names = async (who: Caller) =>
      (await readJson(await api.request("GET", `/workspaces/${workspace}/api-keys`, { headers: as(who) }))).results.map((k: { name: string }) => k.name).sort();
    // The editor's own (the set-up's, and any the table made), none of the owner's.
    const editors = await names("editor");
    expect(editors).toContain("links:write");
    for (const owners of ["links:read", "links:create", "visits:read"]) expect(editors).not.toContain(owners);
    expect((await names("owner")).length).toBeGreaterThan(1);
    // An editor may not revoke the owner's key: it is not theirs to see.
    const ownersKey = (await readJson(await api.request("GET", `/workspaces/${workspace}/api-keys`, { headers: as("owner") }))).results.find(
      (k: { name: string }) => k.name === "links:read",
    );
    expect((await api.request("DELETE", `/workspaces/${workspace}/api-keys/${ownersKey.id}`, { headers: as("editor") })).status).toBe(404);
    expect((await api.request("DELETE", `/workspaces/${otherWorkspace}/api-keys/${ownersKey.id}`, { headers: as("outsider") })).status).toBe(404);
  });

  test("an admin moves a link into a workspace; a member may send back the record but moves nothing", async () => {
    const anonymous = await api.createLink("https://example.com/moved-in");
    const moved = await api.request("PUT", `/shorten/${anonymous.short_url}/`, { json: { workspace }, headers: adminHeaders() });
    expect([moved.status, (await readJson(moved)).workspace]).toEqual([200, workspace]);
    expect((await api.request("GET", `/shorten/${anonymous.short_url}/visits/`, { headers: as("viewer") })).status).toBe(200);
    const away = await api.request("PUT", `/shorten/${anonymous.short_url}/`, { json: { workspace: otherWorkspace }, headers: as("owner") });
    expect(away.status).toBe(400);
    const same = await api.request("PUT", `/shorten/${anonymous.short_url}/`, { json: { workspace, title: "kept" }, headers: as("owner") });
    expect([same.status, (await readJson(same)).workspace]).toEqual([200, workspace]);
    const nowhere = await api.request("PUT", `/shorten/${anonymous.short_url}/`, { json: { workspace: 999999 }, headers: adminHeaders() });
    expect(nowhere.status).toBe(404);
  });

  test("a member removed loses the workspace's links at their next request", async () => {
    const person = await signIn("rita");
    const invite = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "editor" }, headers: as("owner") }));
    const joined = await readJson(await api.request("POST", `/invites/${invite.token}/accept`, { headers: { authorization: `Bearer ${person}` } }));
    expect(joined.role).toBe("editor");
    const link = await workspaceLink();
    const members = (await readJson(await api.request("GET", `/workspaces/${workspace}/members`, { headers: as("owner") }))).results;
    const rita = members.find((member: { username: string }) => member.username === "rita");
    const change = () => api.request("PUT", `/shorten/${link.short_url}/`, { json: { title: "rita" }, headers: { authorization: `Bearer ${person}` } });
    expect((await change()).status).toBe(200);
    const made = await readJson(
      await api.request("POST", `/workspaces/${workspace}/api-keys`, {
        json: { name: "rita's", scopes: ["links:write"] },
        headers: { authorization: `Bearer ${person}` },
      }),
    );
    expect((await api.request("DELETE", `/workspaces/${workspace}/members/${rita.id}`, { headers: as("owner") })).status).toBe(204);
    expect((await change()).status).toBe(404);
    // Their keys went with them: joining again brings none back.
    const again = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "editor" }, headers: as("owner") }));
    expect((await api.request("POST", `/invites/${again.token}/accept`, { headers: { authorization: `Bearer ${person}` } })).status).toBe(200);
    const byKey = await api.request("PUT", `/shorten/${link.short_url}/`, { json: { title: "key" }, headers: { authorization: `Bearer ${made.key}` } });
    expect(byKey.status).toBe(401);
    expect(
      (await readJson(await api.request("GET", `/workspaces/${workspace}/api-keys`, { headers: as("owner") }))).results.map((k: { id: string }) => k.id),
    ).not.toContain(made.id);
  });
});

describe("a demoted member's keys on two replicas", () => {
  test("stop on both once their trust runs out (750 ms), and a promotion back brings them back", async () => {
    let now = 0;
    const first = await startTestShortener({ engine: "postgres", hashPassword: cheapPasswordHash });
    const keysOf = (api: TestShortener) => new ApiKeys({ store: api.db.apiKeys, clock: () => new Date(), log: silentLogger, now: () => now });
    const replicaA = await startTestShortener({ database: first.db, hashPassword: cheapPasswordHash, apiKeys: keysOf(first) });
    const replicaB = await startTestShortener({ database: first.db, hashPassword: cheapPasswordHash, apiKeys: keysOf(first) });
    try {
      const admin = { authorization: `Bearer ${replicaA.adminToken()}` };
      const tokenOf = async (username: string) => {
        const person = { username, password: "a long passphrase" };
        await replicaA.request("POST", "/admin/users", { json: person, headers: admin });
        return (await readJson(await replicaA.request("POST", "/login", { json: person }))).token as string;
      };
      const owner = { authorization: `Bearer ${await tokenOf("olga")}` };
      const editor = { authorization: `Bearer ${await tokenOf("ed")}` };
      const workspace = (await readJson(await replicaA.request("POST", "/workspaces", { json: { name: "Team" }, headers: owner }))).id;
      const invite = await readJson(await replicaA.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "editor" }, headers: owner }));
      await replicaA.request("POST", `/invites/${invite.token}/accept`, { headers: editor });
      const made = await readJson(
        await replicaB.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: "ci", scopes: ["links:write"] }, headers: editor }),
      );
      const key = { authorization: `Bearer ${made.key}` };
      const create = async (replica: TestShortener) =>
        (await replica.request("POST", "/shorten/", { json: { long_url: "https://example.com/ci" }, headers: key })).status;
      expect([await create(replicaA), await create(replicaB)]).toEqual([201, 201]);

      const members = (await readJson(await replicaA.request("GET", `/workspaces/${workspace}/members`, { headers: owner }))).results;
      const ed = members.find((member: { username: string }) => member.username === "ed");
      expect((await replicaA.request("PATCH", `/workspaces/${workspace}/members/${ed.id}`, { json: { role: "viewer" }, headers: owner })).status).toBe(200);
      // The key's role is read with the key: at most once per trust window per replica.
      now += 750;
      expect([await create(replicaA), await create(replicaB)]).toEqual([401, 401]);
      // The person's own session has the viewer's powers at once: no link made, none changed.
      expect((await replicaB.request("POST", "/shorten/", { json: { long_url: "https://example.com/ed" }, headers: editor })).status).toBe(403);
      // Their key sleeps, and they still see it (and could revoke it).
      const theirs = (await readJson(await replicaB.request("GET", `/workspaces/${workspace}/api-keys`, { headers: editor }))).results;
      expect(theirs.map((k: { id: string }) => k.id)).toEqual([made.id]);

      expect((await replicaB.request("PATCH", `/workspaces/${workspace}/members/${ed.id}`, { json: { role: "editor" }, headers: owner })).status).toBe(200);
      now += 750;
      expect([await create(replicaA), await create(replicaB)]).toEqual([201, 201]);
    } finally {
      await replicaA[Symbol.asyncDispose]();
      await replicaB[Symbol.asyncDispose]();
      await first[Symbol.asyncDispose]();
    }
  });
});

describe("CREATE_ACCESS=members", () => {
  test("refuses anonymous creation and a manage token; a member, an admin and a key create", async () => {
    const api = await startTestShortener({ createAccess: "members", hashPassword: cheapPasswordHash });
    try {
      const admin = { authorization: `Bearer ${api.adminToken()}` };
      const create = (headers: Record<string, string> = {}) => api.request("POST", "/shorten/", { json: { long_url: "https://example.com/members" }, headers });
      const anonymous = await create();
      expect([anonymous.status, (await readJson(anonymous)).error.code]).toEqual([401, "unauthorized"]);
      const byAdmin = await readJson(await create(admin));
      expect((await create({ authorization: `Bearer ${byAdmin.manage_token}` })).status).toBe(401);
      const { key } = await api.apiKeys.create({ name: "cms", scopes: ["links:create"] });
      expect((await create({ authorization: `Bearer ${key}` })).status).toBe(201);
      const person = { username: "mia", password: "a long passphrase" };
      await api.request("POST", "/admin/users", { json: person, headers: admin });
      const token = (await readJson(await api.request("POST", "/login", { json: person }))).token;
      await api.request("POST", "/workspaces", { json: { name: "Mia's" }, headers: { authorization: `Bearer ${token}` } });
      expect((await create({ authorization: `Bearer ${token}` })).status).toBe(201);
    } finally {
      await api[Symbol.asyncDispose]();
    }
  });
});
