/**
 * The data bench:scale measures against, built fast in a throwaway database
 * of either engine: `links` links (code `c<hex>x`, n = 1 … links, newest
 * last, long URLs `https://example.com/articles/<n>/<hash>`), and a year of
 * visits for the newest `visitedLinks` of them, in the shape the hourly fold
 * leaves (ANALYTICS_HOURLY_DAYS = 90): hours for the last 90 days, days
 * before that. Options for the listing's filters (`linkOptionsOf`): a
 * common tag, a rare one, links expired, expiring later, capped and used up.
 *
 * The schema is the migrations' own (openDatabase applies them); for the
 * bulk load the secondary indexes of the links, link_tags and visits tables
 * and the search and tag triggers are dropped (Postgres: triggers and
 * foreign-key checks off for the session; links_search and link_tags are
 * filled once, as their migrations fill them) and then made again from
 * their own definitions (read back from the catalog), so nothing here
 * restates the schema. Then
 * the shortener's own hourly job sums the finished days (rollUpBefore).
 */
import { Database as SqliteDatabase } from "bun:sqlite";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@linkgeo/testing";
import postgres from "postgres";
import type { DatabaseTarget } from "../../shortener/src/storage/database-target.ts";
import { openDatabase } from "../../shortener/src/storage/open-database.ts";
import { rollupEdge } from "../../shortener/src/visits/visit-rollups.ts";

export interface ScaleShape {
  links: number;
  visitedLinks: number;
}

/** The `n`th link's code, as the loaders write it; wrk's Lua script writes the same. */
export const codeOf = (n: number) => `c${n.toString(16)}x`;

/**
 * Every even link is on an added domain, `brand.bench` (id 1), so redirects
 * on an added domain's host are measured over the same million links as
 * the default domain's (docs/domains.md). Its key is `1~<code>`
 * (shortener/src/links/link-key.ts), as the loaders write it.
 */
export const brandHost = "brand.bench";
export const onBrand = (n: number) => n % 2 === 0;
export const keyOf = (n: number) => (onBrand(n) ? `1~${codeOf(n)}` : codeOf(n));
/** keyOf in SQL, for `n`. */
const keySql = "CASE WHEN n % 2 = 0 THEN '1~' ELSE '' END || 'c' || to_hex(n) || 'x'";

/** Visits are on every `visitEvery`-th day of a link (offset by link; about weekly), 4 visited hours on such a day in the hourly window. */
const visitEvery = 7;
const hourlyDays = 90;
const yearDays = 365;
/** Breakdown rows per visited day: one value for each of the five dimensions. */
const dimensions = ["referrer", "country", "browser", "os", "device"] as const;

/**
 * The tags and states of the `n`th link, the same on both engines: every
 * third link is tagged `news` (a common tag), every 10,007th `rare` (about
 * 100 at a million); every 40th has expired an hour before `now` and every
 * other 20th expires in a day (2.5% expired, 2.5% to expire); every 50th
 * is capped at 5 visits, and every 2,000th (offset 1) has used them up
 * (0.05% exhausted). The others are active.
 */
export const scaleTags = { common: "news", rare: "rare" } as const;
const hourMs = 3_600_000;
function linkOptionsOf(n: number, now: Date): { tags: string[]; expiresAt: number | null; maxVisits: number | null; accessCount: number } {
  const tags = [...(n % 3 === 0 ? [scaleTags.common] : []), ...(n % 10_007 === 0 ? [scaleTags.rare] : [])];
  const expiresAt = n % 40 === 0 ? now.getTime() - hourMs : n % 20 === 0 ? now.getTime() + 24 * hourMs : null;
  const capped = n % 50 === 1;
  return { tags, expiresAt, maxVisits: capped ? 5 : null, accessCount: capped && n % 2_000 === 1 ? 5 : 0 };
}

/**
 * The newest link of the default domain that counts every visit: no expiry
 * and no cap (the newest link itself has expired, so a hot link there would
 * count nothing).
 */
export function newestActiveLink(links: number): number {
  const now = new Date();
  for (let n = links; n > 0; n--) {
    const options = linkOptionsOf(n, now);
    if (!onBrand(n) && options.expiresAt === null && options.maxVisits === null) return n;
  }
  throw new Error(`no active link among ${links}`);
}

