import { describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { holdTransaction, shortenerBesidePostgres } from "./support/held-transaction.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";
import { openRawDatabase } from "./support/raw-database.ts";

/**
 * A link made for a workspace that is deleted between the route's check and
 * the write (another request, another replica) meets the foreign key: the
 * answer is the 404 of a workspace that is not there, never a 500. The
 * deletion is held open in a second connection, so the create's check still
 * sees the workspace and its insert waits for the deletion to commit.
 */
test("a link made while its workspace is being deleted is a 404, and nothing is stored", async () => {
  await using stack = await shortenerBesidePostgres("workspace_race", { hashPassword: cheapPasswordHash });
  const { api, other } = stack;
  const admin = { authorization: `Bearer ${api.adminToken()}` };
  const person = { username: "rita", password: "a long passphrase" };
  await api.request("POST", "/admin/users", { json: person, headers: admin });
  const rita = { authorization: `Bearer ${(await readJson(await api.request("POST", "/login", { json: person }))).token}` };
  const workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Going" }, headers: rita }))).id;

  const deleting = holdTransaction(other, (tx) => tx`DELETE FROM workspaces WHERE id = ${workspace}`);
  await deleting.held;
  const create = api.request("POST", "/shorten/", { json: { long_url: "https://example.com/race", workspace }, headers: admin });
  await stack.waitForLockWait("the create's insert to wait for the deletion");
  await deleting.commit();
  const response = await create;
  expect([response.status, await readJson(response)]).toEqual([404, { error: { code: "not_found", message: `no workspace "${workspace}"` } }]);
  expect((await other`SELECT code FROM links WHERE workspace_id = ${workspace}`).length).toBe(0);
});

/** The same refusal from each store, however it came to write into a workspace that is not there. */
describe.each(["sqlite", "postgres"] as const)("the link store on %s", (engine) => {
  test("a link written into a workspace that is not there is the workspace's 404: insert, insert of many, a move", async () => {
    await using raw = await openRawDatabase(engine);
    const link = { code: `gone-${engine}`, longUrl: "https://example.com/gone", manageTokenHash: "h".repeat(64), createdAt: new Date() };
    const refusal = { status: 404, code: "not_found", message: 'no workspace "987654"' };
    await expect(raw.db.links.insert({ ...link, workspaceId: 987654 })).rejects.toMatchObject(refusal);
    const another = (n: number) => ({ ...link, code: `${link.code}-${n}`, manageTokenHash: String(n).repeat(64) });
    await expect(raw.db.links.insertMany([another(2), { ...another(3), workspaceId: 987654 }])).rejects.toMatchObject(refusal);
    // Of several workspaces, the one that is gone is named, whatever the rows' order.
    const owner = await raw.db.people.insert({ username: "wanda", passwordHash: "h", createdAt: new Date() });
    const there = await raw.db.workspaces.create({ name: "There", createdAt: new Date() }, owner!.id);
    await expect(
      raw.db.links.insertMany([
        { ...another(4), code: "zz-last", workspaceId: 987654 },
        { ...another(5), code: "aa-first", workspaceId: there!.id },
      ]),
    ).rejects.toMatchObject(refusal);
    expect(await raw.db.links.insert(link)).not.toBeNull();
    await expect(raw.db.links.update(link.code, { workspaceId: 987654 }, new Date())).rejects.toMatchObject(refusal);
    expect((await raw.db.links.find(link.code))?.workspaceId).toBeNull();
  });
});
