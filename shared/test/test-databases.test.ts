import { afterAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { createTestDatabase, testPostgresAdminUrl, type SparePool, type TestDatabase } from "@linkgeo/testing";

/** A pool of this file's own, so the suites running beside it (`--parallel`) neither take its spares nor fill it. */
const pool: SparePool = { prefix: `test_poolcheck_${crypto.randomUUID().slice(0, 8)}_`, maxSpares: 2 };

const connect = (url: string) => postgres(url, { max: 1, onnotice: () => {} });
const admin = connect(testPostgresAdminUrl);

afterAll(async () => {
  for (const { datname } of await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE starts_with(datname, ${pool.prefix})`) {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
  await admin.end();
});

/** What a suite could leave in a database that the next one must not find. */
async function leaveThingsBehind(database: TestDatabase): Promise<void> {
  const sql = connect(database.url);
  try {
    await sql.unsafe(`CREATE TABLE links (code text PRIMARY KEY); INSERT INTO links VALUES ('left-behind')`);
    await sql.unsafe(`CREATE SCHEMA jobs; CREATE TABLE jobs.points (id int); CREATE TYPE public.mood AS ENUM ('ok')`);
    await sql.unsafe(`CREATE FUNCTION public.answer() RETURNS int LANGUAGE sql AS 'SELECT 42'`);
    // As the shortener's search migration does.
    await sql.unsafe("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    await sql`SELECT lo_from_bytea(0, '\\x0102'::bytea)`;
    await sql.unsafe(`ALTER DATABASE "${database.name}" SET timezone = 'America/New_York'`);
    await sql.unsafe(`ALTER ROLE CURRENT_USER IN DATABASE "${database.name}" SET work_mem = '7MB'`);
  } finally {
    await sql.end();
  }
}

/** Everything in the database that template1 does not have, its settings, and what its public schema allows. */
async function whatIsThere(url: string) {
  const sql = connect(url);
  try {
    const [found] = await sql`
      SELECT
        (SELECT array_agg(nspname::text ORDER BY nspname) FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema') AS schemas,
        (SELECT count(*)::int FROM pg_class WHERE relnamespace = 'public'::regnamespace) AS relations,
        (SELECT count(*)::int FROM pg_type WHERE typnamespace = 'public'::regnamespace) AS types,
        (SELECT count(*)::int FROM pg_proc WHERE pronamespace = 'public'::regnamespace) AS functions,
        (SELECT array_agg(extname::text ORDER BY extname) FROM pg_extension) AS extensions,
        (SELECT count(*)::int FROM pg_largeobject_metadata) AS "largeObjects",
        (SELECT count(*)::int FROM pg_db_role_setting WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())) AS settings,
        (SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 'public') AS "publicOwner",
        (SELECT nspacl::text FROM pg_namespace WHERE nspname = 'public') AS "publicAcl"`;
    return found;
  } finally {
    await sql.end();
  }
}

const oidOf = async (name: string) => (await admin<{ oid: number }[]>`SELECT oid::int FROM pg_database WHERE datname = ${name}`)[0]?.oid;
const sparesInPool = async () => (await admin<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_database WHERE starts_with(datname, ${pool.prefix})`)[0]?.n;

describe("the suites' Postgres databases", () => {
  test("a database given back is taken by the next suite as a new one is: no schema, table, type, function, extension, large object or setting left", async () => {
    // The pool is empty: this one is made by CREATE DATABASE from template1.
    const fresh = await createTestDatabase("fresh", pool);
    const asNew = await whatIsThere(fresh.url);
    expect(asNew).toMatchObject({ schemas: ["public"], relations: 0, types: 0, functions: 0, extensions: ["plpgsql"], largeObjects: 0, settings: 0 });
    await leaveThingsBehind(fresh);
    const oid = await oidOf(fresh.name);
    // A connection never closed: it is ended, not waited on forever.
    const lingering = connect(fresh.url);
    await lingering`SELECT 1`;
    await fresh.drop();
    await lingering.end().catch(() => {});
    expect(await sparesInPool()).toBe(1);

    const next = await createTestDatabase("next", pool);
    try {
      expect(await oidOf(next.name)).toBe(oid);
      expect(await whatIsThere(next.url)).toEqual(asNew);
    } finally {
      await next.drop();
    }
  });

  test("suites asking at once get a database each; given back at once, the pool keeps no more than its bound", async () => {
    const databases = await Promise.all(Array.from({ length: 5 }, (_, i) => createTestDatabase(`at_once_${i}`, pool)));
    const names = databases.map((database) => database.name);
    expect(new Set(names).size).toBe(5);
    await Promise.all(databases.map((database) => database.drop()));
    expect(await sparesInPool()).toBe(pool.maxSpares);
    // Giving back twice is the same as once.
    await databases[0]!.drop();
    const left = await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE datname IN ${admin(names)}`;
    expect(left.map((row) => row.datname)).toEqual([]);
  });
});
