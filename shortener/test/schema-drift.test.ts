import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database as SqliteDatabase } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import { getTableName, is, SQL, StringChunk, type Table } from "drizzle-orm";
import { PgDialect, getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect, getTableConfig as sqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import postgres from "postgres";
import { openDatabase } from "../src/storage/open-database.ts";
import * as postgresSchema from "../src/storage/postgres/schema.ts";
import * as sqliteSchema from "../src/storage/sqlite/schema.ts";

/**
 * The migrations (SQL, the source of truth) and storage/<engine>/schema.ts
 * (what Drizzle queries through) must describe the same database. Each side
 * is reduced to one shape (tables, columns with type, collation, nullability
 * and default, primary key, indexes with column order, foreign keys) and the
 * two compared, on a database the migrations just built.
 */

interface ColumnShape {
  type: string;
  notNull: boolean;
  default: string | null;
  collation: string | null;
}

interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  /** name → "unique? (column [desc] [nulls first|last], …) [where …]"; nulls order only for a nullable column, where it matters. */
  indexes: Record<string, string>;
  /** "code -> links(code) on delete cascade" */
  foreignKeys: string[];
}

type DatabaseShape = Record<string, TableShape>;

const tidy = (text: string) => text.replaceAll('"', "").replaceAll("`", "").replace(/\s+/g, " ").trim().toLowerCase();

function indexShape(unique: boolean, columns: string[], method = "btree", where?: string): string {
  const shape = `${unique ? "unique " : ""}${method === "btree" ? "" : `${method} `}(${columns.join(", ")})`;
  return where === undefined ? shape : `${shape} where ${indexPredicate(where)}`;
}

/** A partial index's WHERE, without the parentheses and quotes each engine prints its own way. */
function indexPredicate(where: string): string {
  return tidy(where.replace(/[()]/g, " "));
}

function indexColumn(name: string, descending: boolean, nulls: "first" | "last" | undefined, nullable: boolean): string {
  return [name, descending ? "desc" : "", nullable && nulls ? `nulls ${nulls}` : ""].filter(Boolean).join(" ");
}

/** The parts of a Drizzle table config that read alike on both engines. */
interface DrizzleKeys {
  columns: Array<{ name: string; primary: boolean }>;
  primaryKeys: Array<{ columns: Array<{ name: string }> }>;
  foreignKeys: Array<{
    onDelete?: string;
    reference(): { columns: Array<{ name: string }>; foreignTable: Table; foreignColumns: Array<{ name: string }> };
  }>;
}

function drizzlePrimaryKey(config: DrizzleKeys): string[] {
  return config.primaryKeys[0]?.columns.map((column) => column.name) ?? config.columns.filter((column) => column.primary).map((column) => column.name);
}

function drizzleForeignKeys(config: DrizzleKeys): string[] {
  const names = (columns: Array<{ name: string }>) => columns.map((column) => column.name).join(", ");
  return config.foreignKeys
    .map((foreignKey) => {
      const reference = foreignKey.reference();
      return `${names(reference.columns)} -> ${getTableName(reference.foreignTable)}(${names(reference.foreignColumns)}) on delete ${foreignKey.onDelete ?? "no action"}`;
    })
    .sort();
}

// ---- Postgres

const postgresDialect = new PgDialect();

function postgresSchemaShape(): DatabaseShape {
  const shape: DatabaseShape = {};
  for (const table of Object.values(postgresSchema).filter((value) => is(value, PgTable))) {
    const config = pgTableConfig(table);
    const columns: Record<string, ColumnShape> = {};
    for (const column of config.columns) {
      const sqlType = column.getSQLType();
      const collation = /COLLATE "([^"]+)"/.exec(sqlType)?.[1] ?? null;
      columns[column.name] = {
        type: tidy(sqlType.replace(/\s*COLLATE "[^"]+"/, "").replace(/\s+\(/, "(")),
        notNull: column.notNull,
        default: defaultText(column.default),
        collation,
      };
    }
    const nullable = (name: string) => !columns[name]!.notNull;
    shape[config.name] = {
      columns,
      primaryKey: drizzlePrimaryKey(config),
      indexes: Object.fromEntries(
        config.indexes.map((index) => [
          index.config.name!,
          indexShape(
            index.config.unique,
            index.config.columns.map((column) => {
              if (!("indexConfig" in column)) throw new Error(`index ${index.config.name}: only plain columns are compared`);
              const named = indexColumn(column.name!, column.indexConfig?.order === "desc", column.indexConfig?.nulls, nullable(column.name!));
              return column.indexConfig?.opClass ? `${named} ${column.indexConfig.opClass}` : named;
            }),
            index.config.method,
            index.config.where && postgresDialect.sqlToQuery(index.config.where).sql,
          ),
        ]),
      ),
      foreignKeys: drizzleForeignKeys(config),
    };
  }
  return shape;
}

const postgresDeleteRules: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

