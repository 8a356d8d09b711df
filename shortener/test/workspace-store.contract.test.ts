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

  test("a workspace is made with its maker as owner; each person lists their own, oldest first; all() every one", async () => {
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
    const all = await db.workspaces.all();
    expect(all.map((workspace) => workspace.name)).toEqual(["Marketing", "Sales", "Hugo's"]);
    expect(all[0]).toEqual({ id: first!.id, name: "Marketing", createdAt: t0 });
  });

  test("a workspace for a person who does not exist is not made at all: no workspace without its owner", async () => {
    const before = (await db.workspaces.all()).length;
    expect(await db.workspaces.create({ name: "Orphan", createdAt: t0 }, 999_999)).toBeNull();
    expect(await db.workspaces.all()).toHaveLength(before);
  });
});
