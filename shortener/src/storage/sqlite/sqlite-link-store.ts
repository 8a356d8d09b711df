import { domainKeyRange } from "../../links/link-key.ts";
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { LinkPage, LinkQuery, LinkStore, VisitAccess } from "../../links/link-store.ts";
import { insertManyChunks } from "../insert-many.ts";
import * as counts from "../listing-counts.ts";
import type { LinkOrder } from "../../links/link-order.ts";
import { grantedVisits, type LinkState, type VisitClaim } from "../../links/destination.ts";
import type { ImportedLink, Link, LinkChanges, NewLink } from "../../links/link.ts";
import type { HoldChange } from "../../links/link-hold.ts";
import type { LinkVisits } from "../../visits/link-visits.ts";
import { domainPart, likePattern, workspacePart, type Filter, type FilterName, type FilterPart } from "../link-filter-sql.ts";
import { linkOrderSql, sortedByVisits } from "../link-order-sql.ts";
import type { SqliteVisitLog } from "./sqlite-visit-log.ts";
import { takeOutOfRollups } from "./sqlite-visit-rollups.ts";
import { missingWorkspace, missingWorkspaceAmong } from "../missing-workspace.ts";
import { linkColumns, links, linkTags, workspaces } from "./schema.ts";

/*
 * bun:sqlite is synchronous, so every method finishes before it returns;
 * WAL with synchronous=NORMAL makes a committed write survive a killed process.
 */

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
  hold: links.hold,
  accessCount: links.accessCount,
};

/** Links that let every visit through without a look at their row: no cap, no expiry, no hold, no password unless it was given. */
function plainLink(access: VisitAccess): SQL {
  const open = and(isNull(links.maxVisits), isNull(links.expiresAt), isNull(links.hold))!;
  return access.unlocked ? open : and(open, isNull(links.passwordHash))!;
}

/**
 * The count write's three statements, prepared once: built per link and
 * batch, Drizzle's query building and SQLite's prepare were a quarter of
 * the CPU of redirects spread over many links. Parameters: `code`,
 * `visits`, `at` (ms).
 */
function countStatements(db: BunSQLiteDatabase) {
  // The counts only: no index names them, so no index entry moves (SQLite updates every index that names a
  // column the SET assigns, whatever its value). A plain link's sort keys are the summing step's (sqlite-visit-log.ts).
  const counted = { accessCount: sql`${links.accessCount} + ${sql.placeholder("visits")}`, lastAccessedAt: sql`${sql.placeholder("at")}` };
  // Any other link (a cap, an expiry, a password) also gets its count's copy when it has a cap, so that the
  // exhausted filter (an index whose predicate reads the copy) is exact.
  const countedKeepingCap = {
    ...counted,
    sortedAccessCount: sql`CASE WHEN ${links.maxVisits} IS NULL THEN ${links.sortedAccessCount} ELSE ${links.accessCount} + ${sql.placeholder("visits")} END`,
  };
  const ofCode = eq(links.code, sql.placeholder("code"));
  const countPlain = (access: VisitAccess) =>
    db
      .update(links)
      .set(counted)
      .where(and(ofCode, plainLink(access)))
      .returning(destinationColumns)
      .prepare();
  return {
    /** Counts a link that lets every visit through (plainLink), answering its destination; none when it is not one. */
    plain: { locked: countPlain({ unlocked: false }), unlocked: countPlain({ unlocked: true }) },
    /** A link's destination and count, to judge what it lets through. */
    find: db.select(destinationColumns).from(links).where(ofCode).prepare(),
    /** Counts `visits` of a link whatever it is. */
    count: db.update(links).set(countedKeepingCap).where(ofCode).prepare(),
  };
}

export class SqliteLinkStore implements LinkStore {
  private readonly counting: ReturnType<typeof countStatements>;
  private readonly insertImportedRow: Statement<{ rowid: number; code: string }, ImportedRow>;
  private readonly startBulkInsert: Statement<unknown, [number]>;
  private readonly endBulkInsert: Statement;
  private readonly indexBulkSearch: Statement<unknown, [string]>;
  private readonly indexBulkTags: Statement<unknown, [string]>;