async function postgresDatabaseShape(sql: postgres.Sql): Promise<DatabaseShape> {
  const shape: DatabaseShape = {};
  const tables = await sql<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  for (const { table_name: table } of tables) {
    const columnRows = await sql<
      {
        column_name: string;
        data_type: string;
        udt_name: string;
        datetime_precision: number | null;
        is_nullable: string;
        column_default: string | null;
        collation_name: string | null;
      }[]
    >`
      SELECT column_name, data_type, udt_name, datetime_precision, is_nullable, column_default, collation_name
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table}`;
    const columns: Record<string, ColumnShape> = {};
    for (const row of columnRows) {
      // An array's element type is in udt_name: `_text` is text[].
      const dataType = row.data_type === "ARRAY" ? `${row.udt_name.slice(1)}[]` : row.data_type;
      const type = dataType.startsWith("timestamp") ? dataType.replace("timestamp", `timestamp(${row.datetime_precision})`) : dataType;
      columns[row.column_name] = { type, notNull: row.is_nullable === "NO", default: row.column_default, collation: row.collation_name };
    }
    const nullable = (name: string) => !columns[name]!.notNull;
    const primaryKey = await sql<{ attname: string }[]>`
      SELECT a.attname FROM pg_index i
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = ${table}::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`;
    const indexRows = await sql<{ indexname: string; indexdef: string }[]>`
      SELECT ix.indexname, ix.indexdef FROM pg_indexes ix
      JOIN pg_class c ON c.relname = ix.indexname
      JOIN pg_index i ON i.indexrelid = c.oid
      WHERE ix.schemaname = 'public' AND ix.tablename = ${table} AND NOT i.indisprimary`;
    const indexes: Record<string, string> = {};
    for (const { indexname, indexdef } of indexRows) {
      const [, method = "", columnList = "", where] = /USING (\w+) \((.*?)\)(?: WHERE (.*))?$/.exec(indexdef)!;
      indexes[indexname] = indexShape(
        /^CREATE UNIQUE/.test(indexdef),
        columnList.split(",").map((part) => {
          const [name = "", ...words] = tidy(part).split(" ");
          const descending = words.includes("desc");
          // Postgres's defaults, which it does not print: NULLS LAST ascending, NULLS FIRST descending.
          const nulls = words.includes("nulls") ? (words.at(-1) as "first" | "last") : descending ? "first" : "last";
          const opClass = words.find((word) => !["asc", "desc", "nulls", "first", "last"].includes(word));
          const named = indexColumn(name, descending, nulls, nullable(name));
          return opClass ? `${named} ${opClass}` : named;
        }),
        method,
        where,
      );
    }
    const foreignKeyRows = await sql<{ columns: string[]; foreign_table: string; foreign_columns: string[]; delete_rule: string }[]>`
      SELECT
        ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = c.conrelid AND attnum = ANY(c.conkey) ORDER BY array_position(c.conkey, attnum)) AS columns,
        c.confrelid::regclass::text AS foreign_table,
        ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = c.confrelid AND attnum = ANY(c.confkey) ORDER BY array_position(c.confkey, attnum)) AS foreign_columns,
        c.confdeltype AS delete_rule
      FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = ${table}::regclass`;
    shape[table] = {
      columns,
      primaryKey: primaryKey.map((row) => row.attname),
      indexes,
      foreignKeys: foreignKeyRows
        .map(
          (row) =>
            `${row.columns.join(", ")} -> ${tidy(row.foreign_table)}(${row.foreign_columns.join(", ")}) on delete ${postgresDeleteRules[row.delete_rule]}`,
        )
        .sort(),
    };
  }
  return shape;
}

// ---- SQLite

const sqliteDialect = new SQLiteSyncDialect();

function sqliteSchemaShape(): DatabaseShape {
  const shape: DatabaseShape = {};
  for (const table of Object.values(sqliteSchema).filter((value) => is(value, SQLiteTable))) {
    const config = sqliteTableConfig(table);
    const columns: Record<string, ColumnShape> = {};
    for (const column of config.columns) {
      columns[column.name] = {
        type: tidy(column.getSQLType()),
        notNull: column.notNull,
        default: defaultText(column.default),
        collation: null,
      };
    }
    shape[config.name] = {
      columns,
      primaryKey: drizzlePrimaryKey(config),
      indexes: Object.fromEntries(
        config.indexes.map((index) => [
          index.config.name,
          indexShape(
            index.config.unique,
            index.config.columns.map((column) => {
              // A plain column, or `${column} desc` written as SQL (SQLite indexes have no nulls order).
              const text = "name" in column ? column.name : tidy(sqliteDialect.sqlToQuery(column as SQL).sql).replace(`${config.name}.`, "");
              return tidy(text);
            }),
            undefined,
            index.config.where && sqliteDialect.sqlToQuery(index.config.where).sql,
          ),
        ]),
      ),
      foreignKeys: drizzleForeignKeys(config),
    };
  }
  return shape;
}

