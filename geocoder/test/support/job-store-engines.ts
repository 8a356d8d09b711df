import { createTestDatabase } from "@linkgeo/testing";
import type { JobQuota } from "../../src/jobs/job-quota.ts";
import type { JobStore } from "../../src/jobs/job-store.ts";
import { PostgresJobStore } from "../../src/jobs/postgres-job-store.ts";
import { openJobDatabase, SqliteJobStore } from "../../src/jobs/sqlite-job-store.ts";

/** Every engine jobs are kept on, for one suite: each `open` makes a fresh store; `cleanup` drops it. */
export const jobStoreEngines = [
  {
    engine: "sqlite",
    open: async (): Promise<{ store: JobStore; cleanup: () => Promise<void> }> => ({
      store: new SqliteJobStore(openJobDatabase(":memory:")),
      cleanup: async () => {},
    }),
  },
  {
    engine: "postgres",
    open: async (): Promise<{ store: JobStore; cleanup: () => Promise<void> }> => {
      const database = await createTestDatabase("jobs");
      return { store: await PostgresJobStore.open(database.url, 5_000), cleanup: () => database.drop() };
    },
  },
] as const;

/** Quotas no test reaches, for the cases about something else. */
export const roomyQuota: JobQuota = { clientPoints: 1e12, clientBytes: 2 ** 50, storeBytes: 2 ** 50, diskFloorBytes: 0 };
