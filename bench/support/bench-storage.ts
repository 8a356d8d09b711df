import { createTestDatabase, deleteKeysWithPrefix, testRedisUrl, uniqueRedisPrefix, type TestDatabase } from "@linkgeo/testing";
import { BenchError, isInterrupted, onCleanup } from "./lifecycle.ts";

/** A fresh Postgres database for this run, dropped when the run ends (Ctrl-C included). */
export async function benchDatabase(label: string): Promise<TestDatabase> {
  const database = await createTestDatabase(label);
  if (isInterrupted()) {
    await database.drop();
    throw new BenchError("interrupted");
  }
  onCleanup(`drop database ${database.name}`, () => database.drop());
  return database;
}

/** A Redis key prefix no other run uses, its keys deleted when the run ends. */
export function benchRedisPrefix(label: string): string {
  const prefix = uniqueRedisPrefix(label);
  onCleanup(`delete Redis keys ${prefix}*`, () => deleteKeysWithPrefix(testRedisUrl, prefix));
  return prefix;
}