  constructor(
    private readonly db: BunSQLiteDatabase & { $client: Database },
    private readonly visitLog: SqliteVisitLog,
    private readonly limits: counts.CountLimits = counts.defaultCountLimits,
  ) {
    this.counting = countStatements(db);
    // Prepared once, run per link in one transaction: SQLite's fastest bulk insert (no statement of a thousand rows to parse).
    this.insertImportedRow = db.$client.prepare(
      `INSERT INTO links (code, long_url, manage_token_hash, access_count, last_accessed_at, created_at, updated_at,
         expires_at, max_visits, expired_url, redirect_status, password_hash, tags, title, forward_query, rules,
         workspace_id, public_stats, sorted_access_count, sorted_last_accessed_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?4, ?5) ON CONFLICT (code) DO NOTHING RETURNING rowid, code`,
    );
    // A bulk insert's search and tag rows, one statement each (migration 0012): the rows named by a JSON array of rowids.
    this.startBulkInsert = db.$client.prepare("INSERT INTO links_bulk_insert (since) VALUES (?)");
    this.endBulkInsert = db.$client.prepare("DELETE FROM links_bulk_insert");
    this.indexBulkSearch = db.$client.prepare(
      "INSERT INTO links_search (rowid, code, long_url) SELECT rowid, code, long_url FROM links WHERE rowid IN (SELECT value FROM json_each(?))",
    );
    this.indexBulkTags = db.$client.prepare(
      `INSERT OR IGNORE INTO link_tags (code, tag, created_at)
       SELECT links.code, tags.value, links.created_at FROM links, json_each(links.tags) AS tags WHERE links.rowid IN (SELECT value FROM json_each(?))`,
    );
  }

  async insert(link: NewLink): Promise<Link | null> {
    try {
      const rows = this.db
        .insert(links)
        .values({ ...link, updatedAt: link.createdAt })
        .onConflictDoNothing({ target: links.code })
        .returning(linkColumns)
        .all();
      return rows[0] ?? null;
    } catch (error) {
      return missingWorkspace(link.workspaceId)(error);
    }
  }

  async insertMany(newLinks: readonly NewLink[]): Promise<Link[]> {
    try {
      return this.insertManyNow(newLinks);
    } catch (error) {
      return await missingWorkspaceAmong(
        newLinks.map((link) => link.workspaceId),
        (ids) =>
          new Set(
            this.db
              .select({ id: workspaces.id })
              .from(workspaces)
              .where(inArray(workspaces.id, ids))
              .all()
              .map((row) => row.id),
          ),
      )(error);
    }
  }

  private insertManyNow(newLinks: readonly NewLink[]): Link[] {
    // One transaction: one commit for every chunk, where each statement alone would commit on its own.
    return this.db.$client.transaction(() =>
      insertManyChunks(newLinks).flatMap((chunk) =>
        this.db
          .insert(links)
          .values(chunk.map((link) => ({ ...link, updatedAt: link.createdAt })))
          .onConflictDoNothing({ target: links.code })
          .returning(linkColumns)
          .all(),
      ),
    )();
  }

  async find(code: string): Promise<Link | null> {
    return this.db.select(linkColumns).from(links).where(eq(links.code, code)).get() ?? null;
  }

  async findByManageTokenHash(hash: string): Promise<Link | null> {
    return this.db.select(linkColumns).from(links).where(eq(links.manageTokenHash, hash)).get() ?? null;
  }

  async update(code: string, changes: LinkChanges, at: Date, heldAs?: HoldChange): Promise<Link | null> {
    // `IS` is SQLite's equality that holds for two NULLs.
    const stillHeld = heldAs && sql`${links.hold} IS ${heldAs.hold} AND ${links.holdReason} IS ${heldAs.reason}`;
    try {
      return (
        this.db
          .update(links)
          // The listing's copy of the count made exact: a cap set now is judged by it (stateCondition).
          .set({ ...changes, updatedAt: at, sortedAccessCount: sql`${links.accessCount}` })
          .where(and(eq(links.code, code), stillHeld))
          .returning(linkColumns)
          .get() ?? null
      );
    } catch (error) {
      return missingWorkspace(changes.workspaceId)(error);
    }
  }