/** Adds brand.bench (id 1) to a database whose migrations made the domains table (the loaders, and bench:scale after its upgrade). */
export async function restoreBrand(built: Pick<BuiltDatabase, "engine" | "url">): Promise<void> {
  if (built.engine === "postgres") {
    const sql = postgres(built.url, { max: 1, onnotice: () => {} });
    try {
      await sql`INSERT INTO domains (id, host, created_at) VALUES (1, ${brandHost}, now()) ON CONFLICT DO NOTHING`;
    } finally {
      await sql.end();
    }
    return;
  }
  const db = new SqliteDatabase(built.url.replace(/^sqlite:\/\//, ""));
  try {
    db.query("INSERT OR IGNORE INTO domains (id, host, created_at) VALUES (1, ?, ?)").run(brandHost, Date.now());
  } finally {
    db.close();
  }
}

export interface BuiltDatabase {
  engine: "postgres" | "sqlite";
  /** For DATABASE_URL. */
  url: string;
  buildMs: number;
  /** facts: link-days of breakdowns (link_fact_days rows). */
  rows: { links: number; buckets: number; facts: number };
  drop(): Promise<void>;
}

/** Midnight UTC `days` ago from `now`. */
function midnight(now: Date, daysAgo: number): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return new Date(day.getTime() - daysAgo * 86_400_000);
}

/** What the hourly visit job has done by `now`: every finished day summed for the every-link report. */
async function sumFinishedDays(target: DatabaseTarget, now: Date): Promise<void> {
  const database = await openDatabase(target);
  try {
    await database.visits.rollUpBefore(rollupEdge(now));
  } finally {
    await database.close();
  }
}

export async function buildPostgres(shape: ScaleShape, now: Date): Promise<BuiltDatabase> {
  const started = performance.now();
  const database: TestDatabase = await createTestDatabase("scale");
  await (await openDatabase({ engine: "postgres", url: database.url })).close();
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await restoreBrand({ engine: "postgres", url: database.url });
    // The visits tables' primary keys too (nothing refers to them): one sorted build beats 3.5M inserts into a b-tree.
    const indexes = await sql<{ name: string; table: string; definition: string; primary: boolean }[]>`
      SELECT i.indexname AS name, i.tablename AS table, i.indexdef AS definition, c.contype IS NOT NULL AS primary
      FROM pg_indexes i LEFT JOIN pg_constraint c ON c.conname = i.indexname AND c.contype = 'p'
      WHERE i.schemaname = 'public' AND i.tablename IN ('links', 'links_search', 'link_tags', 'link_visit_buckets', 'link_fact_days')
        AND (c.contype IS NULL OR i.tablename LIKE 'link_visit_%' OR i.tablename = 'link_fact_days')`;
    for (const index of indexes) {
      await sql.unsafe(index.primary ? `ALTER TABLE "${index.table}" DROP CONSTRAINT "${index.name}"` : `DROP INDEX "${index.name}"`);
    }
    // No trigger for this load: the search table is filled once below, as migration 0006 fills it, and the
    // visits' foreign keys are not checked row by row (every code is one of the links just made).
    await sql`SET session_replication_role = replica`;
    const first = now.getTime() - shape.links * 10_000;
    // linkOptionsOf, in SQL.
    const nowMs = now.getTime();
    await sql`
      INSERT INTO links (code, long_url, manage_token_hash, access_count, sorted_access_count, created_at, updated_at, tags, expires_at, max_visits)
      SELECT ${sql.unsafe(keySql)}, 'https://example.com/articles/' || n || '/' || md5(n::text), md5('token' || n),
             CASE WHEN n % 50 = 1 AND n % 2000 = 1 THEN 5 ELSE 0 END, CASE WHEN n % 50 = 1 AND n % 2000 = 1 THEN 5 ELSE 0 END,
             to_timestamp((${first}::bigint + n::bigint * 10000) / 1000.0), to_timestamp((${first}::bigint + n::bigint * 10000) / 1000.0),
             array_remove(ARRAY[CASE WHEN n % 3 = 0 THEN ${scaleTags.common} END, CASE WHEN n % 10007 = 0 THEN ${scaleTags.rare} END], NULL),
             CASE WHEN n % 40 = 0 THEN to_timestamp((${nowMs}::bigint - ${hourMs}) / 1000.0)
                  WHEN n % 20 = 0 THEN to_timestamp((${nowMs}::bigint + ${24 * hourMs}) / 1000.0) END,
             CASE WHEN n % 50 = 1 THEN 5 END
      FROM generate_series(1, ${shape.links}::int) AS n`;
    await sql`INSERT INTO links_search (code, long_url) SELECT code, long_url FROM links`;
    await sql`INSERT INTO link_tags (code, tag, created_at) SELECT code, unnest(tags), created_at FROM links`;
    const firstVisited = shape.links - shape.visitedLinks + 1;
    const hourlyFrom = midnight(now, hourlyDays).getTime();
    await sql`
      INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots)
      SELECT ${sql.unsafe(keySql)}, to_timestamp((${midnight(now, yearDays).getTime()}::bigint + d::bigint * 86400000) / 1000.0), 24, 10 + (n + d) % 20, (n + d) % 3
      FROM generate_series(${firstVisited}::int, ${shape.links}::int) AS n, generate_series(0, ${yearDays - hourlyDays - 1}::int) AS d
      WHERE (n + d) % ${visitEvery} = 0`;
    await sql`
      INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots)
      SELECT ${sql.unsafe(keySql)}, to_timestamp((${hourlyFrom}::bigint + d::bigint * 86400000 + h::bigint * 3600000) / 1000.0), 1, 2 + (n + h) % 5, (n + h) % 2
      FROM generate_series(${firstVisited}::int, ${shape.links}::int) AS n, generate_series(0, ${hourlyDays - 1}::int) AS d, unnest(ARRAY[9, 12, 15, 20]) AS h
      WHERE (n + d) % ${visitEvery} = 0`;
    // A link-day's breakdowns in one document (migration 0030): one value per breakdown.
    const document = dimensions.map((dim) => `'${dim}', jsonb_build_object('${dim}-' || ((n + d) % 7), jsonb_build_array(10 + (n + d) % 20, 0))`).join(", ");
    await sql`
      INSERT INTO link_fact_days (code, day, facts)
      SELECT ${sql.unsafe(keySql)}, ${midnight(now, yearDays).toISOString().slice(0, 10)}::date + d, jsonb_build_object(${sql.unsafe(document)})
      FROM generate_series(${firstVisited}::int, ${shape.links}::int) AS n, generate_series(0, ${yearDays - 1}::int) AS d
      WHERE (n + d) % ${visitEvery} = 0`;
    await sql`SET session_replication_role = DEFAULT`;
    // Each index on a connection of its own: Postgres builds them side by side. The visits tables'
    // first, which summing the finished days reads; the links' (the trigram ones take longest)
    // while the days are summed.
    const build = async (index: (typeof indexes)[number]) => {
      const own = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        await own.unsafe("SET maintenance_work_mem = '1GB'");
        await own.unsafe(index.definition);
        if (index.primary) await own.unsafe(`ALTER TABLE "${index.table}" ADD CONSTRAINT "${index.name}" PRIMARY KEY USING INDEX "${index.name}"`);
      } finally {
        await own.end();
      }
    };
    const ofVisits = (index: (typeof indexes)[number]) => index.table.startsWith("link_visit_") || index.table === "link_fact_days";
    await Promise.all(indexes.filter(ofVisits).map(build));
    await Promise.all([...indexes.filter((index) => !ofVisits(index)).map(build), sumFinishedDays({ engine: "postgres", url: database.url }, now)]);
    // As autovacuum would have by now: the visibility map lets the summed tables be read from their indexes alone.
    await sql`VACUUM ANALYZE`;
    const [counts] = await sql<{ links: string; buckets: string; facts: string }[]>`
      SELECT (SELECT count(*) FROM links) AS links, (SELECT count(*) FROM link_visit_buckets) AS buckets, (SELECT count(*) FROM link_fact_days) AS facts`;
    return {
      engine: "postgres",
      url: database.url,
      buildMs: performance.now() - started,
      rows: { links: Number(counts!.links), buckets: Number(counts!.buckets), facts: Number(counts!.facts) },
      drop: () => database.drop(),
    };
  } finally {
    await sql.end();
  }
}

