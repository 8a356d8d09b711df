import { createTestDatabase, waitFor } from "@linkgeo/testing";
import postgres from "postgres";
import { openDatabase } from "../../src/storage/open-database.ts";
import { startTestShortener, type TestShortener, type TestShortenerOptions } from "./test-shortener.ts";

/**
 * A test shortener on a Postgres database of its own, with a second
 * connection beside it (`other`): what another request or replica would
 * do, held open at the moment a test chooses (holdTransaction), so a race
 * is played out in one order every time.
 */
export interface ShortenerBesidePostgres extends AsyncDisposable {
  api: TestShortener;
  other: postgres.Sql;
  /** Waits until a statement of the shortener's waits for a lock the other connection holds. */
  waitForLockWait(what: string): Promise<void>;
}

export async function shortenerBesidePostgres(label: string, options: TestShortenerOptions = {}): Promise<ShortenerBesidePostgres> {
  const testDb = await createTestDatabase(label);
  const database = await openDatabase({ engine: "postgres", url: testDb.url });
  const api = await startTestShortener({ ...options, database });
  const other = postgres(testDb.url, { max: 2, onnotice: () => {} });
  return {
    api,
    other,
    waitForLockWait: (what) => waitFor(what, async () => (await other`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'`).length > 0),
    async [Symbol.asyncDispose]() {
      await other.end();
      await database.close();
      await api[Symbol.asyncDispose]();
      await testDb[Symbol.asyncDispose]();
    },
  };
}

/** A transaction of `sql` that runs `work`, then stays open: `held` once `work` is done, `commit()` ends it. */
export function holdTransaction<T>(sql: postgres.Sql, work: (tx: postgres.TransactionSql) => Promise<T>): { held: Promise<T>; commit(): Promise<void> } {
  let release!: () => void;
  let done!: (value: T) => void;
  let failed!: (error: unknown) => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = new Promise<T>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  const transaction = sql.begin(async (tx) => {
    done(await work(tx));
    await released;
  });
  // A work that fails ends the wait for it, not the test's timeout.
  transaction.catch(failed);
  return {
    held,
    async commit() {
      release();
      await transaction;
    },
  };
}