  async delete(code: string): Promise<boolean> {
    const sqlite = this.db.$client;
    return sqlite.transaction(() => {
      takeOutOfRollups(sqlite, code);
      this.visitLog.takeOut(code);
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
    // The prepared statements run on the one connection, so inside this transaction.
    this.db.transaction(
      () => {
        for (const [code, asked] of visits) {
          // One writer at a time (SQLite's lock, taken at BEGIN IMMEDIATE): what is read here is what the
          // update adds to. Expiry is judged now, not when the batch left: waiting for the lock moves `at` on.
          const lockedAt = new Date(at.getTime() + (performance.now() - started));
          let linkVisits = asked;
          const plain = this.counting.plain[access.unlocked ? "unlocked" : "locked"].get({ code, visits: asked.count, at: at.getTime() });
          if (plain) claims.set(code, { destination: plain, granted: asked.count });
          else {
            // An expiry past, a cap or a password (or no such link): let through what grantedVisits allows.
            const found = this.counting.find.get({ code });
            if (!found) continue;
            const granted = grantedVisits(found, asked.count, lockedAt, access.unlocked);
            claims.set(code, { destination: { ...found, accessCount: found.accessCount + granted }, granted });
            if (granted === 0) continue;
            linkVisits = asked.first(granted);
            this.counting.count.run({ code, visits: granted, at: at.getTime() });
          }
          // Analytics off too (no humans nor bots): the summing step refreshes the link's sort keys.
          this.visitLog.add(code, at, linkVisits);
        }
      },
      { behavior: "immediate" },
    );
    return claims;
  }

  async list({ offset, limit, search, order = "newest", tag, state, domainId, workspaceId }: LinkQuery): Promise<LinkPage> {
    if (sortedByVisits(order)) this.visitLog.settle();
    const filter = await this.filterOf(search, tag, state, domainId, workspaceId);
    const rows = filter === undefined ? this.pageOf(undefined, order, offset, limit + 1) : this.filteredPage(filter, order, offset, limit + 1);
    const page = { links: rows.slice(0, limit), hasMore: rows.length > limit };
    // Counting a million rows takes SQLite ~10 ms; matching a search against them all does not.
    const tableSize = () => this.db.select({ value: count() }).from(links).get()?.value ?? 0;
    if (filter === undefined) return { ...page, count: tableSize(), countIsEstimate: false };

    const sample = () =>
      this.db.all<counts.CountSample>(
        sql`SELECT count(*) FILTER (WHERE ${filter.plain}) AS matches, count(*) AS sampled
            FROM (SELECT * FROM ${links} ORDER BY ${sql.raw(linkOrderSql.newest)} LIMIT ${this.limits.sample}) AS ${links}`,
      )[0]!;
    // Read from link_tags when the tag is the index: SQLite would build `code IN (SELECT … link_tags …)` whole first.
    const matches =
      filter.byTag === undefined
        ? this.db.select({ one: sql`1` }).from(links).where(filter.indexed)
        : this.db
            .select({ one: sql`1` })
            .from(linkTags)
            .innerJoin(links, eq(links.code, linkTags.code))
            .where(and(eq(linkTags.tag, filter.byTag), filter.besidesTag));
    const countUpTo = async () =>
      this.db
        .select({ value: count() })
        .from(matches.limit(this.limits.exact + 1).as("matches"))
        .get()?.value ?? 0;
    if (!filter.searched)
      return {
        ...page,
        ...(await counts.filterCount(
          this.limits,
          countUpTo,
          async () => tableSize(),
          async () => sample(),
        )),
      };
    return { ...page, ...(await counts.searchCount(this.limits, tableSize(), sample(), countUpTo)) };
  }

  async exportPage(after: string | null, limit: number, workspaceId?: number): Promise<Link[]> {
    return this.db
      .select(linkColumns)
      .from(links)
      .where(and(after === null ? undefined : gt(links.code, after), workspaceId === undefined ? undefined : eq(links.workspaceId, workspaceId)))
      .orderBy(asc(links.code))
      .limit(limit)
      .all();
  }

  async keysOn(domainId: number, limit: number): Promise<string[]> {
    const range = domainKeyRange(domainId);
    if (range === undefined) return [];
    const rows = this.db
      .select({ code: links.code })
      .from(links)
      .where(and(gte(links.code, range.from), lt(links.code, range.to)))
      .orderBy(asc(links.code))
      .limit(limit)
      .all();
    return rows.map((row) => row.code);
  }

  async findMany(codes: readonly string[]): Promise<Link[]> {
    if (codes.length === 0) return [];
    return this.db
      .select(linkColumns)
      .from(links)
      .where(inArray(links.code, [...codes]))
      .all();
  }

  async insertImported(batch: readonly ImportedLink[]): Promise<string[]> {
    return this.db.$client.transaction(() => {
      this.startBulkInsert.run(Date.now());
      const inserted = batch.flatMap((link) => this.insertImportedRow.get(...importedRow(link)) ?? []);
      const rowids = JSON.stringify(inserted.map((row) => row.rowid));
      this.indexBulkSearch.run(rowids);
      this.indexBulkTags.run(rowids);
      this.endBulkInsert.run();
      return inserted.map((row) => row.code);
    })();
  }

  private pageOf(where: SQL | undefined, order: LinkOrder, offset: number, limit: number): Link[] {
    return this.db.select(linkColumns).from(links).where(where).orderBy(sql.raw(linkOrderSql[order])).limit(limit).offset(offset).all();
  }

  /**
   * A filtered page (a search, a tag, a state), the cheaper of two ways.
   * Where matches are common, the first `searchProbeRows` links in the
   * page's order (read in index order) hold the whole page, and the index
   * of every match would cost more than reading them; otherwise the indexes
   * find the few matches: the trigram one, link_tags (read in its own
   * order, newest first, when that is the page's), the partial ones of the
   * states.
   */
  private filteredPage(filter: Filter, order: LinkOrder, offset: number, limit: number): Link[] {
    const orderSql = sql.raw(linkOrderSql[order]);
    const [probed] = this.db.all<{ found: number }>(
      sql`SELECT count(*) AS found FROM (SELECT 1 FROM (SELECT * FROM ${links} ORDER BY ${orderSql} LIMIT ${counts.searchProbeRows}) AS ${links} WHERE ${filter.plain} LIMIT ${offset + limit})`,
    );
    if (probed!.found === offset + limit) return this.pageOf(filter.plain, order, offset, limit);
    if (filter.byTag === undefined || order !== "newest") return this.pageOf(filter.indexed, order, offset, limit);
    return this.db
      .select(linkColumns)
      .from(linkTags)
      .innerJoin(links, eq(links.code, linkTags.code))
      .where(and(eq(linkTags.tag, filter.byTag), filter.besidesTag))
      .orderBy(desc(linkTags.createdAt), linkTags.code)
      .limit(limit)
      .offset(offset)
      .all();
  }

  /** The filters as one, the matches read through the index counts.fewestMatches picks. */
  private async filterOf(
    search: string | undefined,
    tag: string | undefined,
    state: LinkQuery["state"],
    domainId: number | undefined,
    workspaceId: number | undefined,
  ): Promise<Filter | undefined> {
    const upTo = (query: SQL) => async () => this.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (${query} LIMIT ${this.limits.exact + 1})`)[0]!.n;
    const parts: Partial<Record<FilterName, FilterPart>> = {};
    if (tag !== undefined) {
      // Tags are [a-z0-9_-]: JSON writes them without escapes, so a quoted tag in the array's text is that tag.
      const plain = sql`instr(${links.tags}, ${`"${tag}"`}) > 0`;
      parts.tag = {
        plain,
        test: plain,
        through: sql`${links.code} IN (SELECT ${linkTags.code} FROM ${linkTags} WHERE ${linkTags.tag} = ${tag})`,
        matchesUpTo: upTo(sql`SELECT 1 FROM ${linkTags} WHERE ${linkTags.tag} = ${tag}`),
      };
    }
    // `active` is most links: no index, read in the page's order.
    if (state !== undefined) {
      const plain = stateCondition(state.is, state.at, "plain");
      const indexed = stateCondition(state.is, state.at, "indexed");
      parts.state =
        state.is === "active"
          ? { plain, test: plain }
          : { plain, test: plain, through: indexed, matchesUpTo: upTo(sql`SELECT 1 FROM ${links} WHERE ${indexed}`) };
    }
    if (search !== undefined) {
      const like = likeCondition(search);
      // Searches of one or two characters have no index (searchCondition).
      parts.search = [...search].length < 3 ? { plain: like, test: like } : { plain: like, test: like, through: searchCondition(search) };
    }
    if (domainId !== undefined)
      parts.domain = domainPart(domainKeyRange(domainId), sql`${links.code}`, sql`instr(${links.code}, '~') = 0`, upTo, sql`${links}`);
    if (workspaceId !== undefined) parts.workspace = workspacePart(workspaceId, sql`${links.workspaceId}`, upTo, sql`${links}`);
    const named = Object.entries(parts) as Array<[FilterName, FilterPart]>;
    if (named.length === 0) return undefined;

    const indexed = named.flatMap(([name, part]) => (part.matchesUpTo ? [{ name, matchesUpTo: part.matchesUpTo }] : []));
    const shares = async () => {
      const columns = sql.join(
        indexed.map(({ name }) => sql`count(*) FILTER (WHERE ${parts[name]!.plain}) AS ${sql.identifier(name)}`),
        sql`, `,
      );
      return this.db.all<Record<FilterName, number>>(
        sql`SELECT ${columns} FROM (SELECT * FROM ${links} ORDER BY ${sql.raw(linkOrderSql.newest)} LIMIT ${this.limits.sample}) AS ${links}`,
      )[0]!;
    };
    const driver =
      (await counts.fewestMatches(this.limits, indexed, parts.search?.through !== undefined, shares)) ?? (parts.search?.through ? "search" : undefined);
    const tested = (except: FilterName | undefined) => and(...named.filter(([name]) => name !== except).map(([, part]) => part.test));
    return {
      plain: and(...named.map(([, part]) => part.plain))!,
      indexed: driver === undefined ? tested(undefined)! : and(parts[driver]!.through, tested(driver))!,
      byTag: driver === "tag" ? tag : undefined,
      besidesTag: tested("tag"),
      searched: search !== undefined,
    };
  }
}

/**
 * linkState (links/destination.ts) in SQL, at `at` (ms, as stored), two
 * ways. `indexed`: the used-up test is written as links_exhausted_idx's
 * predicate and the expired one implies links_expires_at_idx's (migration
 * 0010), so SQLite may read them. `plain`: the same through coalesce(),
 * which implies neither (SQLite sees through `+col`), so a page read in
 * its order's index is not traded for a whole partial index and a sort.
 */
function stateCondition(state: LinkState, at: Date, form: "indexed" | "plain"): SQL {
  // A hold comes before the rest (linkState): a held link is in its hold's state only.
  if (state === "quarantined" || state === "disabled") return sql`"links"."hold" = ${state}`;
  return sql`"links"."hold" IS NULL AND ${unheldStateCondition(state, at, form)}`;
}

function unheldStateCondition(state: Exclude<LinkState, "quarantined" | "disabled">, at: Date, form: "indexed" | "plain"): SQL {
  const ms = at.getTime();
  if (form === "plain") {
    const notExpired = sql`coalesce("links"."expires_at", ${ms + 1}) > ${ms}`;
    if (state === "expired") return sql`coalesce("links"."expires_at", ${ms + 1}) <= ${ms}`;
    if (state === "exhausted") return sql`coalesce("links"."access_count" >= "links"."max_visits", 0) AND ${notExpired}`;
    return sql`${notExpired} AND coalesce("links"."access_count" < "links"."max_visits", 1)`;
  }
  const notExpired = sql`("links"."expires_at" IS NULL OR "links"."expires_at" > ${ms})`;
  if (state === "expired") return sql`"links"."expires_at" IS NOT NULL AND "links"."expires_at" <= ${ms}`;
  // A capped link's sorted_access_count is its count (the count write keeps it): the index's predicate, exact.
  if (state === "exhausted") return sql`"links"."max_visits" IS NOT NULL AND "links"."sorted_access_count" >= "links"."max_visits" AND ${notExpired}`;
  return sql`${notExpired} AND ("links"."max_visits" IS NULL OR "links"."access_count" < "links"."max_visits")`;
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
  number | null,
  number,
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
    link.workspaceId ?? null,
    link.publicStats ? 1 : 0,
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
  return sql`${links}.rowid IN (SELECT rowid FROM links_search WHERE links_search MATCH ${ftsPhrase(search)}) AND (${like})`;
}

/** A search as one FTS5 phrase: its own syntax (quotes, NEAR, *) is plain text. */
function ftsPhrase(search: string): string {
  return `"${search.replaceAll('"', '""')}"`;
}
