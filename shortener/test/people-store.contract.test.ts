import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../src/storage/open-database.ts";
import { storeEngines } from "./support/store-engines.ts";

const t0 = new Date("2026-12-06T12:00:00.000Z");

/** People's accounts written and read back through the PeopleStore, on every engine. */
describe.each(storeEngines)("people store on $engine", ({ open }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  test("adds a person once per username, numbered from 1 upwards, and finds them by username", async () => {
    const first = await db.people.insert({ username: "alice", passwordHash: "hash-a", createdAt: t0 });
    const second = await db.people.insert({ username: "bob", passwordHash: "hash-b", createdAt: t0 });
    expect(first).toEqual({ id: expect.any(Number), username: "alice", passwordHash: "hash-a", createdAt: t0 });
    expect(first!.id).toBeGreaterThanOrEqual(1);
    expect(second!.id).toBeGreaterThan(first!.id);

    expect(await db.people.insert({ username: "alice", passwordHash: "another", createdAt: t0 })).toBeNull();
    expect(await db.people.findByUsername("alice")).toEqual(first);
    expect(await db.people.findByUsername("carol")).toBeNull();
    // The store compares as written: lower case is the rules' business (People), and a username in another case is another row here.
    expect(await db.people.findByUsername("ALICE")).toBeNull();
  });

  test("a sign-in is found while it lives and its person exists, with the username; it ends when deleted, expired or swept", async () => {
    const person = (await db.people.insert({ username: "erin", passwordHash: "hash-e", createdAt: t0 }))!;
    const expires = new Date(t0.getTime() + 60_000);
    const session = { idHash: "a".repeat(64), personId: person.id, createdAt: t0, expiresAt: expires };
    expect(await db.people.insertSession(session)).toBe(true);
    expect(await db.people.insertSession({ ...session, idHash: "b".repeat(64) })).toBe(true);
    expect(await db.people.findLiveSession("a".repeat(64), t0)).toEqual({ ...session, username: "erin" });
    // Expired at its instant, not after it.
    expect(await db.people.findLiveSession("a".repeat(64), expires)).toBeNull();
    expect(await db.people.findLiveSession("c".repeat(64), t0)).toBeNull();

    expect(await db.people.deleteSession("a".repeat(64))).toBe(true);
    expect(await db.people.deleteSession("a".repeat(64))).toBe(false);
    expect(await db.people.findLiveSession("a".repeat(64), t0)).toBeNull();
    expect(await db.people.deleteExpiredSessions(t0)).toBe(0);
    expect(await db.people.deleteExpiredSessions(expires)).toBeGreaterThanOrEqual(1);
    expect(await db.people.findLiveSession("b".repeat(64), t0)).toBeNull();
  });

  test("a sign-in for a person that does not exist is not stored, and no foreign key breaks", async () => {
    expect(await db.people.insertSession({ idHash: "d".repeat(64), personId: 999_999, createdAt: t0, expiresAt: new Date(t0.getTime() + 60_000) })).toBe(false);
    expect(await db.people.findLiveSession("d".repeat(64), t0)).toBeNull();
  });

  test("writes at once for one username: exactly one is stored, the others are told it is taken", async () => {
    const tries = await Promise.all(Array.from({ length: 8 }, (_, i) => db.people.insert({ username: "racer", passwordHash: `hash-${i}`, createdAt: t0 })));
    expect(tries.filter((person) => person !== null)).toHaveLength(1);
    expect((await db.people.findByUsername("racer"))?.passwordHash).toBe(tries.find((person) => person !== null)!.passwordHash);
  });
});
