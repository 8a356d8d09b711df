import { and, asc, count, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import {
  countSampleSize,
  exactCountLimit,
  likePattern,
  searchCount,
  searchProbeRows,
  type LinkPage,
  type LinkQuery,
  type LinkStore,
  type VisitAccess,
} from "../../links/link-store.ts";
import type { LinkOrder } from "../../links/link-order.ts";
import { grantedVisits, type VisitClaim } from "../../links/destination.ts";
import type { ImportedLink, Link, LinkChanges, NewLink } from "../../links/link.ts";
import { dimensions, type LinkVisits } from "../../visits/link-visits.ts";
import { otherValue, withinNamedValues } from "../../visits/named-values.ts";
import { linkOrderSql } from "../link-order-sql.ts";
import { takeOutOfRollups } from "./sqlite-visit-rollups.ts";
import { links } from "./schema.ts";

/**
 * bun:sqlite is synchronous, so every method finishes before it returns;
 * WAL with synchronous=NORMAL makes a committed write survive a killed process.
 */
const hourMs = 3_600_000;

/** What a redirect needs of a link (Destination), and its count; never the password hash itself. */
const destinationColumns = {
  longUrl: links.longUrl,
  redirectStatus: links.redirectStatus,
  forwardQuery: links.forwardQuery,
  rules: links.rules,
  expiresAt: links.expiresAt,
  maxVisits: links.maxVisits,
  expiredUrl: links.expiredUrl,
  passwordProtected: sql<boolean>`${links.passwordHash} IS NOT NULL`.mapWith(Boolean),
  accessCount: links.accessCount,
};

/** Links that let every visit through without a look at their row: no cap, no expiry, no password unless it was given. */
function plainLink(access: VisitAccess): SQL {
  const open = and(isNull(links.maxVisits), isNull(links.expiresAt))!;
  return access.unlocked ? open : and(open, isNull(links.passwordHash))!;
}

export class SqliteLinkStore implements LinkStore {
  private readonly addToBucket: Statement<unknown, [string, number, number, number]>;
  private readonly addToFacts: Statement<unknown, [string, string, string, string, number]>;
  private readonly countNamed: Statement<{ named: number }, [string, string, string, string]>;
  private readonly findNamed: Statement<unknown, [string, string, string, string]>;
  private readonly insertImported: Statement<{ code: string }, ImportedRow>;

  constructor(private readonly db: BunSQLiteDatabase & { $client: Database }) {
    this.addToBucket = db.$client.prepare(
      `INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (code, starts_at) DO UPDATE SET humans = humans + excluded.humans, bots = bots + excluded.bots`,
    );
    this.addToFacts = db.$client.prepare(
      `INSERT INTO link_visit_facts (code, day, dimension, value, visits) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (code, day, dimension, value) DO UPDATE SET visits = visits + excluded.visits`,
    );
    this.countNamed = db.$client.prepare("SELECT count(*) AS named FROM link_visit_facts WHERE code = ? AND day = ? AND dimension = ? AND value <> ?");
    this.findNamed = db.$client.prepare("SELECT 1 FROM link_visit_facts WHERE code = ? AND day = ? AND dimension = ? AND value = ?");
    // Prepared once, run per link in one transaction: SQLite's fastest bulk insert (no statement of a thousand rows to parse).
    this.insertImported = db.$client.prepare(
      `INSERT INTO links (code, long_url, manage_token_hash, access_count, last_accessed_at, created_at, updated_at,
         expires_at, max_visits, expired_url, redirect_status, password_hash, tags, title, forward_query, rules)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING RETURNING code`,
    );
  }

  async insert(link: NewLink): Promise<Link | null> {
    const rows = this.db
      .insert(links)
      .values({ ...link, updatedAt: link.createdAt })
      .onConflictDoNothing({ target: links.code })
      .returning()
      .all();
    return rows[0] ?? null;
  }

  async find(code: string): Promise<Link | null> {
    return this.db.select().from(links).where(eq(links.code, code)).get() ?? null;
  }

  async findByManageTokenHash(hash: string): Promise<Link | null> {
    return this.db.select().from(links).where(eq(links.manageTokenHash, hash)).get() ?? null;
  }

  async update(code: string, changes: LinkChanges, at: Date): Promise<Link | null> {
    return (
      this.db
        .update(links)
        .set({ ...changes, updatedAt: at })
        .where(eq(links.code, code))
        .returning()
        .get() ?? null
    );
  }

  async delete(code: string): Promise<boolean> {
    const sqlite = this.db.$client;
    return sqlite.transaction(() => {
      takeOutOfRollups(sqlite, code);
      return sqlite.query("DELETE FROM links WHERE code = ?").run(code).changes > 0;
    })();
  }

  async recordVisits(
    visits: ReadonlyMap<string, LinkVisits>,
    at: Date,
    deadline?: AbortSignal,
    access: VisitAccess = { unlocked: false },
  ): Promise<Map<string, VisitClaim>> {
    // Synchronous: once started it commits before any timer can fire, so the
    // deadline only matters before it starts.
    if (deadline?.aborted) throw deadline.reason;
    const started = performance.now();
    const claims = new Map<string, VisitClaim>();
    const hour = Math.floor(at.getTime() / hourMs) * hourMs;
    const day = at.toISOString().slice(0, 10);
    this.db.transaction(
      (tx) => {
        for (const [code, asked] of visits) {
          // One writer at a time (SQLite's lock, taken at BEGIN IMMEDIATE): what is read here is what the
          // update adds to. Expiry is judged now, not when the batch left: waiting for the lock moves `at` on.
          const lockedAt = new Date(at.getTime() + (performance.now() - started));
          let linkVisits = asked;
          const plain = tx
            .update(links)
            .set({ accessCount: sql`${links.accessCount} + ${asked.count}`, lastAccessedAt: at })
            .where(and(eq(links.code, code), plainLink(access)))
            .returning(destinationColumns)
            .get();
          if (plain) claims.set(code, { destination: plain, granted: asked.count });
          else {
            // An expiry past, a cap or a password (or no such link): let through what grantedVisits allows.
            const found = tx.select(destinationColumns).from(links).where(eq(links.code, code)).get();
            if (!found) continue;
            const granted = grantedVisits(found, asked.count, lockedAt, access.unlocked);
            claims.set(code, { destination: { ...found, accessCount: found.accessCount + granted }, granted });
            if (granted === 0) continue;
            linkVisits = asked.first(granted);
            tx.update(links)
              .set({ accessCount: sql`${links.accessCount} + ${granted}`, lastAccessedAt: at })
              .where(eq(links.code, code))
              .run();
          }
          if (!linkVisits.analysed) continue;
          this.addToBucket.run(code, hour, linkVisits.humans, linkVisits.bots);
          for (const dimension of dimensions) {
            // One writer: what these reads see is what the day holds when the rows below are added.
            const named = {
              count: this.countNamed.get(code, day, dimension, otherValue)!.named,
              has: (value: string) => this.findNamed.get(code, day, dimension, value) !== null,
            };
            for (const [value, count] of withinNamedValues(linkVisits.byDimension[dimension], named)) this.addToFacts.run(code, day, dimension, value, count);
          }
        }
      },
      { behavior: "immediate" },
    );
    return claims;
  }

  async list({ offset, limit, search, order = "newest" }: LinkQuery): Promise<LinkPage> {
    const rows = search === undefined ? this.pageOf(undefined, order, offset, limit + 1) : this.searchPage(search, order, offset, limit + 1);
    const page = { links: rows.slice(0, limit), hasMore: rows.length > limit };
    // Counting a million rows takes SQLite ~10 ms; matching a search against them all does not.
    const tableSize = () => this.db.select({ value: count() }).from(links).get()?.value ?? 0;
    if (search === undefined) return { ...page, count: tableSize(), countIsEstimate: false };

    const sample = this.db.$client
      .query<{ matches: number; sampled: number }, [string, string]>(
        `SELECT count(*) FILTER (WHERE code LIKE ?1 ESCAPE '\\' OR long_url LIKE ?2 ESCAPE '\\') AS matches, count(*) AS sampled
         FROM (SELECT code, long_url FROM links ORDER BY ${linkOrderSql.newest} LIMIT ${countSampleSize})`,
      )
      .get(likePattern(search), likePattern(search))!;
    const countUpTo = async () =>
      this.db
        .select({ value: count() })
        .from(
          this.db
            .select({ one: sql`1` })
            .from(links)
            .where(searchCondition(search))
            .limit(exactCountLimit + 1)
            .as("matches"),
        )
        .get()?.value ?? 0;
    return { ...page, ...(await searchCount(tableSize(), sample, countUpTo)) };
  }

  async exportPage(after: string | null, limit: number): Promise<Link[]> {
    return this.db
      .select()
      .from(links)
      .where(after === null ? undefined : gt(links.code, after))
      .orderBy(asc(links.code))
      .limit(limit)
      .all();
  }

  async findMany(codes: readonly string[]): Promise<Link[]> {
    if (codes.length === 0) return [];
    return this.db
      .select()
      .from(links)
      .where(inArray(links.code, [...codes]))
      .all();
  }

  async insertMany(batch: readonly ImportedLink[]): Promise<string[]> {
    return this.db.$client.transaction(() => batch.flatMap((link) => this.insertImported.get(...importedRow(link))?.code ?? []))();
  }

  private pageOf(where: SQL | undefined, order: LinkOrder, offset: number, limit: number): Link[] {
    return this.db.select().from(links).where(where).orderBy(sql.raw(linkOrderSql[order])).limit(limit).offset(offset).all();
  }

  /**
   * A search's page, the cheaper of two ways. Where matches are common, the
   * first `searchProbeRows` links in the page's order (read in index order)
   * hold the whole page, and the index of every match would cost more than
   * reading them; otherwise the trigram index finds the few matches.
   */
  private searchPage(search: string, order: LinkOrder, offset: number, limit: number): Link[] {
    const like = likeCondition(search);
    const orderSql = sql.raw(linkOrderSql[order]);
    const [probed] = this.db.all<{ found: number }>(
      sql`SELECT count(*) AS found FROM (SELECT 1 FROM (SELECT code, long_url FROM ${links} ORDER BY ${orderSql} LIMIT ${searchProbeRows}) AS ${links} WHERE ${like} LIMIT ${offset + limit})`,
    );
    if (probed!.found === offset + limit) return this.pageOf(like, order, offset, limit);
    return this.pageOf(searchCondition(search), order, offset, limit);
  }
}

/** An imported link's columns as schema.ts stores them: times in ms, lists as JSON, booleans as 0 or 1. */
type ImportedRow = [
  string,
  string,
  string,
  number,
  number | null,
  number,
  number,
  number | null,
  number | null,
  string | null,
  number | null,
  string | null,
  string,
  string | null,
  number,
  string,
];

function importedRow(link: ImportedLink): ImportedRow {
  return [
    link.code,
    link.longUrl,
    link.manageTokenHash,
    link.accessCount,
    link.lastAccessedAt?.getTime() ?? null,
    link.createdAt.getTime(),
    link.updatedAt.getTime(),
    link.expiresAt?.getTime() ?? null,
    link.maxVisits ?? null,
    link.expiredUrl ?? null,
    link.redirectStatus ?? null,
    link.passwordHash ?? null,
    JSON.stringify(link.tags ?? []),
    link.title ?? null,
    link.forwardQuery ? 1 : 0,
    JSON.stringify(link.rules ?? []),
  ];
}

/** `%`, `_` literal; ASCII case ignored, as by Postgres' ILIKE for ASCII. SQLite's LIKE has no escape character unless one is named. */
function likeCondition(search: string): SQL {
  const pattern = likePattern(search);
  return or(sql`${links.code} LIKE ${pattern} ESCAPE '\\'`, sql`${links.longUrl} LIKE ${pattern} ESCAPE '\\'`)!;
}

/**
 * A case-insensitive substring of the code or the long URL through the index:
 * from 3 characters the FTS5 trigram table (migration 0006) finds the
 * candidates and LIKE then checks each, so the answer is LIKE's even where
 * the index folds more than ASCII case. Shorter searches are LIKE alone.
 */
function searchCondition(search: string): SQL {
  const like = likeCondition(search);
  if ([...search].length < 3) return like;
  const phrase = `"${search.replaceAll('"', '""')}"`;
  return sql`${links}.rowid IN (SELECT rowid FROM links_search WHERE links_search MATCH ${phrase}) AND (${like})`;
}