export async function buildSqlite(shape: ScaleShape, now: Date): Promise<BuiltDatabase> {
  const started = performance.now();
  const path = join(tmpdir(), `linkgeo-scale-${process.pid}-${shape.links}.db`);
  const files = [path, `${path}-wal`, `${path}-shm`];
  for (const file of files) rmSync(file, { force: true });
  await (await openDatabase({ engine: "sqlite", path })).close();
  await restoreBrand({ engine: "sqlite", url: `sqlite://${path}` });
  let db = new SqliteDatabase(path);
  try {
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF");
    const dropped = db
      .query<{ name: string; type: string; sql: string }, []>(
        "SELECT name, type, sql FROM sqlite_master WHERE tbl_name IN ('links', 'link_tags', 'link_visit_buckets', 'link_fact_days') AND type IN ('index', 'trigger') AND sql IS NOT NULL",
      )
      .all();
    for (const object of dropped) db.exec(`DROP ${object.type.toUpperCase()} "${object.name}"`);
    const first = now.getTime() - shape.links * 10_000;
    const insertLink = db.prepare(
      "INSERT INTO links (code, long_url, manage_token_hash, access_count, sorted_access_count, created_at, updated_at, tags, expires_at, max_visits) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7, ?8, ?9)",
    );
    db.transaction(() => {
      for (let n = 1; n <= shape.links; n++) {
        const at = first + n * 10_000;
        const { tags, expiresAt, maxVisits, accessCount } = linkOptionsOf(n, now);
        insertLink.run(
          keyOf(n),
          `https://example.com/articles/${n}/${Bun.hash(String(n)).toString(16)}`,
          `token${n}`,
          accessCount,
          at,
          at,
          JSON.stringify(tags),
          expiresAt,
          maxVisits,
        );
      }
    })();
    db.exec("INSERT INTO links_search (links_search) VALUES ('rebuild')");
    db.exec("INSERT INTO link_tags (code, tag, created_at) SELECT code, value, created_at FROM links, json_each(links.tags)");

    const firstVisited = shape.links - shape.visitedLinks + 1;
    const yearStart = midnight(now, yearDays).getTime();
    const hourlyFrom = midnight(now, hourlyDays).getTime();
    const insertBucket = db.prepare("INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (?, ?, ?, ?, ?)");
    const insertFactDay = db.prepare("INSERT INTO link_fact_days (code, day, facts) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let n = firstVisited; n <= shape.links; n++) {
        const code = keyOf(n);
        for (let d = 0; d < yearDays; d++) {
          if ((n + d) % visitEvery !== 0) continue;
          const dayStart = yearStart + d * 86_400_000;
          if (dayStart < hourlyFrom) insertBucket.run(code, dayStart, 24, 10 + ((n + d) % 20), (n + d) % 3);
          else for (const h of [9, 12, 15, 20]) insertBucket.run(code, dayStart + h * 3_600_000, 1, 2 + ((n + h) % 5), (n + h) % 2);
          const day = new Date(dayStart).toISOString().slice(0, 10);
          const facts = Object.fromEntries(dimensions.map((dimension) => [dimension, { [`${dimension}-${(n + d) % 7}`]: [10 + ((n + d) % 20), 0] }]));
          insertFactDay.run(code, day, JSON.stringify(facts));
        }
      }
    })();
    for (const object of dropped) db.exec(object.sql);
    db.close();
    await sumFinishedDays({ engine: "sqlite", path }, now);
    db = new SqliteDatabase(path);
    db.exec("ANALYZE");
    const count = (table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    const rows = { links: count("links"), buckets: count("link_visit_buckets"), facts: count("link_fact_days") };
    return {
      engine: "sqlite",
      url: `sqlite:///${path}`,
      buildMs: performance.now() - started,
      rows,
      drop: async () => {
        for (const file of files) rmSync(file, { force: true });
      },
    };
  } finally {
    db.close();
  }
}
