import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readJson } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";
import { cheapPasswordHash } from "./support/cheap-password.ts";

/** Invites and members of a workspace (docs/people.md), on both engines. */
describe.each(["sqlite", "postgres"] as const)("workspace invites and members on %s", (engine) => {
  let api: TestShortener;
  let now = new Date("2026-12-06T12:00:00.000Z");
  const tokens: Record<string, string> = {};
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const admin = () => ({ authorization: `Bearer ${api.adminToken()}` });
  let workspace: number;
  beforeAll(async () => {
    // A cheap argon2id: these tests are about who may do what.
    api = await startTestShortener({
      engine,
      clock: () => now,
      hashPassword: cheapPasswordHash,
    });
    for (const username of ["rosa", "sam", "tess"]) {
      await api.request("POST", "/admin/users", { json: { username, password: "a long passphrase" }, headers: admin() });
      tokens[username] = (await readJson(await api.request("POST", "/login", { json: { username, password: "a long passphrase" } }))).token;
    }
    workspace = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Launch" }, headers: as("rosa") }))).id;
  });
  afterAll(() => api[Symbol.asyncDispose]());
  const invite = (role: string, who = "rosa", id = workspace) => api.request("POST", `/workspaces/${id}/invites`, { json: { role }, headers: as(who) });
  const members = async (who: Record<string, string>, id = workspace) => api.request("GET", `/workspaces/${id}/members`, { headers: who });

  test("the owner invites; a person signed in accepts and joins with the role; the invite is used up", async () => {
    const made = await invite("editor");
    expect([made.status, made.headers.get("cache-control")]).toEqual([201, "no-store"]);
    const { token, expires_at } = await readJson(made);
    expect(token).toMatch(/^lgi_[A-Za-z0-9_-]{43}$/);
    expect(expires_at).toBe("2026-12-13T12:00:00.000Z");

    const accepted = await api.request("POST", `/invites/${token}/accept`, { headers: as("sam") });
    expect([accepted.status, await readJson(accepted)]).toEqual([200, { workspace, role: "editor" }]);
    const again = await api.request("POST", `/invites/${token}/accept`, { headers: as("tess") });
    expect([again.status, (await readJson(again)).error.code]).toEqual([404, "not_found"]);

    const list = (await readJson(await members(as("sam")))).results;
    expect(list.map((member: { username: string; role: string }) => `${member.username} ${member.role}`)).toEqual(["rosa owner", "sam editor"]);
    expect((await readJson(await members(admin()))).results).toEqual(list);
    expect((await readJson(await api.request("GET", "/workspaces", { headers: as("sam") }))).results).toMatchObject([{ id: workspace, role: "editor" }]);
  });

  test("a new person accepts with a username and password: made, joined, and able to sign in; a bad one makes nobody", async () => {
    const { token } = await readJson(await invite("viewer"));
    const bad = await api.request("POST", `/invites/${token}/accept`, { json: { username: "has space", password: "a long passphrase" } });
    expect(bad.status).toBe(400);
    const joined = await api.request("POST", `/invites/${token}/accept`, { json: { username: "Uma", password: "another passphrase" } });
    expect([joined.status, await readJson(joined)]).toEqual([200, { workspace, role: "viewer" }]);
    const signIn = await api.request("POST", "/login", { json: { username: "uma", password: "another passphrase" } });
    expect(signIn.status).toBe(200);
  });

  test("an invite that does not hold makes no account; a member already keeps it for someone else; expired is a 404", async () => {
    const made = await api.request("POST", `/invites/lgi_${"B".repeat(43)}/accept`, { json: { username: "vera", password: "a long passphrase" } });
    expect(made.status).toBe(404);
    expect(await api.db.people.findByUsername("vera")).toBeNull();
    expect((await api.request("POST", "/invites/not-a-token/accept", { json: {} })).status).toBe(404);

    const { token } = await readJson(await invite("viewer"));
    const member = await api.request("POST", `/invites/${token}/accept`, { headers: as("rosa") });
    expect([member.status, (await readJson(member)).error.code]).toEqual([409, "conflict"]);
    now = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000);
    try {
      // (A week on, every sign-in of the test has expired: a new person's username and password it is.)
      const late = await api.request("POST", `/invites/${token}/accept`, { json: { username: "wes", password: "a long passphrase" } });
      expect(late.status).toBe(404);
      expect(await api.db.people.findByUsername("wes")).toBeNull();
    } finally {
      now = new Date("2026-12-06T12:00:00.000Z");
    }
  });

  test("an owner removed or made a viewer takes back the invites they made: none brings them or anyone back as an owner", async () => {
    const own = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Takeover" }, headers: as("rosa") }))).id;
    const samId = async () =>
      (await readJson(await members(as("rosa"), own))).results.find((member: { username: string }) => member.username === "sam")?.id as number;
    const joinAsOwner = async () => {
      const { token } = await readJson(await invite("owner", "rosa", own));
      expect((await api.request("POST", `/invites/${token}/accept`, { headers: as("sam") })).status).toBe(200);
    };
    const stash = async () => (await readJson(await invite("owner", "sam", own))).token as string;
    const accept = (token: string, body: { headers?: Record<string, string>; json?: unknown }) => api.request("POST", `/invites/${token}/accept`, body);

    await joinAsOwner();
    const removedOwners = await stash();
    expect((await api.request("DELETE", `/workspaces/${own}/members/${await samId()}`, { headers: as("rosa") })).status).toBe(204);
    const back = await accept(removedOwners, { headers: as("sam") });
    expect([back.status, (await readJson(back)).error.code]).toEqual([404, "not_found"]);
    expect((await accept(removedOwners, { json: { username: "sam-again", password: "a long passphrase" } })).status).toBe(404);
    expect(await api.db.people.findByUsername("sam-again")).toBeNull();

    await joinAsOwner();
    const demotedOwners = await stash();
    expect((await api.request("PATCH", `/workspaces/${own}/members/${await samId()}`, { json: { role: "viewer" }, headers: as("rosa") })).status).toBe(200);
    expect((await accept(demotedOwners, { json: { username: "sam-sock", password: "a long passphrase" } })).status).toBe(404);
    expect(await api.db.people.findByUsername("sam-sock")).toBeNull();
    expect(
      (await readJson(await members(as("rosa"), own))).results.map((member: { username: string; role: string }) => `${member.username} ${member.role}`),
    ).toEqual(["rosa owner", "sam viewer"]);
  });

  test("owners list the invites that still hold, never their tokens, and withdraw one: its link is then a 404", async () => {
    const own = (await readJson(await api.request("POST", "/workspaces", { json: { name: "Pending" }, headers: as("rosa") }))).id;
    const made = await readJson(await invite("editor", "rosa", own));
    expect(made.id).toMatch(/^[0-9a-f]{16}$/);
    const list = (who: Record<string, string>) => api.request("GET", `/workspaces/${own}/invites`, { headers: who });
    const listed = await list(as("rosa"));
    expect([listed.status, await readJson(listed)]).toEqual([
      200,
      {
        results: [
          { id: made.id, role: "editor", made_by: { id: expect.any(Number), username: "rosa" }, created_at: expect.any(String), expires_at: made.expires_at },
        ],
      },
    ]);
    expect(JSON.stringify(await readJson(await list(as("rosa"))))).not.toContain(made.token);
    expect((await list(as("tess"))).status).toBe(404);
    expect((await list(admin())).status).toBe(403);

    const withdraw = (id: string, who = as("rosa"), workspaceId = own) => api.request("DELETE", `/workspaces/${workspaceId}/invites/${id}`, { headers: who });
    expect((await withdraw(made.id, as("tess"))).status).toBe(404);
    expect((await withdraw(made.id, as("rosa"), workspace)).status).toBe(404);
    for (const bad of ["0000000000000000", "not-an-id", made.token]) expect((await withdraw(bad)).status).toBe(404);
    expect((await withdraw(made.id)).status).toBe(204);
    expect((await withdraw(made.id)).status).toBe(404);
    expect((await readJson(await list(as("rosa")))).results).toEqual([]);
    const late = await api.request("POST", `/invites/${made.token}/accept`, { headers: as("sam") });
    expect([late.status, (await readJson(late)).error.code]).toEqual([404, "not_found"]);
    const [last] = (await readJson(await api.request("GET", `/workspaces/${own}/audit?limit=1`, { headers: as("rosa") }))).results;
    expect(last).toMatchObject({ action: "invite.revoke", target: made.id, actor: { kind: "person", id: "rosa" } });
  });

  test("one invite accepted by several newcomers at once makes one account, not one per request", async () => {
    const { token } = await readJson(await invite("viewer"));
    const names = ["race1", "race2", "race3", "race4"];
    const answers = await Promise.all(
      names.map((username) => api.request("POST", `/invites/${token}/accept`, { json: { username, password: "a long passphrase" } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404]);
    const made = (await Promise.all(names.map((username) => api.db.people.findByUsername(username)))).filter((person) => person !== null);
    expect(made).toHaveLength(1);
  });

  test("only an owner invites; a workspace someone is not in is a 404 to them, as one that does not exist", async () => {
    expect((await invite("viewer", "sam")).status).toBe(403);
    for (const [id, who] of [
      [workspace, "tess"],
      [999_999, "rosa"],
    ] as const) {
      const refused = await invite("viewer", who, id);
      const missing = await members(as(who), id);
      expect([refused.status, missing.status]).toEqual([404, 404]);
      expect((await readJson(refused)).error).toEqual((await readJson(missing)).error);
    }
    for (const path of ["/workspaces/0/members", "/workspaces/abc/members", "/workspaces/99999999999/members"]) {
      expect((await api.request("GET", path, { headers: as("rosa") })).status).toBe(404);
    }
    const wrongRole = await invite("admin");
    expect([wrongRole.status, (await readJson(wrongRole)).error.message]).toEqual([400, "role must be one of owner, editor, viewer"]);
    const byAdmin = await api.request("POST", `/workspaces/${workspace}/invites`, { json: { role: "viewer" }, headers: admin() });
    expect(byAdmin.status).toBe(403);
    expect((await api.request("GET", `/workspaces/${workspace}/members`)).status).toBe(401);
  });

  test("owners change a member's role and remove members; the last owner stays one; others may not", async () => {
    const { token } = await readJson(await invite("viewer"));
    await api.request("POST", `/invites/${token}/accept`, { headers: as("tess") });
    const ids = Object.fromEntries(
      (await readJson(await members(as("rosa")))).results.map((member: { id: number; username: string }) => [member.username, member.id]),
    );
    const change = (who: string, person: number, role: unknown) =>
      api.request("PATCH", `/workspaces/${workspace}/members/${person}`, { json: { role }, headers: as(who) });
    const remove = (who: string, person: number) => api.request("DELETE", `/workspaces/${workspace}/members/${person}`, { headers: as(who) });

    expect((await change("tess", ids.sam, "viewer")).status).toBe(403);
    const promoted = await change("rosa", ids.tess, "editor");
    expect([promoted.status, await readJson(promoted)]).toEqual([200, { id: ids.tess, username: "tess", role: "editor", joined_at: expect.any(String) }]);
    for (const role of [null, "admin", 3]) expect((await change("rosa", ids.tess, role)).status).toBe(400);

    const lastOwner = await change("rosa", ids.rosa, "editor");
    expect([lastOwner.status, (await readJson(lastOwner)).error.message]).toEqual([
      409,
      "a workspace keeps at least one owner: make another member an owner first",
    ]);
    expect((await remove("rosa", ids.rosa)).status).toBe(409);

    expect((await remove("rosa", ids.tess)).status).toBe(204);
    expect((await remove("rosa", ids.tess)).status).toBe(404);
    // Removed: the workspace is no longer tess's to see, at once.
    expect((await members(as("tess"))).status).toBe(404);
    expect((await readJson(await api.request("GET", "/workspaces", { headers: as("tess") }))).results).toEqual([]);

    // Another owner, then the first may step down.
    expect((await change("rosa", ids.sam, "owner")).status).toBe(200);
    expect((await change("rosa", ids.rosa, "editor")).status).toBe(200);
    expect((await change("rosa", ids.sam, "viewer")).status).toBe(403);
    expect((await remove("sam", 999_999)).status).toBe(404);
  });
});
