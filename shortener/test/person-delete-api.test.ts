import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson, waitFor } from "@linkgeo/testing";
import { holdTransaction, shortenerBesidePostgres } from "./support/held-transaction.ts";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/** `DELETE /admin/users/<id>` (docs/people.md), on both engines. */
describe.each(["sqlite", "postgres"] as const)("deleting a person on %s", (engine) => {
  let api: TestShortener;
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    api = await startTestShortener({ engine, hashPassword: cheapPasswordHash });
  });
  afterAll(() => api[Symbol.asyncDispose]());

  /** A new person, signed in: their id and bearer headers. */
  async function person(username: string) {
    const added = await readJson(await api.request("POST", "/admin/users", { json: { username, password: "a long passphrase" }, headers: admin() }));
    const token = (await readJson(await api.request("POST", "/login", { json: { username, password: "a long passphrase" } }))).token;
    return { id: added.id as number, as: bearer(token) };
  }

  test("their sign-ins end at once, their keys stop, their membership goes; the links they made stay with the workspace", async () => {
    const [owner, leaver] = [await person(`own-${engine}`), await person(`leave-${engine}`)];
    const workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Stays" }, headers: owner.as }))).id;
    const invite = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "editor" }, headers: owner.as }));
    await api.request("POST", `/invites/${invite.token}/accept`, { headers: leaver.as });
    const key = await readJson(
      await api.request("POST", `/workspaces/${workspace}/api-keys`, { json: { name: "theirs", scopes: ["links:read"] }, headers: leaver.as }),
    );
    const link = await readJson(await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/kept" }, headers: leaver.as }));
    expect((await api.request("GET", "/shorten/", { headers: bearer(key.key) })).status).toBe(200);

    expect((await api.request("DELETE", `/admin/users/${leaver.id}`, { headers: admin() })).status).toBe(204);
    expect((await api.request("GET", "/workspaces", { headers: leaver.as })).status).toBe(401);
    await waitFor("the key they made to stop", async () => (await api.request("GET", "/shorten/", { headers: bearer(key.key) })).status === 401);
    const members = (await readJson(await api.request("GET", `/workspaces/${workspace}/members`, { headers: owner.as }))).results;
    expect(members.map((member: { id: number }) => member.id)).toEqual([owner.id]);
    const listed = (await readJson(await api.request("GET", `/shorten/?workspace=${workspace}`, { headers: owner.as }))).results;
    expect(listed.map((one: { short_url: string }) => one.short_url)).toContain(link.short_url);
    const [last] = (await readJson(await api.request("GET", "/admin/audit?limit=1", { headers: admin() }))).results;
    expect(last).toMatchObject({ actor: { kind: "admin" }, action: "person.delete", target: `leave-${engine}` });
    // The name is free again; the id is never given again.
    const again = await readJson(
      await api.request("POST", "/admin/users", { json: { username: `leave-${engine}`, password: "a long passphrase" }, headers: admin() }),
    );
    expect(again.id).toBeGreaterThan(leaver.id);
  });

  test("the only owner of a workspace is not deleted until another member owns it", async () => {
    const [owner, helper] = [await person(`sole-${engine}`), await person(`help-${engine}`)];
    const workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Needs an owner" }, headers: owner.as }))).id;
    const refused = await api.request("DELETE", `/admin/users/${owner.id}`, { headers: admin() });
    expect([refused.status, await readJson(refused)]).toEqual([
      409,
      {
        error: {
          code: "conflict",
          message: `the person is the only owner of workspace ${workspace}: make another member an owner there, or delete it, first`,
        },
      },
    ]);
    expect((await api.request("GET", "/workspaces", { headers: owner.as })).status).toBe(200);

    const invite = await readJson(await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "owner" }, headers: owner.as }));
    await api.request("POST", `/invites/${invite.token}/accept`, { headers: helper.as });
    expect((await api.request("DELETE", `/admin/users/${owner.id}`, { headers: admin() })).status).toBe(204);
    const left = (await readJson(await api.request("GET", `/workspaces/${workspace}/members`, { headers: helper.as }))).results;
    expect(left.map((member: { id: number; role: string }) => [member.id, member.role])).toEqual([[helper.id, "owner"]]);
  });

  test("only an admin (or a key with the admin scope) deletes; an id no person has is a 404", async () => {
    const [someone, other] = [await person(`some-${engine}`), await person(`other-${engine}`)];
    expect((await api.request("DELETE", `/admin/users/${other.id}`)).status).toBe(401);
    expect((await api.request("DELETE", `/admin/users/${other.id}`, { headers: someone.as })).status).toBe(403);
    for (const id of ["999999", "abc", "0", "99999999999"]) expect((await api.request("DELETE", `/admin/users/${id}`, { headers: admin() })).status).toBe(404);
    const key = await api.apiKeys.create({ name: "ops", scopes: ["admin"] });
    expect((await api.request("DELETE", `/admin/users/${other.id}`, { headers: bearer(key.key) })).status).toBe(204);
    expect((await api.request("DELETE", `/admin/users/${other.id}`, { headers: admin() })).status).toBe(404);
  });
});

/**
 * A workspace being made for the person while an admin deletes them: the
 * deletion waits for it, counts it, and refuses (the person is its only
 * owner), where it once deleted the person and left the workspace with no
 * one. The making is held open in a second connection.
 */
test("a workspace made for a person while they are deleted is counted: the only owner is kept", async () => {
  await using stack = await shortenerBesidePostgres("person_race", { hashPassword: cheapPasswordHash });
  const { api, other } = stack;
  const admin = { authorization: `Bearer ${api.adminToken()}` };
  const person = await readJson(await api.request("POST", "/admin/users", { json: { username: "nell", password: "a long passphrase" }, headers: admin }));
  const making = holdTransaction(other, async (tx) => {
    const [workspace] = await tx<{ id: number }[]>`INSERT INTO workspaces (name, created_at) VALUES ('Just made', now()) RETURNING id`;
    await tx`INSERT INTO workspace_members (workspace_id, person_id, role, created_at) VALUES (${workspace!.id}, ${person.id}, 'owner', now())`;
    return workspace!.id;
  });
  const workspace = await making.held;
  const deletion = api.request("DELETE", `/admin/users/${person.id}`, { headers: admin });
  await stack.waitForLockWait("the deletion to wait for the workspace's making");
  await making.commit();
  const response = await deletion;
  expect([response.status, (await readJson(response)).error.message]).toEqual([
    409,
    `the person is the only owner of workspace ${workspace}: make another member an owner there, or delete it, first`,
  ]);
  expect((await other`SELECT person_id FROM workspace_members WHERE workspace_id = ${workspace}`).length).toBe(1);
});
