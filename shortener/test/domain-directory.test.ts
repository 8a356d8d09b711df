import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { silentLogger } from "@linkgeo/shared";
import { waitFor } from "@linkgeo/testing";
import { DomainDirectory } from "../src/domains/domain-directory.ts";
import { openDatabase, type Database } from "../src/storage/open-database.ts";

const unset = { rootUrl: null, notFoundUrl: null, expiredUrl: null, redirectStatus: null };

describe("DomainDirectory", () => {
  let db: Database;
  let clock = 0;
  const replica = (overrides: Partial<ConstructorParameters<typeof DomainDirectory>[0]> = {}) =>
    new DomainDirectory({ store: db.domains, unknownHosts: "default", log: silentLogger, now: () => clock, ...overrides });
  beforeAll(async () => {
    db = await openDatabase({ engine: "sqlite", path: ":memory:" });
  });
  afterAll(() => db.close());

  test("reads the domains once, serves them without a read per request, and sees another replica's change once they are a second old", async () => {
    let reads = 0;
    const list = () => {
      reads++;
      return db.domains.list();
    };
    const directory = replica({ store: { list } });
    const first = await directory.current();
    expect(first.withHost("late.test")).toBeUndefined();
    await db.domains.insert({ ...unset, host: "late.test", createdAt: new Date() });
    for (let i = 0; i < 100; i++) await directory.current();
    expect(reads).toBe(1);

    clock += 1_000;
    // The stale answer at once; the new one once the read in the background is done.
    expect((await directory.current()).withHost("late.test")).toBeUndefined();
    await waitFor("the read in the background", async () => (await directory.current()).withHost("late.test") !== undefined);
    expect(reads).toBe(2);
  });

  test("a change on this replica is seen by its next call", async () => {
    const directory = replica();
    await directory.current();
    await db.domains.insert({ ...unset, host: "mine.test", createdAt: new Date() });
    directory.changed();
    expect((await directory.current()).withHost("mine.test")).toMatchObject({ host: "mine.test" });
  });

  test("a read that fails keeps the last domains read; only the first read's failure is the caller's", async () => {
    let failing = false;
    let failed = 0;
    const list = () => {
      if (!failing) return db.domains.list();
      failed++;
      return Promise.reject(new Error("database down"));
    };
    const store = { list };
    const directory = replica({ store });
    const before = await directory.current();
    failing = true;
    clock += 5_000;
    expect(await directory.current()).toBe(before);
    await waitFor("the read in the background to fail", () => failed > 0);
    expect(await directory.current()).toBe(before);

    const cold = replica({ store });
    await expect(cold.current()).rejects.toThrow("database down");
  });

  test("resolves a host: an added domain's, the default one's, and any other by UNKNOWN_HOSTS", async () => {
    await db.domains.insert({ ...unset, host: "brand.test", createdAt: new Date() });
    const lenient = replica({ publicHost: "sho.rt" });
    const strict = replica({ publicHost: "sho.rt", unknownHosts: "404" });
    const domains = await lenient.current();
    expect(lenient.resolve(domains, "brand.test")?.host).toBe("brand.test");
    expect(lenient.resolve(domains, "other.test")?.id).toBe(0);
    expect(strict.resolve(domains, "other.test")).toBeUndefined();
    expect(strict.resolve(domains, undefined)).toBeUndefined();
    expect(strict.resolve(domains, "sho.rt")?.id).toBe(0);
    expect(lenient.named(domains, "Brand.Test.", undefined)?.host).toBe("brand.test");
    expect(lenient.named(domains, "sho.rt:443", undefined)?.id).toBe(0);
    expect(lenient.named(domains, "other.test", undefined)).toBeUndefined();
    expect(lenient.named(domains, "a/b", undefined)).toBeUndefined();
  });
});
