import postgres from "postgres";
import { defaultTestPostgresUrl } from "./throwaway-servers.ts";
import { waitFor } from "./wait-for.ts";

/** The server the suites use: the developer's or CI's own, or the run's throwaway one (throwaway-servers.ts). */
export const testPostgresAdminUrl = process.env.TEST_POSTGRES_URL || defaultTestPostgresUrl;

export interface TestDatabase extends AsyncDisposable {
  url: string;
  name: string;
  /** Gives the database back: emptied and kept as a spare, or dropped. */
  drop(): Promise<void>;
}

/**
 * How many emptied databases the server keeps for the next suites, named
 * `test_spare_…` (a few more when suites give theirs back at the same
 * moment: each counts before it renames). CREATE DATABASE copies template1
 * (7.5 MB) through the WAL: 120-340 ms of Postgres' CPU here, and a
 * `bun test` run asks for about 60 databases. Renaming a spare costs a
 * millisecond. A few are enough: suites run one at a time, or four at a
 * time under `bun run test:fast`.
 */
const maxSpares = 8;
const sparePrefix = "test_spare_";

/** How long a given-back database's connections have to end before it is dropped instead of kept. */
const connectionsEndMs = 2_000;

/**
 * A fresh, empty Postgres database for one suite, so suites and runs never
 * collide. `await using db = await createTestDatabase()` gives it back
 * afterwards. It is a spare when one is left (emptied as it was given back:
 * no schema but a new `public`, no setting of its own), else a new one.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `test_${label}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, "_");
  await withAdmin(testPostgresAdminUrl, async (admin) => {
    if (!(await takeSpare(admin, name))) await admin.unsafe(`CREATE DATABASE "${name}"`);
  });
  const url = urlOf(name);
  let given: Promise<void> | undefined;
  const drop = () => {
    given ??= giveBack(name);
    return given;
  };
  return { url, name, drop, [Symbol.asyncDispose]: drop };
}

type Sql = postgres.Sql;

async function withAdmin<T>(url: string, work: (admin: Sql) => Promise<T>): Promise<T> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function urlOf(database: string): string {
  const url = new URL(testPostgresAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Renames a spare to `name`; false when there is none (another suite may take one first: the rename is the claim). */
async function takeSpare(admin: Sql, name: string): Promise<boolean> {
  const spares = await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE starts_with(datname, ${sparePrefix})`;
  for (const { datname } of spares) {
    const taken = await admin
      .unsafe(`ALTER DATABASE "${datname}" RENAME TO "${name}"`)
      .then(() => true)
      .catch(() => false);
    if (taken) return true;
  }
  return false;
}

/**
 * Ends the database's connections, empties it and keeps it as a spare while
 * fewer than `maxSpares` are kept; otherwise, or if it cannot be emptied and
 * renamed (a connection that will not end), drops it as before.
 */
async function giveBack(name: string): Promise<void> {
  await withAdmin(testPostgresAdminUrl, async (admin) => {
    const [spareCount] = await admin<{ spares: number }[]>`SELECT count(*)::int AS spares FROM pg_database WHERE starts_with(datname, ${sparePrefix})`;
    const kept = (spareCount?.spares ?? maxSpares) < maxSpares && (await emptyAndRename(admin, name).catch(() => false));
    if (!kept) await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

async function emptyAndRename(admin: Sql, name: string): Promise<boolean> {
  if (!(await endConnections(admin, name))) return false;
  await admin.unsafe(`ALTER DATABASE "${name}" RESET ALL`);
  await withAdmin(urlOf(name), async (database) => {
    // Every schema but the system's, public included; then public as template1 has it.
    await database.unsafe(`DO $$ DECLARE s name; BEGIN
      FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
        EXECUTE format('DROP SCHEMA %I CASCADE', s);
      END LOOP;
    END $$`);
    await database.unsafe(
      Number((await database`SHOW server_version_num`)[0]!.server_version_num) >= 150000
        ? "CREATE SCHEMA public AUTHORIZATION pg_database_owner; GRANT USAGE ON SCHEMA public TO PUBLIC"
        : "CREATE SCHEMA public; GRANT ALL ON SCHEMA public TO PUBLIC",
    );
  });
  // The emptying connection itself ends as the client closes: wait for it too.
  if (!(await endConnections(admin, name))) return false;
  await admin.unsafe(`ALTER DATABASE "${name}" RENAME TO "${sparePrefix}${crypto.randomUUID().slice(0, 8)}"`);
  return true;
}

/** Ends every connection to the database and waits until they are gone; false if some are still there after `connectionsEndMs`. */
function endConnections(admin: Sql, name: string): Promise<boolean> {
  const noneLeft = async () => {
    const [ended] = await admin<{ left: number }[]>`
      SELECT count(*)::int AS left FROM (
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()
      ) AS terminated`;
    return ended?.left === 0;
  };
  return waitFor(`the connections to ${name} to end`, noneLeft, connectionsEndMs).then(
    () => true,
    () => false,
  );
}
