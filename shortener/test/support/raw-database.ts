import { Database as SqliteDatabase } from "bun:sqlite";
import { createTestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase, openSqliteDatabase, type Database } from "../../src/storage/open-database.ts";

/** A fresh database with its stores, and plain SQL beside them for what no API does (remove an admin, read a table whole). */
export interface RawDatabase extends AsyncDisposable {
  db: Database;
  /** Runs one statement (no parameters: tests write their literals) and returns its rows. */
  query(statement: string): Promise<Record<string, unknown>[]>;
}

export async function openRawDatabase(engine: "sqlite" | "postgres"): Promise<RawDatabase> {
  if (engine === "sqlite") {
    const sqlite = new SqliteDatabase(":memory:", { strict: true });
    const db = openSqliteDatabase(sqlite);
    return {
      db,
      query: async (statement) => sqlite.query<Record<string, unknown>, []>(statement).all(),
      [Symbol.asyncDispose]: () => db.close(),
    };
  }
  const testDb = await createTestDatabase("raw");
  const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
  const db = await openDatabase({ engine: "postgres", url: testDb.url }).catch(async (error) => {
    await client.end();
    await testDb.drop();
    throw error;
  });
  return {
    db,
    query: async (statement) => [...(await client.unsafe(statement))],
    async [Symbol.asyncDispose]() {
      await client.end();
      await db.close();
      await testDb.drop();
    },
  };
}
