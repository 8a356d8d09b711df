import { count, eq, or, sql } from "drizzle-orm";
import type { Database, Statement } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { likePattern, type LinkPage, type LinkQuery, type LinkStore } from "../../links/link-store.ts";
import type { Link, NewLink } from "../../links/link.ts";
import type { LinkVisits } from "../../visits/link-visits.ts";
import { linkOrderSql } from "../link-order-sql.ts";
import { links } from "./schema.ts";

/**
 * bun:sqlite is synchronous, so every method finishes before it returns;
 * WAL with synchronous=NORMAL makes a committed write survive a killed process.
 */
const hourMs = 3_600_000;

export class SqliteLinkStore implements LinkStore {
  private readonly addToBucket: Statement<unknown, [string, number, number, number]>;
  private readonly addToFacts: Statement<unknown, [string, string, string, string, number]>;

  constructor(private readonly db: BunSQLiteDatabase & { $client: Database }) {
    this.addToBucket = db.$client.prepare(
      `INSERT INTO link_visit_buckets (code, starts_at, hours, humans, bots) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (code, starts_at) DO UPDATE SET humans = humans + excluded.humans, bots = bots + excluded.bots`,
    );
    this.addToFacts = db.$client.prepare(
      `INSERT INTO link_visit_facts (code, day, dimension, value, visits) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (code, day, dimension, value) DO UPDATE SET visits = visits + excluded.visits`,
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

  async updateLongUrl(code: string, longUrl: string, at: Date): Promise<Link | null> {
    return this.db.update(links).set({ longUrl, updatedAt: at }).where(eq(links.code, code)).returning().get() ?? null;
  }

  async delete(code: string): Promise<boolean> {
    return this.db.delete(links).where(eq(links.code, code)).returning({ code: links.code }).all().length > 0;
  }

  async recordVisits(visits: ReadonlyMap<string, LinkVisits>, at: Date, deadline?: AbortSignal): Promise<Map<string, string>> {
    // Synchronous: once started it commits before any timer can fire, so the
    // deadline only matters before it starts.
    if (deadline?.aborted) throw deadline.reason;
    const found = new Map<string, string>();
    const hour = Math.floor(at.getTime() / hourMs) * hourMs;
    const day = at.toISOString().slice(0, 10);
    this.db.transaction((tx) => {
      for (const [code, linkVisits] of visits) {
        const row = tx
          .update(links)
          .set({ accessCount: sql`${links.accessCount} + ${linkVisits.count}`, lastAccessedAt: at })
          .where(eq(links.code, code))
          .returning({ longUrl: links.longUrl })
          .get();
        if (!row) continue;
        found.set(code, row.longUrl);
        if (!linkVisits.analysed) continue;
        this.addToBucket.run(code, hour, linkVisits.humans, linkVisits.bots);
        for (const [dimension, value, count] of linkVisits.factRows()) this.addToFacts.run(code, day, dimension, value, count);
      }
    });
    return found;
  }

  async list({ offset, limit, search, order = "newest" }: LinkQuery): Promise<LinkPage> {
    // SQLite's LIKE ignores ASCII case, like Postgres' ILIKE, but has no
    // escape character unless one is named.
    const pattern = search ? likePattern(search) : "";
    const where = search ? or(sql`${links.code} LIKE ${pattern} ESCAPE '\\'`, sql`${links.longUrl} LIKE ${pattern} ESCAPE '\\'`) : undefined;
    const page = this.db.select().from(links).where(where).orderBy(sql.raw(linkOrderSql[order])).limit(limit).offset(offset).all();
    const total = this.db.select({ value: count() }).from(links).where(where).get();
    return { count: total?.value ?? 0, links: page };
  }
}