function sqliteDatabaseShape(db: SqliteDatabase): DatabaseShape {
  const shape: DatabaseShape = {};
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'")
    .all();
  for (const { name: table } of tables) {
    const info = db.query<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }, []>(`PRAGMA table_info("${table}")`).all();
    const columns: Record<string, ColumnShape> = {};
    for (const row of info) {
      // A PRIMARY KEY column of a rowid table may hold NULL unless declared NOT NULL; an INTEGER one is the rowid and never does.
      const notNull = row.notnull === 1 || (row.pk > 0 && row.type.toLowerCase() === "integer");
      columns[row.name] = { type: tidy(row.type), notNull, default: row.dflt_value, collation: null };
    }
    const indexes: Record<string, string> = {};
    for (const index of db.query<{ name: string; unique: number; origin: string; partial: number }, []>(`PRAGMA index_list("${table}")`).all()) {
      if (index.origin !== "c") continue; // "pk" and "u": made by the table's own constraints
      const keyColumns = db
        .query<{ name: string; desc: number; key: number }, []>(`PRAGMA index_xinfo("${index.name}")`)
        .all()
        .filter((column) => column.key === 1);
      indexes[index.name] = indexShape(
        index.unique === 1,
        keyColumns.map((column) => (column.desc ? `${column.name} desc` : column.name)),
        undefined,
        index.partial
          ? / WHERE (.*)$/is.exec(db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(index.name)!.sql)![1]
          : undefined,
      );
    }
    const foreignKeys = db
      .query<{ table: string; from: string; to: string; on_delete: string }, []>(`PRAGMA foreign_key_list("${table}")`)
      .all()
      .map((row) => `${row.from} -> ${row.table}(${row.to}) on delete ${row.on_delete.toLowerCase()}`)
      .sort();
    shape[table] = {
      columns,
      primaryKey: info
        .filter((row) => row.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((row) => row.name),
      indexes,
      foreignKeys,
    };
  }
  return shape;
}

const searchIndexTables = ["links_search", "links_search_config", "links_search_data", "links_search_docsize", "links_search_idx"];
/** SQLite's switch of the insert triggers for a bulk insert (migration 0012): raw SQL, read by no Drizzle query. */
const bulkInsertTable = "links_bulk_insert";
const allTables = [
  "admin_sessions",
  "admins",
  "allow_list",
  "api_keys",
  "audit_events",
  "domain_workspaces",
  "domains",
  "link_fact_days",
  "link_tags",
  "link_visit_buckets",
  "link_visit_days",
  "link_visit_facts_old",
  "link_visit_log",
  "link_visit_months",
  "links",
  "orphan_visits",
  "people",
  "person_sessions",
  "reports",
  "threat_recheck",
  "visit_fact_totals",
  "visit_rollups",
  "visit_totals",
  "workspace_invites",
  "workspace_members",
  "workspaces",
  "write_probe",
];

describe("schema.ts and the migrations describe the same database", () => {
  describe("Postgres", () => {
    let testDb: TestDatabase;
    let sql: postgres.Sql;

    beforeAll(async () => {
      testDb = await createTestDatabase("schema_drift");
      const database = await openDatabase({ engine: "postgres", url: testDb.url });
      await database.close();
      sql = postgres(testDb.url, { max: 1, onnotice: () => {} });
    });
    afterAll(async () => {
      await sql?.end();
      await testDb?.drop();
    });

    test("every table, column, type, collation, default, key, index and foreign key", async () => {
      const fromDatabase = await postgresDatabaseShape(sql);
      expect(Object.keys(fromDatabase).sort()).toEqual([...allTables, "links_search"].sort());
      expect(postgresSchemaShape()).toEqual(fromDatabase);
    });
  });

  describe("SQLite", () => {
    let dir: string;
    let db: SqliteDatabase;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "schema-drift-"));
      const path = join(dir, "shortener.db");
      const database = await openDatabase({ engine: "sqlite", path });
      await database.close();
      db = new SqliteDatabase(path, { readonly: true });
    });
    afterAll(() => {
      db?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test("every table, column, type, default, key, index and foreign key", () => {
      const fromDatabase = sqliteDatabaseShape(db);
      // The search index (migration 0006) is an FTS5 table and its shadow tables, kept in step by triggers: raw SQL, no Drizzle table.
      for (const table of [...searchIndexTables, bulkInsertTable]) {
        expect(fromDatabase).toHaveProperty(table);
        delete fromDatabase[table];
      }
      const triggers = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all();
      expect(triggers.map((trigger) => trigger.name)).toEqual([
        "link_tags_insert",
        "link_tags_update",
        "links_search_delete",
        "links_search_insert",
        "links_search_update",
      ]);
      expect(Object.keys(fromDatabase).sort()).toEqual(allTables);
      expect(sqliteSchemaShape()).toEqual(fromDatabase);
    });
  });
});

/** A column's default as the database prints it: a value as text, an SQL default as its SQL. */
function defaultText(value: unknown): string | null {
  if (value === undefined) return null;
  if (is(value, SQL)) return value.queryChunks.map((chunk) => (is(chunk, StringChunk) ? chunk.value.join("") : String(chunk))).join("");
  return String(value);
}
