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
 * Where emptied databases wait for the next suites. CREATE DATABASE copies
 * template1 (7.5 MB) through the WAL: 120-340 ms of Postgres' CPU here, and
 * a `bun test` run asks for about 60 databases; renaming a spare costs a
 * millisecond.
 */
export interface SparePool {
  /** The spares' names start with it. */
  prefix: string;
  /** How many spares the server keeps at most; a database given back beyond that is dropped. */
  maxSpares: number;
}

/** The suites' pool: a few spares are enough, as suites run one at a time, or a few at a time under `--parallel`. */
const suitesPool: SparePool = { prefix: "test_spare_", maxSpares: 8 };

/** How long a given-back database's connections have to end before it is dropped instead of kept. */
const connectionsEndMs = 2_000;

/** Held while a database is counted into a pool, so the pool never grows past its bound. */
const poolLockId = 0x7e57db;

/**
 * A fresh, empty Postgres database for one suite, so suites and runs never
 * collide. `await using db = await createTestDatabase()` gives it back
 * afterwards. It is a spare when one is left (one that was found as a new
 * database is, once emptied: see `giveBack`), else a new one.
 */
export async function createTestDatabase(label: string, pool: SparePool = suitesPool): Promise<TestDatabase> {
  const name = uniqueName(`test_${label}`);
  await withClient(testPostgresAdminUrl, async (admin) => {
    if (!(await takeSpare(admin, pool, name))) await admin.unsafe(`CREATE DATABASE "${name}"`);
  });
  let given: Promise<void> | undefined;
  const drop = () => {
    given ??= giveBack(pool, name);
    return given;
  };
  return { url: urlOf(name), name, drop, [Symbol.asyncDispose]: drop };
}

type Sql = postgres.Sql;

const uniqueName = (stem: string) => `${stem}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, "_");

async function withClient<T>(url: string, work: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

function urlOf(database: string): string {
  const url = new URL(testPostgresAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Renames a database; false when it is gone or still in use (the rename is also how a spare is claimed). */
const rename = (admin: Sql, from: string, to: string) =>
  admin
    .unsafe(`ALTER DATABASE "${from}" RENAME TO "${to}"`)
    .then(() => true)
    .catch(() => false);

/** Renames a spare to `name`; false when there is none (another suite may take one first: the rename is the claim). */
async function takeSpare(admin: Sql, pool: SparePool, name: string): Promise<boolean> {
  const spares = await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE starts_with(datname, ${pool.prefix})`;
  for (const { datname } of spares) if (await rename(admin, datname, name)) return true;
  return false;
}

/**
 * Keeps the database as a spare when it can be made new again, else drops
 * it as before. Its connections are ended and it is renamed at once, so a
 * client that reconnects by its name (a service's retrying store) cannot
 * add to it while it is emptied. Emptied: every schema with what is in it
 * (public made anew, as template1 has it), its own settings and its roles'
 * settings in it, its large objects. Then it is checked against what a
 * new database holds, and kept only if nothing else is there (an event
 * trigger, a publication, default privileges); the pool's bound is kept
 * under an advisory lock.
 */
async function giveBack(pool: SparePool, name: string): Promise<void> {
  await withClient(testPostgresAdminUrl, async (admin) => {
    const emptying = uniqueName("test_emptying");
    const renamed = await endConnections(admin, name)
      .then((ended) => ended && rename(admin, name, emptying))
      .catch(() => false);
    // Any failure on the way to the pool (a statement, a lost connection) drops the database instead of leaving it.
    const kept = renamed && (await keptAsSpare(admin, pool, emptying).catch(() => false));
    if (!kept) await admin.unsafe(`DROP DATABASE IF EXISTS "${renamed ? emptying : name}" WITH (FORCE)`);
  });
}

async function keptAsSpare(admin: Sql, pool: SparePool, name: string): Promise<boolean> {
  return (await emptied(admin, name)) && (await endConnections(admin, name)) && intoPool(admin, pool, name);
}

async function emptied(admin: Sql, name: string): Promise<boolean> {
  await admin.unsafe(`ALTER DATABASE "${name}" RESET ALL`);
  const roles = await admin<{ role: string }[]>`
    SELECT setrole::regrole::text AS role FROM pg_db_role_setting WHERE setrole <> 0 AND setdatabase = (SELECT oid FROM pg_database WHERE datname = ${name})`;
  for (const { role } of roles) await admin.unsafe(`ALTER ROLE ${role} IN DATABASE "${name}" RESET ALL`);
  return withClient(urlOf(name), async (database) => {
    await database.unsafe(`DO $$ DECLARE s name; BEGIN
      FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
        EXECUTE format('DROP SCHEMA %I CASCADE', s);
      END LOOP;
    END $$`);
    await database.unsafe(
      Number((await database`SHOW server_version_num`)[0]?.server_version_num) >= 150000
        ? "CREATE SCHEMA public AUTHORIZATION pg_database_owner; GRANT USAGE ON SCHEMA public TO PUBLIC"
        : "CREATE SCHEMA public; GRANT ALL ON SCHEMA public TO PUBLIC",
    );
    await database`SELECT lo_unlink(oid) FROM pg_largeobject_metadata`;
    const [left] = await database<{ left: number }[]>`
      SELECT (SELECT count(*) FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname NOT IN ('information_schema', 'public'))
        + (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace)
        + (SELECT count(*) FROM pg_type WHERE typnamespace = 'public'::regnamespace)
        + (SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace)
        + (SELECT count(*) FROM pg_extension WHERE extname <> 'plpgsql')
        + (SELECT count(*) FROM pg_event_trigger) + (SELECT count(*) FROM pg_publication) + (SELECT count(*) FROM pg_default_acl)
        + (SELECT count(*) FROM pg_db_role_setting WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database()))
        AS left`;
    return Number(left?.left) === 0;
  });
}

/** Renames an emptied database into the pool unless the pool is full; under the pool's lock, so suites giving back at once keep the bound. */
async function intoPool(admin: Sql, pool: SparePool, name: string): Promise<boolean> {
  await admin`SELECT pg_advisory_lock(${poolLockId})`;
  try {
    const [counted] = await admin<{ spares: number }[]>`SELECT count(*)::int AS spares FROM pg_database WHERE starts_with(datname, ${pool.prefix})`;
    return (counted?.spares ?? pool.maxSpares) < pool.maxSpares && (await rename(admin, name, uniqueName(pool.prefix.replace(/_$/, ""))));
  } finally {
    await admin`SELECT pg_advisory_unlock(${poolLockId})`;
  }
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
