import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix } from "@linkgeo/testing";
import Redis from "ioredis";
import type { CachedAnswer, CacheLevel } from "../src/cache/cached-answer.ts";
import { MemoryCacheLevel } from "../src/cache/memory-cache-level.ts";
import { RedisCacheLevel } from "../src/cache/redis-cache-level.ts";
import { openCacheDatabase, SqliteCacheLevel } from "../src/cache/sqlite-cache-level.ts";

// One suite, every level: L1 on Redis or in memory, L2 on SQLite (a file as
// in production, and :memory:). How expiry is checked is the one difference:
// memory and SQLite read a clock the test moves; Redis keeps its own time, so
// the suite reads the expiry Redis reports (PTTL) instead of sleeping.

const prefix = uniqueRedisPrefix("geocoder-cache");
const redis = new Redis(testRedisUrl, { keyPrefix: prefix });
const folder = mkdtempSync(join(tmpdir(), "geocoder-cache-"));
const databases: Database[] = [];

afterAll(async () => {
  redis.disconnect();
  await deleteKeysWithPrefix(testRedisUrl, prefix);
  for (const db of databases) db.close();
  rmSync(folder, { recursive: true, force: true });
});

type Expiry = { kind: "clock"; advance(ms: number): void } | { kind: "redis"; pttl(key: string): Promise<number> };

interface Fixture {
  level: CacheLevel;
  expiry: Expiry;
}

