import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../src/storage/open-database.ts";
import { storeEngines } from "./support/store-engines.ts";

const t0 = new Date("2026-12-06T12:00:00.000Z");
const t1 = new Date("2026-12-06T13:00:00.000Z");

/** Workspaces and their members, written and read back through the WorkspaceStore, on every engine. */
describe.each(storeEngines)("workspace store on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("a workspace is made with its maker as owner; each person lists their own, oldest first; page() every one, a page at a time", async () => {
    const gina = (await db.people.insert({ username: "gina", passwordHash: "h", createdAt: t0 }))!;
    const hugo = (await db.people.insert({ username: "hugo", passwordHash: "h", createdAt: t0 }))!;
    const first = await db.workspaces.create({ name: "Marketing", createdAt: t0 }, gina.id);
    const second = await db.workspaces.create({ name: "Sales", createdAt: t1 }, gina.id);
    const other = await db.workspaces.create({ name: "Hugo's", createdAt: t1 }, hugo.id);
    expect(first).toEqual({ id: expect.any(Number), name: "Marketing", createdAt: t0, role: "owner" });
    expect(second!.id).toBeGreaterThan(first!.id);

    expect(await db.workspaces.ofPerson(gina.id)).toEqual([first!, second!]);
    expect(await db.workspaces.ofPerson(hugo.id)).toEqual([other!]);
    expect(await db.workspaces.ofPerson(999_999)).toEqual([]);
    const all = await db.workspaces.page(0, 100);
    expect(all.map((workspace) => workspace.name)).toEqual(["Marketing", "Sales", "Hugo's"]);
    expect(all[0]).toEqual({ id: first!.id, name: "Marketing", createdAt: t0 });
    expect((await db.workspaces.page(0, 2)).map((workspace) => workspace.name)).toEqual(["Marketing", "Sales"]);
    expect((await db.workspaces.page(second!.id, 2)).map((workspace) => workspace.name)).toEqual(["Hugo's"]);
    expect(await db.workspaces.page(other!.id, 2)).toEqual([]);
  });

  test("a workspace for a person who does not exist is not made at all: no workspace without its owner", async () => {
    const before = (await db.workspaces.page(0, 1000)).length;
    expect(await db.workspaces.create({ name: "Orphan", createdAt: t0 }, 999_999)).toBeNull();
    expect(await db.workspaces.page(0, 1000)).toHaveLength(before);
  });
});

