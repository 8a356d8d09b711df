import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { defaultDomainId, type NewDomain } from "../src/domains/domain.ts";
import type { Database } from "../src/storage/open-database.ts";
import { storeEngines } from "./support/store-engines.ts";

const t0 = new Date("2026-12-06T12:00:00.000Z");
const unset = { rootUrl: null, notFoundUrl: null, expiredUrl: null, redirectStatus: null };
const domain = (host: string, overrides: Partial<NewDomain> = {}): NewDomain => ({ ...unset, host, createdAt: t0, ...overrides });

describe.each(storeEngines)("domain store on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("the migration made the default domain: id 0, no host, nothing set", async () => {
    const [first] = await db.domains.list();
    expect(first).toMatchObject({ id: defaultDomainId, host: null, ...unset });
    expect(first!.createdAt).toBeInstanceOf(Date);
  });

  test("adds a domain once per host, lists the default one first and then by host, and numbers them from 1", async () => {
    const second = await db.domains.insert(domain("z.brand.test", { redirectStatus: 301, notFoundUrl: "https://brand.test/404" }));
    const first = await db.domains.insert(domain("a.brand.test"));
    expect(second).toEqual({
      id: expect.any(Number),
      host: "z.brand.test",
      ...unset,
      redirectStatus: 301,
      notFoundUrl: "https://brand.test/404",
      createdAt: t0,
      workspaces: [],
    });
    expect(first!.id).toBeGreaterThan(second!.id);
    expect(second!.id).toBeGreaterThanOrEqual(1);
    expect(await db.domains.insert(domain("a.brand.test"))).toBeNull();
    expect((await db.domains.list()).map((d) => d.host)).toEqual([null, "a.brand.test", "z.brand.test"]);
  });

  test("changes what an update names and keeps the rest; a host another domain has is refused, an unknown id is not found", async () => {
    const made = (await db.domains.insert(domain("change.brand.test", { expiredUrl: "https://brand.test/gone" })))!;
    await db.domains.insert(domain("other.brand.test"));
    expect(await db.domains.update(made.id, { rootUrl: "https://brand.test/", redirectStatus: 308 })).toEqual({
      ...made,
      rootUrl: "https://brand.test/",
      redirectStatus: 308,
    });
    expect(await db.domains.update(made.id, { host: "other.brand.test" })).toBe("host taken");
    expect(await db.domains.update(made.id, { host: "moved.brand.test", expiredUrl: null })).toMatchObject({ host: "moved.brand.test", expiredUrl: null });
    expect(await db.domains.update(made.id, {})).toMatchObject({ host: "moved.brand.test" });
    expect(await db.domains.update(999_999, { rootUrl: null })).toBe("not found");
    expect(await db.domains.update(999_999, {})).toBe("not found");
  });

  test("the default domain's settings change like any other's, but it is never deleted", async () => {
    expect(await db.domains.update(defaultDomainId, { notFoundUrl: "https://example.com/404" })).toMatchObject({
      id: 0,
      host: null,
      notFoundUrl: "https://example.com/404",
    });
    expect(await db.domains.delete(defaultDomainId)).toBe(false);
    expect((await db.domains.list())[0]).toMatchObject({ id: 0, notFoundUrl: "https://example.com/404" });
  });

  test("deletes a domain once, and its id is never given again", async () => {
    const gone = (await db.domains.insert(domain("gone.brand.test")))!;
    expect(await db.domains.delete(gone.id)).toBe(true);
    expect(await db.domains.delete(gone.id)).toBe(false);
    const next = (await db.domains.insert(domain("gone.brand.test")))!;
    expect(next.id).toBeGreaterThan(gone.id);
  });

  test("grants a domain to workspaces, replaces and clears its grants, and a grant goes with its workspace's domain", async () => {
    const owner = (await db.people.insert({ username: "grant-owner", passwordHash: "x", createdAt: t0 }))!;
    const first = (await db.workspaces.create({ name: "First", createdAt: t0 }, owner.id))!;
    const second = (await db.workspaces.create({ name: "Second", createdAt: t0 }, owner.id))!;
    const made = (await db.domains.insert(domain("granted.brand.test")))!;
    expect(await db.domains.update(made.id, { workspaces: [second.id, first.id] })).toMatchObject({
      host: "granted.brand.test",
      workspaces: [first.id, second.id],
    });
    expect((await db.domains.list()).find((d) => d.id === made.id)!.workspaces).toEqual([first.id, second.id]);
    expect(await db.domains.update(made.id, { redirectStatus: 307 })).toMatchObject({ redirectStatus: 307, workspaces: [first.id, second.id] });
    expect(await db.domains.update(made.id, { workspaces: [second.id] })).toMatchObject({ workspaces: [second.id] });
    expect(await db.domains.update(made.id, { workspaces: [] })).toMatchObject({ workspaces: [] });
    expect(await db.domains.update(999_999, { workspaces: [first.id] })).toBe("not found");
    await db.domains.update(made.id, { workspaces: [first.id] });
    expect(await db.domains.delete(made.id)).toBe(true);
    const again = (await db.domains.insert(domain("granted.brand.test")))!;
    expect(again.workspaces).toEqual([]);
  });
});
