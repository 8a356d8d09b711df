import { describe, expect, test } from "bun:test";
import postgres from "postgres";
import { createTestDatabase, testPostgresAdminUrl, type TestDatabase } from "@linkgeo/testing";

/** What a suite could leave in a database that the next one must not find. */
async function leaveThingsBehind(url: string, name: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE TABLE links (code text PRIMARY KEY); INSERT INTO links VALUES ('left-behind')`);
    await sql.unsafe(`CREATE SCHEMA jobs; CREATE TABLE jobs.points (id int); CREATE TYPE public.mood AS ENUM ('ok')`);
    await sql.unsafe(`CREATE FUNCTION public.answer() RETURNS int LANGUAGE sql AS 'SELECT 42'`);
    // As the shortener's search migration does.
    await sql.unsafe("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    await sql.unsafe(`ALTER DATABASE "${name}" SET timezone = 'America/New_York'`);
  } finally {
    await sql.end();
  }
}

/** Everything in the database that template1 does not have, and its own settings. */
async function whatIsThere(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const schemas = await sql<
      { nspname: string }[]
    >`SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' ORDER BY 1`;
    const [objects] = await sql<{ relations: number; types: number; functions: number }[]>`
      SELECT (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema') AS relations,
             (SELECT count(*)::int FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema') AS types,
             (SELECT count(*)::int FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema') AS functions`;
    const extensions = await sql<{ extname: string }[]>`SELECT extname FROM pg_extension ORDER BY 1`;
    const [settings] = await sql<
      { count: number }[]
    >`SELECT count(*)::int FROM pg_db_role_setting WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    const [publicSchema] = await sql<{ owner: string; usable: boolean }[]>`
      SELECT nspowner::regrole::text AS owner, has_schema_privilege('public', 'public', 'USAGE') AS usable FROM pg_namespace WHERE nspname = 'public'`;
    return {
      schemas: schemas.map((row) => row.nspname),
      ...objects,
      extensions: extensions.map((row) => row.extname),
      settings: settings?.count,
      publicSchema,
    };
  } finally {
    await sql.end();
  }
}

const admin = () => postgres(testPostgresAdminUrl, { max: 1, onnotice: () => {} });

describe("the suites' Postgres databases", () => {
  test("a database given back is found by the next suite as a new one is: no schema, table, type, function, extension or setting left", async () => {
    const sql = admin();
    const oidOf = async (name: string) => (await sql<{ oid: number }[]>`SELECT oid::int FROM pg_database WHERE datname = ${name}`)[0]?.oid;
    const nameOf = async (oid: number | undefined) => (await sql<{ datname: string }[]>`SELECT datname FROM pg_database WHERE oid = ${oid ?? 0}`)[0]?.datname;
    const spareCount = async () =>
      (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_database WHERE starts_with(datname, 'test_spare_')`)[0]?.n ?? 0;
    const held: TestDatabase[] = [];
    try {
      // Spares taken first (other files' too), so the one given back is kept, whatever earlier runs left.
      while ((await spareCount()) > 0 && held.length < 20) held.push(await createTestDatabase("held"));
      const fresh = await createTestDatabase("fresh");
      held.push(fresh);
      const asNew = await whatIsThere(fresh.url);
      expect(asNew).toMatchObject({
        schemas: ["public"],
        relations: 0,
        types: 0,
        functions: 0,
        extensions: ["plpgsql"],
        settings: 0,
        publicSchema: { usable: true },
      });
      await leaveThingsBehind(fresh.url, fresh.name);
      const oid = await oidOf(fresh.name);
      // A connection never closed: it is ended, not waited on forever.
      const lingering = postgres(fresh.url, { max: 1, onnotice: () => {} });
      await lingering`SELECT 1`;
      await fresh.drop();
      await lingering.end().catch(() => {});
      expect(await nameOf(oid)).toStartWith("test_spare_");

      // The next suites take spares until one is the database given back (a parallel file may give back one of its own).
      let again: TestDatabase | undefined;
      while (!again && held.length < 40) {
        const next = await createTestDatabase("next");
        held.push(next);
        if ((await oidOf(next.name)) === oid) again = next;
      }
      expect(again).toBeDefined();
      expect(await whatIsThere(again!.url)).toEqual(asNew);
    } finally {
      await Promise.all(held.map((database) => database.drop()));
      await sql.end();
    }
  });

  test("suites asking at once get a database each, and a given-back one is gone under its name", async () => {
    const databases = await Promise.all(Array.from({ length: 6 }, (_, i) => createTestDatabase(`at_once_${i}`)));
    const names = databases.map((database) => database.name);
    expect(new Set(names).size).toBe(6);
    await Promise.all(databases.map((database) => database.drop()));
    // Giving back twice is the same as once.
    await databases[0]!.drop();
    const sql = admin();
    try {
      const left = await sql<{ datname: string }[]>`SELECT datname FROM pg_database WHERE datname IN ${sql(names)}`;
      expect(left.map((row) => row.datname)).toEqual([]);
    } finally {
      await sql.end();
    }
  });
});