/** A workspace's members and invites, on every engine. */
describe.each(storeEngines)("workspace members and invites on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });
  const week = (from: Date) => new Date(from.getTime() + 7 * 24 * 60 * 60 * 1000);

  test("an accepted invite adds its person with its role and is used up; the members list says who and how", async () => {
    const owner = (await db.people.insert({ username: "olga", passwordHash: "h", createdAt: t0 }))!;
    const guest = (await db.people.insert({ username: "pia", passwordHash: "h", createdAt: t0 }))!;
    const workspace = (await db.workspaces.create({ name: "Ops", createdAt: t0 }, owner.id))!;
    expect(await db.workspaces.find(workspace.id)).toEqual({ id: workspace.id, name: "Ops", createdAt: t0 });
    expect(await db.workspaces.find(999_999)).toBeNull();
    const invite = { idHash: "e".repeat(64), workspaceId: workspace.id, role: "editor" as const, createdAt: t0, expiresAt: week(t0), madeBy: owner.id };
    expect(await db.workspaces.insertInvite(invite)).toBe(true);
    expect(await db.workspaces.insertInvite({ ...invite, idHash: "f".repeat(64), workspaceId: 999_999 })).toBe(false);
    expect(await db.workspaces.findLiveInvite("e".repeat(64), t1)).toEqual(invite);

    expect(await db.workspaces.accept("e".repeat(64), { personId: guest.id }, t1)).toEqual({
      workspace: { id: workspace.id, name: "Ops", createdAt: t0 },
      role: "editor",
      person: { id: guest.id, username: "pia" },
    });
    expect(await db.workspaces.accept("e".repeat(64), { personId: guest.id }, t1)).toBe("unknown");
    expect(await db.workspaces.roleOf(workspace.id, guest.id)).toBe("editor");
    expect(await db.workspaces.roleOf(workspace.id, 999_999)).toBeNull();
    expect(await db.workspaces.members(workspace.id)).toEqual([
      { personId: owner.id, username: "olga", role: "owner", joinedAt: t0 },
      { personId: guest.id, username: "pia", role: "editor", joinedAt: t1 },
    ]);
  });

  test("an invite is refused once expired and swept; a member already keeps it unused; one invite at once joins one person", async () => {
    const owner = (await db.people.insert({ username: "quinn", passwordHash: "h", createdAt: t0 }))!;
    const workspace = (await db.workspaces.create({ name: "Race", createdAt: t0 }, owner.id))!;
    const invite = { idHash: "1".repeat(64), workspaceId: workspace.id, role: "viewer" as const, createdAt: t0, expiresAt: t1, madeBy: owner.id };
    await db.workspaces.insertInvite(invite);
    expect(await db.workspaces.accept("1".repeat(64), { personId: owner.id }, t0)).toBe("member");
    expect(await db.workspaces.findLiveInvite("1".repeat(64), t0)).not.toBeNull();
    expect(await db.workspaces.accept("1".repeat(64), { personId: owner.id }, t1)).toBe("unknown");
    expect(await db.workspaces.deleteExpiredInvites(t1)).toBeGreaterThanOrEqual(1);
    expect(await db.workspaces.findLiveInvite("1".repeat(64), t0)).toBeNull();

    const racers = await Promise.all(["r1", "r2", "r3", "r4"].map((username) => db.people.insert({ username, passwordHash: "h", createdAt: t0 })));
    await db.workspaces.insertInvite({ ...invite, idHash: "2".repeat(64), expiresAt: week(t0) });
    const outcomes = await Promise.all(racers.map((person) => db.workspaces.accept("2".repeat(64), { personId: person!.id }, t0)));
    expect(outcomes.filter((outcome) => typeof outcome === "object")).toHaveLength(1);
    expect(await db.workspaces.members(workspace.id)).toHaveLength(2);
  });

  test("an invite holds only while its maker is an owner there: removed, made a viewer or deleted, they take it back", async () => {
    const [owner, other, guest] = await Promise.all(["vera", "wim", "xia"].map((username) => db.people.insert({ username, passwordHash: "h", createdAt: t0 })));
    const workspace = (await db.workspaces.create({ name: "Makers", createdAt: t0 }, owner!.id))!;
    const inviteBy = async (hashDigit: string, madeBy: number, role: "owner" | "viewer" = "owner") => {
      expect(
        await db.workspaces.insertInvite({ idHash: hashDigit.repeat(64), workspaceId: workspace.id, role, createdAt: t0, expiresAt: week(t0), madeBy }),
      ).toBe(true);
      return hashDigit.repeat(64);
    };
    const toOther = await inviteBy("5", owner!.id);
    await db.workspaces.accept(toOther, { personId: other!.id }, t1);
    // The second owner makes an invite, then is made a viewer: it no longer holds; made an owner again, it does.
    const stashed = await inviteBy("6", other!.id);
    expect(await db.workspaces.changeMember(workspace.id, other!.id, "viewer")).toMatchObject({ role: "viewer" });
    expect(await db.workspaces.findLiveInvite(stashed, t1)).toBeNull();
    expect(await db.workspaces.accept(stashed, { personId: guest!.id }, t1)).toBe("unknown");
    expect(await db.workspaces.roleOf(workspace.id, guest!.id)).toBeNull();
    await db.workspaces.changeMember(workspace.id, other!.id, "owner");
    expect(await db.workspaces.findLiveInvite(stashed, t1)).toMatchObject({ madeBy: other!.id });
    // Removed, they take it back, and cannot come back through it themselves.
    expect(await db.workspaces.changeMember(workspace.id, other!.id, null)).toBeNull();
    expect(await db.workspaces.accept(stashed, { personId: other!.id }, t1)).toBe("unknown");
    expect(await db.workspaces.accept(stashed, { newPerson: { username: "wim-again", passwordHash: "h", createdAt: t1 } }, t1)).toBe("unknown");
    expect(await db.people.findByUsername("wim-again")).toBeNull();
    // Deleted, the invites they made go with them.
    const another = await inviteBy("7", owner!.id, "viewer");
    await db.workspaces.accept(another, { personId: other!.id }, t1);
    await db.workspaces.changeMember(workspace.id, other!.id, "owner");
    const lastStash = await inviteBy("8", other!.id);
    expect(await db.people.delete(other!.id)).toEqual({ deleted: "wim" });
    expect(await db.workspaces.findLiveInvite(lastStash, t1)).toBeNull();
    // Gone, not only no longer live: deleting it by its id finds nothing.
    expect(await db.workspaces.deleteInvite(workspace.id, lastStash.slice(0, 16))).toBe(false);
  });

  test("a workspace's live invites are listed with their makers, and one is deleted by its id in its own workspace only", async () => {
    const [owner, second] = await Promise.all(["ada", "bea"].map((username) => db.people.insert({ username, passwordHash: "h", createdAt: t0 })));
    const workspace = (await db.workspaces.create({ name: "Listed", createdAt: t0 }, owner!.id))!;
    const other = (await db.workspaces.create({ name: "Other", createdAt: t0 }, second!.id))!;
    const invite = (digit: string, workspaceId: number, madeBy: number, createdAt = t0, expiresAt = week(t0)) =>
      db.workspaces.insertInvite({ idHash: `${digit.repeat(16)}${"0".repeat(48)}`, workspaceId, role: "viewer", createdAt, expiresAt, madeBy });
    await invite("a", workspace.id, owner!.id);
    await invite("b", workspace.id, owner!.id, t1);
    await invite("c", workspace.id, owner!.id, t0, t1);
    await invite("d", other.id, second!.id);
    const listed = await db.workspaces.liveInvites(workspace.id, t1);
    expect(listed.map((one) => [one.idHash.slice(0, 16), one.madeBy, one.madeByUsername])).toEqual([
      ["a".repeat(16), owner!.id, "ada"],
      ["b".repeat(16), owner!.id, "ada"],
    ]);
    expect(await db.workspaces.deleteInvite(workspace.id, "d".repeat(16))).toBe(false);
    expect(await db.workspaces.deleteInvite(workspace.id, "a".repeat(16))).toBe(true);
    expect(await db.workspaces.deleteInvite(workspace.id, "a".repeat(16))).toBe(false);
    expect((await db.workspaces.liveInvites(workspace.id, t1)).map((one) => one.idHash[0])).toEqual(["b"]);
    expect(await db.workspaces.liveInvites(other.id, t1)).toHaveLength(1);
  });

  test("an invite accepted while its maker's role changes: one waits for the other, neither fails (no deadlock)", async () => {
    const [owner, maker] = await Promise.all(["cyd", "dov"].map((username) => db.people.insert({ username, passwordHash: "h", createdAt: t0 })));
    const workspace = (await db.workspaces.create({ name: "Busy", createdAt: t0 }, owner!.id))!;
    await db.workspaces.insertInvite({
      idHash: "e1".repeat(32),
      workspaceId: workspace.id,
      role: "owner",
      createdAt: t0,
      expiresAt: week(t0),
      madeBy: owner!.id,
    });
    await db.workspaces.accept("e1".repeat(32), { personId: maker!.id }, t1);
    for (let round = 0; round < 10; round++) {
      await db.workspaces.changeMember(workspace.id, maker!.id, "owner");
      const idHash = `${round}`.padStart(64, "f");
      await db.workspaces.insertInvite({ idHash, workspaceId: workspace.id, role: "viewer", createdAt: t0, expiresAt: week(t0), madeBy: maker!.id });
      const joiner =
        round % 2 === 0
          ? { newPerson: { username: `busy${round}`, passwordHash: "h", createdAt: t1 } }
          : { personId: (await db.people.insert({ username: `busy${round}`, passwordHash: "h", createdAt: t0 }))!.id };
      const outcomes = await Promise.allSettled([db.workspaces.accept(idHash, joiner, t1), db.workspaces.changeMember(workspace.id, maker!.id, "editor")]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
    }
  });

  test("someone new accepting makes their account in the same step: one account for one invite raced, none for a taken username", async () => {
    const owner = (await db.people.insert({ username: "yara", passwordHash: "h", createdAt: t0 }))!;
    const workspace = (await db.workspaces.create({ name: "Newcomers", createdAt: t0 }, owner.id))!;
    const invite = { idHash: "9".repeat(64), workspaceId: workspace.id, role: "viewer" as const, createdAt: t0, expiresAt: week(t0), madeBy: owner.id };
    await db.workspaces.insertInvite(invite);
    expect(await db.workspaces.accept(invite.idHash, { newPerson: { username: "yara", passwordHash: "h2", createdAt: t1 } }, t1)).toBe("username taken");
    expect(await db.workspaces.findLiveInvite(invite.idHash, t1)).not.toBeNull();

    const names = ["zed1", "zed2", "zed3", "zed4"];
    const outcomes = await Promise.all(
      names.map((username) => db.workspaces.accept(invite.idHash, { newPerson: { username, passwordHash: "h", createdAt: t1 } }, t1)),
    );
    const joined = outcomes.filter((outcome) => typeof outcome === "object");
    expect(joined).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "unknown")).toHaveLength(names.length - 1);
    const made = (await Promise.all(names.map((username) => db.people.findByUsername(username)))).filter((person) => person !== null);
    expect(made.map((person) => person.username)).toEqual([(joined[0] as { person: { username: string } }).person.username]);
    expect(await db.workspaces.roleOf(workspace.id, made[0]!.id)).toBe("viewer");
  });

  test("a member's role changes and a member goes, but a workspace keeps an owner, even when two owners step down at once", async () => {
    const [a, b, c] = await Promise.all(["sol", "teo", "ugo"].map((username) => db.people.insert({ username, passwordHash: "h", createdAt: t0 })));
    const workspace = (await db.workspaces.create({ name: "Owners", createdAt: t0 }, a!.id))!;
    expect(await db.workspaces.changeMember(workspace.id, b!.id, "editor")).toBe("not member");
    await db.workspaces.insertInvite({ idHash: "3".repeat(64), workspaceId: workspace.id, role: "owner", createdAt: t0, expiresAt: t1, madeBy: a!.id });
    await db.workspaces.accept("3".repeat(64), { personId: b!.id }, t0);
    await db.workspaces.insertInvite({ idHash: "4".repeat(64), workspaceId: workspace.id, role: "viewer", createdAt: t0, expiresAt: t1, madeBy: a!.id });
    await db.workspaces.accept("4".repeat(64), { personId: c!.id }, t0);

    expect(await db.workspaces.changeMember(workspace.id, c!.id, "editor")).toEqual({ personId: c!.id, username: "ugo", role: "editor", joinedAt: t0 });
    expect(await db.workspaces.changeMember(workspace.id, c!.id, null)).toBeNull();
    expect(await db.workspaces.roleOf(workspace.id, c!.id)).toBeNull();
    // Two owners stepping down at once: one does, the other is the last owner.
    const outcomes = await Promise.all([db.workspaces.changeMember(workspace.id, a!.id, "viewer"), db.workspaces.changeMember(workspace.id, b!.id, "viewer")]);
    expect(outcomes.filter((outcome) => outcome === "last owner")).toHaveLength(1);
    expect((await db.workspaces.members(workspace.id)).filter((member) => member.role === "owner")).toHaveLength(1);
    expect(await db.workspaces.changeMember(999_999, a!.id, "owner")).toBe("not member");
  });
});
