import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import { openDatabase, type Database } from "../../src/storage/open-database.ts";

/**
 * Every engine the stores run on, for one suite per interface: SQLite is what
 * `bun run start` uses, Postgres what production uses; both must behave the
 * same. Each `open` makes a fresh database; `cleanup` drops it.
 */
export const storeEngines = [
  { engine: "sqlite", open: async () => ({ db: await openDatabase({ engine: "sqlite", path: ":memory:" }), cleanup: async () => {} }) },
  {
    engine: "postgres",
    open: async (): Promise<{ db: Database; cleanup: () => Promise<void> }> => {
      const testDb: TestDatabase = await createTestDatabase("store");
      try {
        const db = await openDatabase({ engine: "postgres", url: testDb.url });
        return { db, cleanup: () => testDb.drop() };
      } catch (error) {
        await testDb.drop();
        throw error;
      }
    },
  },
] as const;