function movableClock() {
  let now = Date.parse("2026-11-22T07:09:09.291Z");
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function sqliteFixture(db: Database): Fixture {
  databases.push(db);
  const clock = movableClock();
  return { level: new SqliteCacheLevel(db, { now: clock.now }), expiry: { kind: "clock", advance: clock.advance } };
}

const levels: Array<[string, () => Fixture]> = [
  ["redis", () => ({ level: new RedisCacheLevel(redis), expiry: { kind: "redis", pttl: (key) => redis.pttl(key) } })],
  [
    "memory",
    () => {
      const clock = movableClock();
      return { level: new MemoryCacheLevel({ now: clock.now }), expiry: { kind: "clock", advance: clock.advance } };
    },
  ],
  ["sqlite file", () => sqliteFixture(openCacheDatabase(join(folder, "contract", "cache.db")))],
  ["sqlite :memory:", () => sqliteFixture(new Database(":memory:"))],
];

const eiffel: CachedAnswer = {
  provider: "NOMINATIM",
  storedAt: 1_795_000_000_123,
  addresses: [
    {
      formatted_address: "Tour Eiffel, 5, Avenue Anatole France, 75007 Paris, France",
      postcode: "75007",
      country: "France",
      country_code: "FR",
      state: "Île-de-France",
      district: "Gros-Caillou",
      settlement: "Paris",
      street: "Avenue Anatole France",
      house: "5",
    },
  ],
};

// Nulls, scripts outside Latin-1, astral characters, combining marks, JSON's
// escapes and a control character: every one must come back unchanged.
const unusual: CachedAnswer = {
  provider: "HERE",
  storedAt: 0,
  addresses: [
    {
      formatted_address: '東京都千代田区千代田1-1 🗼 «Straße» "quoted" back\\slash tab\t nul\u0000 e\u0301 \u2028',
      postcode: null,
      country: "日本",
      country_code: "JP",
      state: null,
      district: null,
      settlement: "Chiyoda ﷺ مدينة",
      street: null,
      house: null,
    },
    {
      formatted_address: "Null Island",
      postcode: null,
      country: null,
      country_code: null,
      state: null,
      district: null,
      settlement: null,
      street: null,
      house: null,
    },
  ],
};

const nothingThere: CachedAnswer = { provider: "GEOAPIFY", storedAt: 1_795_000_000_000, addresses: [] };

describe.each(levels)("cache level on %s", (_, make) => {
  const { level, expiry } = make();
  let seq = 0;
  // Each test works on its own keys, so tests do not depend on one another.
  const key = (name: string) => `reverse:v1:test:${name}:${++seq}`;

  test("answers ping", async () => {
    await expect(level.ping()).resolves.toBeUndefined();
  });

  test("returns undefined for what it never saw, and what it was given", async () => {
    const k = key("get-set");
    expect(await level.get(k)).toBeUndefined();
    await level.set(k, eiffel, 3600);
    expect(await level.get(k)).toEqual(eiffel);
  });

  test("a second set replaces the first, with its own lifetime", async () => {
    const k = key("overwrite");
    await level.set(k, eiffel, 3600);
    await level.set(k, nothingThere, 60);
    expect(await level.get(k)).toEqual(nothingThere);
    if (expiry.kind === "clock") {
      expiry.advance(60_000);
      expect(await level.get(k)).toBeUndefined();
    } else {
      expect(await expiry.pttl(k)).toBeWithin(55_000, 60_001);
    }
  });

  test("getMany answers the keys it holds, in one call, and leaves out the rest, expired ones too", async () => {
    const [a, b, missing, short] = [key("many-a"), key("many-b"), key("many-missing"), key("many-short")];
    await level.set(a, eiffel, 3600);
    await level.set(b, nothingThere, 3600);
    await level.set(short, eiffel, 1);
    expect(await level.getMany([])).toEqual(new Map());
    if (expiry.kind === "clock") expiry.advance(1_000);
    else await level.set(short, eiffel, 0);
    // Asked twice and in any order: each key once in the answer.
    expect(await level.getMany([missing, b, a, short, a])).toEqual(
      new Map([
        [b, nothingThere],
        [a, eiffel],
      ]),
    );
    // Keys are data, never syntax: quotes and a JSON array in a key are just characters.
    const odd = key(`odd"],["x`);
    await level.set(odd, eiffel, 3600);
    expect(await level.getMany([odd])).toEqual(new Map([[odd, eiffel]]));
  });

  test("setMany keeps each entry for its own lifetime, and one of no lifetime drops what was there", async () => {
    const [a, b, gone] = [key("set-many-a"), key("set-many-b"), key("set-many-gone")];
    await level.set(gone, eiffel, 3600);
    await level.setMany([]);
    await level.setMany([
      { key: a, answer: eiffel, ttlSeconds: 60 },
      { key: b, answer: nothingThere, ttlSeconds: 3600 },
      { key: gone, answer: eiffel, ttlSeconds: 0 },
    ]);
    expect(await level.getMany([a, b, gone])).toEqual(
      new Map([
        [a, eiffel],
        [b, nothingThere],
      ]),
    );
    if (expiry.kind === "clock") {
      expiry.advance(60_000);
      expect(await level.getMany([a, b])).toEqual(new Map([[b, nothingThere]]));
    } else {
      expect(await expiry.pttl(a)).toBeWithin(55_000, 60_001);
      expect(await expiry.pttl(b)).toBeWithin(3_595_000, 3_600_001);
    }
  });

  test("keys are distinct", async () => {
    const [a, b] = [key("a"), key("b")];
    await level.set(a, eiffel, 3600);
    await level.set(b, nothingThere, 3600);
    expect([await level.get(a), await level.get(b)]).toEqual([eiffel, nothingThere]);
  });

  test("an entry lives exactly its TTL", async () => {
    const k = key("ttl");
    await level.set(k, eiffel, 90);
    expect(await level.get(k)).toEqual(eiffel);
    if (expiry.kind === "clock") {
      expiry.advance(89_999);
      expect(await level.get(k)).toEqual(eiffel);
      expiry.advance(1);
      expect(await level.get(k)).toBeUndefined();
    } else {
      // A few seconds of slack for a loaded machine between SET and PTTL.
      expect(await expiry.pttl(k)).toBeWithin(85_000, 90_001);
    }
  });

  test("a fractional TTL is kept to the millisecond, not rounded up to a second", async () => {
    const k = key("fraction");
    await level.set(k, eiffel, 1.5);
    if (expiry.kind === "clock") {
      expiry.advance(1_499);
      expect(await level.get(k)).toEqual(eiffel);
      expiry.advance(1);
      expect(await level.get(k)).toBeUndefined();
    } else {
      expect(await expiry.pttl(k)).toBeWithin(1, 1_501);
    }
  });

  test("a TTL of zero or less stores nothing and drops what was there", async () => {
    const k = key("zero");
    await level.set(k, eiffel, 3600);
    await level.set(k, nothingThere, 0);
    expect(await level.get(k)).toBeUndefined();
    await level.set(k, nothingThere, -5);
    expect(await level.get(k)).toBeUndefined();
  });

  test("values round-trip exactly: nulls, unicode, escapes, empty lists", async () => {
    const [k1, k2] = [key("unusual"), key("empty")];
    await level.set(k1, unusual, 3600);
    await level.set(k2, nothingThere, 3600);
    expect(await level.get(k1)).toEqual(unusual);
    expect(await level.get(k2)).toEqual(nothingThere);
  });

  test("changing a value after set or get does not change what is cached", async () => {
    const k = key("copy");
    const given = structuredClone(eiffel);
    await level.set(k, given, 3600);
    given.provider = "CHANGED";
    const got = await level.get(k);
    got?.addresses.pop();
    expect(await level.get(k)).toEqual(eiffel);
  });
});

describe("memory cache level", () => {
  test("stays within its bound, the oldest written out first", async () => {
    const level = new MemoryCacheLevel({ maxEntries: 2 });
    await level.set("x", eiffel, 3600);
    await level.set("y", eiffel, 3600);
    await level.set("x", nothingThere, 3600); // rewriting makes x the youngest
    await level.set("z", eiffel, 3600);
    expect([await level.get("x"), await level.get("y"), await level.get("z")]).toEqual([nothingThere, undefined, eiffel]);
    expect(level.size).toBe(2);
  });

  test("refuses a bound that is not a positive integer", () => {
    expect(() => new MemoryCacheLevel({ maxEntries: 0 })).toThrow(RangeError);
  });
});

describe("sqlite cache level", () => {
  test("opens its file in WAL mode and keeps entries across reopening", async () => {
    const path = join(folder, "nested", "again", "cache.db");
    const first = openCacheDatabase(path);
    expect(first.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    await new SqliteCacheLevel(first).set("kept", unusual, 3600);
    first.close();

    const second = openCacheDatabase(path);
    expect(await new SqliteCacheLevel(second).get("kept")).toEqual(unusual);
    second.close();
  });

  test("a file from before (a WITHOUT ROWID table) is moved over once: unexpired answers kept, expired ones left behind", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE reverse_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID");
    db.exec("CREATE INDEX reverse_cache_expires_at ON reverse_cache (expires_at)");
    db.query("INSERT INTO reverse_cache VALUES (?, ?, ?), (?, ?, ?)").run("kept", JSON.stringify(eiffel), 5_000, "expired", JSON.stringify(eiffel), 500);
    const level = new SqliteCacheLevel(db, { now: () => 1_000 });
    expect(await level.getMany(["kept", "expired"])).toEqual(new Map([["kept", eiffel]]));
    expect(db.query("SELECT count(*) AS rows FROM reverse_cache").get()).toEqual({ rows: 1 });
    const table = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'reverse_cache'").get()!;
    expect(table.sql).not.toContain("WITHOUT ROWID");
    // Opened again: nothing more to move, and what it holds stays.
    expect(await new SqliteCacheLevel(db, { now: () => 1_000 }).get("kept")).toEqual(eiffel);
    db.close();
  });

  test("stores key, JSON value and expiry in ms since the epoch", async () => {
    const db = new Database(":memory:");
    const level = new SqliteCacheLevel(db, { now: () => 1_000 });
    await level.set("k", nothingThere, 2);
    expect(db.query("SELECT key, value, expires_at FROM reverse_cache").all()).toEqual([{ key: "k", value: JSON.stringify(nothingThere), expires_at: 3_000 }]);
    db.close();
  });
});
