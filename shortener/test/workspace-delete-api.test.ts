import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/** `DELETE /workspaces/<id>` (docs/people.md), on both engines. */
describe.each(["sqlite", "postgres"] as const)("deleting a workspace on %s", (engine) => {
  let api: TestShortener;
  const tokens: Record<string, string> = {};
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });

  beforeAll(async () => {
    api = await startTestShortener({ engine, hashPassword: cheapPasswordHash });
    for (const username of ["owen", "edda", "otis"]) {
      const person = { username, password: "a long passphrase" };
      await api.request("POST", "/admin/users", { json: person, headers: admin() });
      tokens[username] = (await readJson(await api.request("POST", "/login", { json: person }))).token;
    }
  });
  afterAll(() => api[Symbol.asyncDispose]());

  /** A workspace of owen's with edda as its editor. */
  async function team(name: string): Promise<number> {
    const id = (await readJson(await api.request("POST", "/workspaces", { json: { name }, headers: as("owen") }))).id;
    const invite = await readJson(await api.request("POST", `/workspaces/${id}/invites`, { json: { role: "editor" }, headers: as("owen") }));
    await api.request("POST", `/invites/${invite.token}/accept`, { headers: as("edda") });
    return id;
  }

  test("its owners and the admins delete it; an editor is 403, anyone else 404, a bad links 400", async () => {
    const id = await team("Short-lived");
    expect((await api.request("DELETE", `/workspaces/${id}`, { headers: as("edda") })).status).toBe(403);
    expect((await api.request("DELETE", `/workspaces/${id}`, { headers: as("otis") })).status).toBe(404);
    expect((await api.request("DELETE", `/workspaces/${id}?links=keep`, { headers: as("owen") })).status).toBe(400);
    expect((await api.request("DELETE", `/workspaces/${id}`, { headers: as("owen") })).status).toBe(204);
    expect((await api.request("GET", `/workspaces/${id}/members`, { headers: as("owen") })).status).toBe(404);
    expect((await api.request("DELETE", `/workspaces/${id}`, { headers: admin() })).status).toBe(404);
    const listed = (await readJson(await api.request("GET", "/workspaces", { headers: as("edda") }))).results;
    expect(listed.map((w: { id: number }) => w.id)).not.toContain(id);
  });

  test("one holding a link the admins hold is deleted with its links by an admin only, so its short URL stays taken", async () => {
    const id = await team("Held");
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/held", workspace: id }, headers: as("edda") }));
    await api.request("POST", "/report", { json: { short_url: link.short_url, reason: "phishing" } });
    const reports = (await readJson(await api.request("GET", "/admin/reports?state=open", { headers: admin() }))).results;
    const reported = reports.find((row: { link: { short_url: string } | null }) => row.link?.short_url === link.short_url);
    expect((await api.request("POST", `/admin/reports/${reported.id}/actions`, { json: { action: "quarantine" }, headers: admin() })).status).toBe(200);

    const refused = await api.request("DELETE", `/workspaces/${id}?links=delete`, { headers: as("owen") });
    expect([refused.status, await readJson(refused)]).toEqual([
      409,
      {
        error: {
          code: "conflict",
          message: "the workspace has links this service's admins hold (quarantined or disabled): only an admin deletes it with them",
        },
      },
    ]);
    expect((await api.request("GET", `/shorten/${link.short_url}/`)).status).toBe(200);
    expect((await api.request("DELETE", `/shorten/${link.short_url}/`, { headers: as("owen") })).status).toBe(403);
    expect((await api.request("DELETE", `/workspaces/${id}?links=delete`, { headers: admin() })).status).toBe(204);
    expect((await api.request("GET", `/shorten/${link.short_url}/`)).status).toBe(404);
  });

  test("one with links is refused unless its links go with it; then its keys, grants and log go too", async () => {
    const id = await team("With links");
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/team", workspace: id }, headers: as("edda") }));
    const key = await readJson(await api.request("POST", `/workspaces/${id}/api-keys`, { json: { name: "ci", scopes: ["links:read"] }, headers: as("edda") }));
    const domain = await readJson(await api.request("POST", "/admin/domains", { json: { host: `team-${engine}.brand.test` }, headers: admin() }));
    await api.request("PATCH", `/admin/domains/${domain.id}`, { json: { workspaces: [id] }, headers: admin() });
    expect((await api.request("GET", `/shorten/?workspace=${id}`, { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(200);

    const refused = await api.request("DELETE", `/workspaces/${id}`, { headers: as("owen") });
    expect([refused.status, (await readJson(refused)).error.code]).toEqual([409, "conflict"]);
    expect((await api.request("DELETE", `/workspaces/${id}?links=delete`, { headers: admin() })).status).toBe(204);

    expect((await api.request("GET", `/shorten/${link.short_url}/`)).status).toBe(404);
    expect((await api.request("GET", "/shorten/", { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(401);
    const domains = (await readJson(await api.request("GET", "/admin/domains", { headers: admin() }))).results;
    expect(domains.find((d: { id: number }) => d.id === domain.id).workspaces).toEqual([]);
    const [last] = (await readJson(await api.request("GET", "/admin/audit?limit=1", { headers: admin() }))).results;
    expect(last).toMatchObject({ actor: { kind: "admin" }, action: "workspace.delete", target: "With links (1 links)" });
  });
});
