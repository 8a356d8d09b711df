import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminSession } from "../src/auth/admin-session-store.ts";
import type { Database } from "../src/storage/open-database.ts";
import { storeEngines } from "./support/store-engines.ts";

const t0 = new Date("2026-11-22T07:00:00.000Z");
const hour = 3_600_000;
const at = (hours: number) => new Date(t0.getTime() + hours * hour);

describe.each(storeEngines)("admin session store on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let seq = 0;
  // Each test works on its own sessions, so tests do not depend on one another.
  const session = (overrides: Partial<AdminSession> = {}): AdminSession => ({
    idHash: `hash-${++seq}`,
    username: "alice",
    createdAt: t0,
    expiresAt: at(12),
    ...overrides,
  });

  beforeAll(async () => {
    ({ db, cleanup } = await open());
    await db.admins.insert({ username: "alice", passwordHash: "$argon2id$x", createdAt: t0 });
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("finds a stored session until it expires", async () => {
    const stored = session();
    expect(await db.sessions.insert(stored)).toBe(true);
    expect(await db.sessions.findLive([stored.idHash], at(11.99))).toEqual([stored]);
    expect(await db.sessions.findLive([stored.idHash], at(12))).toEqual([]);
  });

  test("finds the live ones among several id hashes in one call, and none for none", async () => {
    const [first, second, expired] = [session(), session(), session({ expiresAt: at(1) })];
    for (const stored of [first, second, expired]) await db.sessions.insert(stored);
    const found = await db.sessions.findLive([first.idHash, "hash-never-stored", expired.idHash, second.idHash], at(2));
    expect(found.sort((a, b) => a.idHash.localeCompare(b.idHash))).toEqual([first, second].sort((a, b) => a.idHash.localeCompare(b.idHash)));
    expect(await db.sessions.findLive([], t0)).toEqual([]);
  });

  test("finds nothing for an unknown id hash", async () => {
    expect(await db.sessions.findLive(["hash-never-stored"], t0)).toEqual([]);
  });

  test("stores nothing for an admin that does not exist", async () => {
    const stray = session({ username: "nobody" });
    expect(await db.sessions.insert(stray)).toBe(false);
    expect(await db.sessions.findLive([stray.idHash], t0)).toEqual([]);
  });

  test("deletes a session once", async () => {
    const stored = session();
    await db.sessions.insert(stored);
    expect(await db.sessions.delete(stored.idHash)).toBe(true);
    expect(await db.sessions.delete(stored.idHash)).toBe(false);
    expect(await db.sessions.findLive([stored.idHash], t0)).toEqual([]);
  });

  test("deletes the sessions expired by then, and only those", async () => {
    const farFuture = at(10_000);
    const [expired, live] = [session({ expiresAt: at(9_000) }), session({ expiresAt: at(20_000) })];
    await db.sessions.insert(expired);
    await db.sessions.insert(live);
    // Every session of the earlier tests has expired by then too.
    expect(await db.sessions.deleteExpired(farFuture)).toBeGreaterThanOrEqual(1);
    expect(await db.sessions.deleteExpired(farFuture)).toBe(0);
    expect(await db.sessions.findLive([expired.idHash], t0)).toEqual([]);
    expect(await db.sessions.findLive([live.idHash], t0)).toEqual([live]);
  });
});
