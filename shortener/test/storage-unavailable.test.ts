import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ServiceUnavailable } from "@linkgeo/shared";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import { storageUnavailable } from "../src/storage/storage-unavailable.ts";

// Real errors from a real Postgres: which of them a request answers with 503 (try again) rather than 500.

let database: TestDatabase;
let first: postgres.Sql;
let second: postgres.Sql;

beforeAll(async () => {
  database = await createTestDatabase("storage_unavailable");
  first = postgres(database.url, { max: 1, onnotice: () => {} });
  second = postgres(database.url, { max: 1, onnotice: () => {} });
  await first`CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL)`;
  await first`INSERT INTO pair VALUES (1, 0), (2, 0)`;
});

afterAll(async () => {
  await Promise.all([first?.end({ timeout: 5 }), second?.end({ timeout: 5 })]);
  await database?.drop();
});

/** What `run` was rejected with. */
async function failureOf(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("storageUnavailable", () => {
  test("a deadlock Postgres broke by failing one transaction is a 503: a retry succeeds", async () => {
    // Each transaction holds one row and then asks for the other's.
    let bothHeld!: () => void;
    const bothHold = new Promise<void>((resolve) => {
      bothHeld = resolve;
    });
    let holding = 0;
    const crossing = (sql: postgres.Sql, mine: number, theirs: number) =>
      sql.begin(async (tx) => {
        // Found in 50 ms rather than the default second (the test database's owner may set it).
        await tx`SET LOCAL deadlock_timeout = '50ms'`;
        await tx`UPDATE pair SET n = n + 1 WHERE id = ${mine}`;
        if (++holding === 2) bothHeld();
        await bothHold;
        await tx`UPDATE pair SET n = n + 1 WHERE id = ${theirs}`;
      });
    const settled = await Promise.allSettled([crossing(first, 1, 2), crossing(second, 2, 1)]);
    const failures = settled.filter((outcome) => outcome.status === "rejected").map((outcome) => (outcome as PromiseRejectedResult).reason);
    expect(failures.map((error) => (error as { code?: string }).code)).toEqual(["40P01"]);
    expect(storageUnavailable(failures[0])).toBeInstanceOf(ServiceUnavailable);
  });

  test("a row lock not granted within lock_timeout is a 503", async () => {
    const error = await first.begin(async (holder) => {
      await holder`SELECT 1 FROM pair WHERE id = 1 FOR UPDATE`;
      return failureOf(
        second.begin(async (tx) => {
          await tx`SET LOCAL lock_timeout = '20ms'`;
          await tx`SELECT 1 FROM pair WHERE id = 1 FOR UPDATE`;
        }),
      );
    });
    expect((error as { code?: string }).code).toBe("55P03");
    expect(storageUnavailable(error)).toBeInstanceOf(ServiceUnavailable);
  });

  test("a statement the database refuses as wrong stays an error of ours (no 503)", async () => {
    const error = await failureOf(first`SELECT no_such_column FROM pair`);
    expect((error as { code?: string }).code).toBe("42703");
    expect(storageUnavailable(error)).toBeUndefined();
  });
});
