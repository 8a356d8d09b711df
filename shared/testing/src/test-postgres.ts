import postgres from "postgres";
import { defaultTestPostgresUrl } from "./throwaway-servers.ts";

/** The server the suites use: the developer's or CI's own, or the run's throwaway one (throwaway-servers.ts). */
export const testPostgresAdminUrl = process.env.TEST_POSTGRES_URL || defaultTestPostgresUrl;

export interface TestDatabase extends AsyncDisposable {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty Postgres database for one suite run, so runs never collide.
 * `await using db = await createTestDatabase()` drops it afterwards.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `test_${label}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, "_");
  const admin = postgres(testPostgresAdminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(testPostgresAdminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const admin = postgres(testPostgresAdminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
  return { url: url.toString(), name, drop, [Symbol.asyncDispose]: drop };
}
