import { afterAll, beforeAll } from "bun:test";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase, type Database, type OpenDatabaseOptions } from "../../src/storage/open-database.ts";

/**
 * Every engine the stores run on, for one suite per interface: SQLite is what
 * `bun run start` uses, Postgres what production uses; both must behave the
 * same. Each `open` makes a fresh database (with the options given, the
 * deadline and the count limits say); `cleanup` drops it.
 */
export const storeEngines = [
  {
    engine: "sqlite",
    open: async (options: OpenDatabaseOptions = {}) => ({ db: await openDatabase({ engine: "sqlite", path: ":memory:" }, options), cleanup: async () => {} }),
  },
  {
    engine: "postgres",
    open: async (options: OpenDatabaseOptions = {}): Promise<{ db: Database; cleanup: () => Promise<void> }> => {
      const testDb: TestDatabase = await createTestDatabase("store");
      try {
        // Sessions in a zone behind UTC, as a server's default may be: a date taken from a
        // timestamp without AT TIME ZONE 'UTC' lands on the day before, and the suites see it.
        const owner = postgres(testDb.url, { max: 1, onnotice: () => {} });
        await owner.unsafe(`ALTER DATABASE "${testDb.name}" SET timezone = 'America/New_York'`).finally(() => owner.end());
        const db = await openDatabase({ engine: "postgres", url: testDb.url }, options);
        return { db, cleanup: () => testDb.drop() };
      } catch (error) {
        await testDb.drop();
        throw error;
      }
    },
  },
] as const;

/** The stores on a Postgres database of their own for one describe block (a case only Postgres has): opened before its tests, dropped after. */
export function postgresStores(): { readonly db: Database } {
  const postgresEngine = storeEngines.find((engine) => engine.engine === "postgres")!;
  let opened: { db: Database; cleanup: () => Promise<void> } | undefined;
  beforeAll(async () => {
    opened = await postgresEngine.open();
  });
  afterAll(async () => {
    await opened?.db.close();
    await opened?.cleanup();
  });
  return {
    get db() {
      if (!opened) throw new Error("postgresStores: the stores are opened in beforeAll");
      return opened.db;
    },
  };
}
