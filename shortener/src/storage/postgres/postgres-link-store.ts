import { domainKeyRange } from "../../links/link-key.ts";
import { and, arrayContains, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PendingQuery, Row, Sql } from "postgres";
import { grantedVisits, type CountedDestination, type LinkState, type VisitClaim } from "../../links/destination.ts";
import type { LinkRule, RedirectStatus } from "../../links/link-options.ts";
import type { LinkPage, LinkQuery, LinkStore, VisitAccess } from "../../links/link-store.ts";
import { insertManyChunks } from "../insert-many.ts";
import * as counts from "../listing-counts.ts";
import type { LinkOrder } from "../../links/link-order.ts";
import type { ImportedLink, Link, LinkChanges, NewLink } from "../../links/link.ts";
import type { HoldChange, LinkHold } from "../../links/link-hold.ts";
import type { LinkVisits } from "../../visits/link-visits.ts";
import { loggedFacts } from "../../visits/visit-log.ts";
import { domainPart, likePattern, workspacePart, type Filter, type FilterName, type FilterPart } from "../link-filter-sql.ts";
import { linkOrderSql, sortedByVisits } from "../link-order-sql.ts";
import { deleteLinkVisits } from "./postgres-visit-log.ts";
import { takeOutOfRollups } from "./postgres-visit-rollups.ts";
import { linkColumns, links, linksSearch, linkTags, workspaces } from "./schema.ts";
import { missingWorkspace, missingWorkspaceAmong } from "../missing-workspace.ts";

/**
 * How long a link must have gone unvisited for a counted visit to set its
 * listing sort keys itself (countVisits). Longer than a summing step's
 * period (250 ms), so a link visited several times a second keeps its HOT
 * updates and gets its keys refreshed once per step.
 */
const sortKeysQuietMs = 1000;

/** A link the write counted (or, when it let nothing through, found), as its destination columns give it. */
interface DestinationRow {
  code: string;
  long_url: string;
  redirect_status: RedirectStatus | null;
  forward_query: boolean;
  rules: LinkRule[];
  expires_ms: number | null;
  max_visits: number | null;
  expired_url: string | null;
  password_protected: boolean;
  hold: LinkHold | null;
  access_count: string;
}

export class PostgresLinkStore implements LinkStore {
  private ended = false;

  constructor(
    private readonly db: PostgresJsDatabase,
    private readonly client: Sql,
    /** Sums the visit log, and with it the listing's sort keys; shared with the visit store (one run for both). */
    private readonly settleVisitLog: () => Promise<void>,
    private readonly limits: counts.CountLimits = counts.defaultCountLimits,
  ) {}

  async insert(link: NewLink): Promise<Link | null> {
    const rows = await this.db
      .insert(links)
      .values({ ...link, updatedAt: link.createdAt })
      .onConflictDoNothing({ target: links.code })
      .returning(linkColumns)
      .catch(missingWorkspace(link.workspaceId));
    return rows[0] ?? null;
  }

  async insertMany(newLinks: readonly NewLink[]): Promise<Link[]> {
    const inserted: Link[] = [];
    // Each chunk commits on its own: a link is independent of the others, and a transaction
    // over every chunk would only hold their codes locked longer.
    for (const chunk of insertManyChunks(newLinks)) {
      const rows = await this.db
        .insert(links)
        .values(chunk.map((link) => ({ ...link, updatedAt: link.createdAt })))
        .onConflictDoNothing({ target: links.code })
        .returning(linkColumns)
        .catch(
          missingWorkspaceAmong(
            chunk.map((link) => link.workspaceId),
            (ids) => this.workspacesAmong(ids),
          ),
        );
      inserted.push(...rows);
    }
    return inserted;
  }

  /** Which of `ids` are workspaces now. */
  private async workspacesAmong(ids: number[]): Promise<Set<number>> {
    return new Set((await this.db.select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, ids))).map((row) => row.id));
  }

  async find(code: string): Promise<Link | null> {
    const rows = await this.db.select(linkColumns).from(links).where(eq(links.code, code));
    return rows[0] ?? null;
  }

  async findByManageTokenHash(hash: string): Promise<Link | null> {
    const rows = await this.db.select(linkColumns).from(links).where(eq(links.manageTokenHash, hash));
    return rows[0] ?? null;
  }

  async update(code: string, changes: LinkChanges, at: Date, heldAs?: HoldChange): Promise<Link | null> {
    const stillHeld = heldAs && sql`${links.hold} IS NOT DISTINCT FROM ${heldAs.hold} AND ${links.holdReason} IS NOT DISTINCT FROM ${heldAs.reason}`;
    const rows = await this.db
      .update(links)
      // The listing's copy of the count made exact: a cap set now is judged by it (stateCondition).
      .set({ ...changes, updatedAt: at, sortedAccessCount: sql`${links.accessCount}` })
      .where(and(eq(links.code, code), stillHeld))
      .returning(linkColumns)
      .catch(missingWorkspace(changes.workspaceId));
    return rows[0] ?? null;
  }

  async delete(code: string): Promise<boolean> {
    return this.client.begin(async (tx) => {
      await takeOutOfRollups(tx, code);
      await deleteLinkVisits(tx, code);
      const rows = await tx`DELETE FROM links WHERE code = ${code} RETURNING code`;
      return rows.length > 0;
    });
  }

  async recordVisits(
    visits: ReadonlyMap<string, LinkVisits>,
    at: Date,
    deadline?: AbortSignal,
    access: VisitAccess = { unlocked: false },
  ): Promise<Map<string, VisitClaim>> {
    // One transaction on a connection of its own, whose COMMIT is sent only
    // if the update came back before the deadline: a batch whose callers were
    // told it failed (a hung database) must not count once the database wakes.
    // postgres.js refuses queries once ended, but reserve() still hands out a connection.
    if (this.ended) throw Object.assign(new Error("the database client has been closed"), { code: "CONNECTION_ENDED" });
    // `at` is the batch's time as it left; a row lock waited for moves it on (see plainLinks), as here.
    const started = performance.now();
    const tx = await this.client.reserve();
    try {
      if (deadline?.aborted) throw deadline.reason;
      // BEGIN and the update leave together (postgres.js pipelines them on
      // one connection): the deadline costs one round trip, the COMMIT.
      const [, rows] = await Promise.all([tx.unsafe("BEGIN").execute(), this.countVisits(tx, visits, at, plainLinks(tx, access)).execute()]);
      const claims = new Map<string, VisitClaim>();
      for (const row of rows) claims.set(row.code, { destination: destinationOf(row), granted: visits.get(row.code)!.count });
      // Links with an expiry past, a cap or a password the statement above left alone (or missing ones): each is
      // locked, given what grantedVisits allows, and counted for that many. Only such links pay this round trip.
      const restricted = [...visits.keys()].filter((code) => !claims.has(code));
      if (restricted.length > 0) {
        if (deadline?.aborted) throw deadline.reason;
        const grants = new Map<string, LinkVisits>();
        const locked = await tx<DestinationRow[]>`
          SELECT ${destinationColumns(tx)} FROM links WHERE code = ANY(${restricted}::text[]) ORDER BY code FOR NO KEY UPDATE`;
        const lockedAt = new Date(at.getTime() + (performance.now() - started));
        for (const row of locked) {
          const destination = destinationOf(row);
          const granted = grantedVisits(destination, visits.get(row.code)!.count, lockedAt, access.unlocked);
          claims.set(row.code, { destination: { ...destination, accessCount: destination.accessCount + granted }, granted });
          if (granted > 0) grants.set(row.code, visits.get(row.code)!.first(granted));
        }
        if (grants.size > 0) await this.countVisits(tx, grants, at, tx``);
      }
      if (deadline?.aborted) throw deadline.reason;
      await tx.unsafe("COMMIT");
      return claims;
    } catch (error) {
      // After a failed statement the transaction is aborted; either way nothing of it may stay.
      await tx`ROLLBACK`.catch(() => {});
      throw error;
    } finally {
      tx.release();
    }
  }

  /**
   * The hot statement, written with postgres.js directly as a prepared
   * statement: the access counts of links that exist and meet `only`
   * (returned, with their destinations), and every counted link's visits
   * appended to the visit log in a data-modifying CTE of the same
   * statement: one tuple per link, no index, whatever the link. A summing
   * step adds them to the buckets and breakdowns later, and refreshes the
   * listing's sort keys (postgres-visit-log.ts). A link visited again
   * within `sortKeysQuietMs` keeps its sort keys here, so no index names a
   * column this sets (but a capped link's sorted_access_count) and the
   * update is HOT: its row's new version goes on the same page, and no index
   * gets an entry; the summing step refreshes the keys once for all the
   * visits it sums. A link not visited for longer gets its keys set here:
   * its row has a new version with index entries either way, and one now
   * spares the summing step a second version and its row lock. The last
   * visit never moves back: a batch retried with its first time, or sent by
   * a replica whose clock is behind another's, neither dates the link
   * earlier nor makes a busy link look quiet (costing it its HOT update at
   * every turn of a load balancer between two such replicas). Dates go as
   * ISO text (Drizzle set this client to send them as text).
   */
  private countVisits(sql: Sql, visits: ReadonlyMap<string, LinkVisits>, at: Date, only: PendingQuery<Row[]>) {
    const when = at.toISOString();
    const quiet = sql`(links.last_accessed_at IS NULL OR links.last_accessed_at < ${when}::timestamptz - ${`${sortKeysQuietMs} milliseconds`}::interval)`;
    // A capped link's copy of its count is kept here always, so that the exhausted filter (its index) is exact.
    const counted = (n: PendingQuery<Row[]>) =>
      sql`access_count = links.access_count + ${n}, last_accessed_at = GREATEST(links.last_accessed_at, ${when}::timestamptz),
        sorted_access_count = CASE WHEN links.max_visits IS NOT NULL OR ${quiet} THEN links.access_count + ${n} ELSE links.sorted_access_count END,
        sorted_last_accessed_at = CASE WHEN ${quiet} THEN ${when}::timestamptz ELSE links.sorted_last_accessed_at END`;
    // The usual batch under load is one hot link: a statement for one row is
    // ~80 µs cheaper in Postgres than the general one below.
    if (visits.size === 1) {
      const [[code, one]] = [...visits] as [[string, LinkVisits]];
      return sql<DestinationRow[]>`
        WITH updated AS (
          UPDATE links SET ${counted(sql`${one.count}::bigint`)}
          WHERE code = ${code} ${only} RETURNING ${destinationColumns(sql)}
        ), logged AS (
          INSERT INTO link_visit_log (code, at, humans, bots, facts)
          SELECT code, ${when}::timestamptz, ${one.humans}, ${one.bots}, ${loggedFacts(one)} FROM updated
        )
        SELECT * FROM updated`;
    }
    // Several links: array parameters, and rows locked in code order first,
    // so two replicas flushing overlapping batches can never deadlock. FOR NO
    // KEY UPDATE, the lock an UPDATE of these columns takes anyway.
    const codes = [...visits.keys()];
    const of = (code: string) => visits.get(code)!;
    return sql<DestinationRow[]>`
      WITH visits AS (
        SELECT * FROM unnest(
          ${codes}::text[], ${codes.map((code) => of(code).count)}::bigint[],
          ${codes.map((code) => of(code).humans)}::int[], ${codes.map((code) => of(code).bots)}::int[],
          ${codes.map((code) => loggedFacts(of(code)))}::text[]
        ) AS v(code, n, humans, bots, facts)
      ), locked AS (
        SELECT links.code FROM links JOIN visits USING (code) ORDER BY links.code FOR NO KEY UPDATE OF links
      ), updated AS (
        UPDATE links SET ${counted(sql`visits.n`)}
        FROM visits JOIN locked USING (code)
        WHERE links.code = visits.code ${only}
        RETURNING ${destinationColumns(sql)}
      ), logged AS (
        INSERT INTO link_visit_log (code, at, humans, bots, facts)
        SELECT visits.code, ${when}::timestamptz, visits.humans, visits.bots, visits.facts
        FROM visits JOIN updated USING (code)
      )
      SELECT * FROM updated`;
  }

  async list({ offset, limit, search, order = "newest", tag, state, domainId, workspaceId }: LinkQuery): Promise<LinkPage> {
    if (sortedByVisits(order)) await this.settleVisitLog();
    const filter = await this.filterOf(search, tag, state, domainId, workspaceId);
    // The page and the count on two connections at once.
    const [rows, counted] = await Promise.all([
      filter === undefined ? this.pageOf(undefined, order, offset, limit + 1) : this.filteredPage(filter, order, offset, limit + 1),
      this.count(filter),
    ]);
    return { links: rows.slice(0, limit), hasMore: rows.length > limit, ...counted };
  }

  private async count(filter: Filter | undefined): Promise<Pick<LinkPage, "count" | "countIsEstimate">> {
    if (filter === undefined) {
      const exact = await this.countUpTo(undefined);
      if (exact <= this.limits.exact) return { count: exact, countIsEstimate: false };
      return { count: counts.estimatedCount(this.limits, await this.tableSize(), 1, 1), countIsEstimate: true };
    }
    const sample = () => this.sample(filter.plain);
    if (!filter.searched)
      return counts.filterCount(
        this.limits,
        () => this.countUpTo(filter.indexed),
        () => this.tableSize(),
        sample,
      );
    return counts.searchCount(this.limits, await this.tableSize(), await sample(), () => this.countUpTo(filter.indexed));
  }

  /** How many of the newest `limits.sample` links meet `condition`. */
  private async sample(condition: SQL): Promise<counts.CountSample> {
    const [sample] = await this.db.execute<{ matches: string; sampled: string }>(
      sql`SELECT count(*) FILTER (WHERE ${condition}) AS matches, count(*) AS sampled
          FROM (SELECT * FROM ${links} ORDER BY ${sql.raw(linkOrderSql.newest)} LIMIT ${this.limits.sample}) AS ${links}`,
    );
    return { matches: Number(sample!.matches), sampled: Number(sample!.sampled) };
  }

  private pageOf(where: SQL | undefined, order: LinkOrder, offset: number, limit: number): Promise<Link[]> {
    return this.db.select(linkColumns).from(links).where(where).orderBy(sql.raw(linkOrderSql[order])).limit(limit).offset(offset);
  }

  /** Matches, counted up to one past `limits.exact`. */
  private async countUpTo(where: SQL | undefined): Promise<number> {
    const counted = await this.db.select({ value: count() }).from(
      this.db
        .select({ one: sql`1` })
        .from(links)
        .where(where)
        .limit(this.limits.exact + 1)
        .as("matches"),
    );
    return counted[0]?.value ?? 0;
  }

  /**
   * A filtered page (a search, a tag, a state), the cheaper of two ways.
   * Where matches are common, the first `searchProbeRows` links in the
   * page's order (read in index order) hold the whole page; otherwise the
   * indexes find the few matches: the trigram ones, link_tags (read in its
   * own order, newest first, when that is the page's), the partial ones of
   * the states.
   */
  private async filteredPage(filter: Filter, order: LinkOrder, offset: number, limit: number): Promise<Link[]> {
    const [probed] = await this.db.execute<{ found: number }>(
      sql`SELECT count(*)::int AS found FROM (SELECT 1 FROM (SELECT * FROM ${links} ORDER BY ${sql.raw(linkOrderSql[order])} LIMIT ${counts.searchProbeRows}) AS ${links} WHERE ${filter.plain} LIMIT ${offset + limit}) AS probe`,
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
      .offset(offset);
  }

  /** The filters as one, the matches read through the index counts.fewestMatches picks. */
  private async filterOf(
    search: string | undefined,
    tag: string | undefined,
    state: LinkQuery["state"],
    domainId: number | undefined,
    workspaceId: number | undefined,
  ): Promise<Filter | undefined> {
    const upTo = (query: SQL) => async () => {
      const [counted] = await this.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM (${query} LIMIT ${this.limits.exact + 1}) AS matches`);
      return counted!.n;
    };
    const parts: Partial<Record<FilterName, FilterPart>> = {};
    if (tag !== undefined) {
      const plain = arrayContains(links.tags, [tag]);
      parts.tag = {
        plain,
        test: plain,
        through: sql`${links.code} IN (SELECT ${linkTags.code} FROM ${linkTags} WHERE ${linkTags.tag} = ${tag})`,
        matchesUpTo: upTo(sql`SELECT 1 FROM ${linkTags} WHERE ${linkTags.tag} = ${tag}`),
      };
    }
    // `active` is most links: no index, read in the page's order.
    if (state !== undefined) {
      const condition = stateCondition(state.is, state.at);
      parts.state =
        state.is === "active"
          ? { plain: condition, test: condition }
          : { plain: condition, test: condition, through: condition, matchesUpTo: upTo(sql`SELECT 1 FROM ${links} WHERE ${condition}`) };
    }
    if (search !== undefined) {
      const like = likeCondition(search);
      parts.search = { plain: like, test: like, through: indexedSearch(search) };
    }
    if (domainId !== undefined)
      parts.domain = domainPart(domainKeyRange(domainId), sql`${links.code}`, sql`strpos(${links.code}, '~') = 0`, upTo, sql`${links}`);
    if (workspaceId !== undefined) parts.workspace = workspacePart(workspaceId, sql`${links.workspaceId}`, upTo, sql`${links}`);
    const named = Object.entries(parts) as Array<[FilterName, FilterPart]>;
    if (named.length === 0) return undefined;

    const indexed = named.flatMap(([name, part]) => (part.matchesUpTo ? [{ name, matchesUpTo: part.matchesUpTo }] : []));
    const shares = async () => {
      const columns = sql.join(
        indexed.map(({ name }) => sql`count(*) FILTER (WHERE ${parts[name]!.plain})::int AS ${sql.identifier(name)}`),
        sql`, `,
      );
      const [share] = await this.db.execute<Record<FilterName, number>>(
        sql`SELECT ${columns} FROM (SELECT * FROM ${links} ORDER BY ${sql.raw(linkOrderSql.newest)} LIMIT ${this.limits.sample}) AS ${links}`,
      );
      return share!;
    };
    const driver = (await counts.fewestMatches(this.limits, indexed, parts.search !== undefined, shares)) ?? (parts.search ? "search" : undefined);
    const tested = (except: FilterName | undefined) => and(...named.filter(([name]) => name !== except).map(([, part]) => part.test));
    return {
      plain: and(...named.map(([, part]) => part.plain))!,
      indexed: driver === undefined ? tested(undefined)! : and(parts[driver]!.through, tested(driver))!,
      byTag: driver === "tag" ? tag : undefined,
      besidesTag: tested("tag"),
      searched: search !== undefined,
    };
  }

  /** Postgres' own estimate of the table's rows (kept by ANALYZE and autovacuum); an exact count when it has none yet. */
  private async tableSize(): Promise<number> {
    const [size] = await this.client<{ rows: number }[]>`SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'links'::regclass`;
    if (size && size.rows >= 0) return size.rows;
    return Number((await this.client<{ n: string }[]>`SELECT count(*) AS n FROM links`)[0]!.n);
  }

  async exportPage(after: string | null, limit: number, workspaceId?: number): Promise<Link[]> {
    return this.db
      .select(linkColumns)
      .from(links)
      .where(and(after === null ? undefined : gt(links.code, after), workspaceId === undefined ? undefined : eq(links.workspaceId, workspaceId)))
      .orderBy(asc(links.code))
      .limit(limit);
  }

  async keysOn(domainId: number, limit: number): Promise<string[]> {
    const range = domainKeyRange(domainId);
    if (range === undefined) return [];
    const rows = await this.db
      .select({ code: links.code })
      .from(links)
      .where(and(gte(links.code, range.from), lt(links.code, range.to)))
      .orderBy(asc(links.code))
      .limit(limit);
    return rows.map((row) => row.code);
  }

  async findMany(codes: readonly string[]): Promise<Link[]> {
    if (codes.length === 0) return [];
    return this.db
      .select(linkColumns)
      .from(links)
      .where(inArray(links.code, [...codes]));
  }

  async insertImported(batch: readonly ImportedLink[]): Promise<string[]> {
    if (batch.length === 0) return [];
    // One statement, its rows as array parameters (a row of 16 values built by the query builder cost more
    // than the insert itself: 37 µs a link). unnest keeps their order, so of two with one code the first is
    // inserted and the second does nothing. Dates go as ISO text (this client sends dates as text, which its
    // array serializers do not take), and booleans too; tags as array literals (arrayLiteral), rules as JSON.
    const column = <T>(value: (link: ImportedLink) => T) => batch.map(value);
    const instant = (at: Date | null | undefined) => at?.toISOString() ?? null;
    const rows = await this.client<{ code: string }[]>`
      INSERT INTO links (code, long_url, manage_token_hash, access_count, last_accessed_at, created_at, updated_at, expires_at,
        max_visits, expired_url, redirect_status, password_hash, tags, title, forward_query, rules, public_stats, workspace_id, sorted_access_count,
        sorted_last_accessed_at)
      SELECT code, long_url, manage_token_hash, access_count, last_accessed_at::timestamptz, created_at::timestamptz, updated_at::timestamptz,
        expires_at::timestamptz, max_visits, expired_url, redirect_status, password_hash, tags::text[], title, forward_query::boolean, rules::jsonb,
        public_stats::boolean, workspace_id, access_count, last_accessed_at::timestamptz
      FROM unnest(
        ${column((link) => link.code)}::text[], ${column((link) => link.longUrl)}::text[], ${column((link) => link.manageTokenHash)}::text[],
        ${column((link) => link.accessCount)}::bigint[], ${column((link) => instant(link.lastAccessedAt))}::text[],
        ${column((link) => instant(link.createdAt))}::text[], ${column((link) => instant(link.updatedAt))}::text[],
        ${column((link) => instant(link.expiresAt))}::text[], ${column((link) => link.maxVisits ?? null)}::int[],
        ${column((link) => link.expiredUrl ?? null)}::text[], ${column((link) => link.redirectStatus ?? null)}::smallint[],
        ${column((link) => link.passwordHash ?? null)}::text[], ${column((link) => arrayLiteral(link.tags ?? []))}::text[],
        ${column((link) => link.title ?? null)}::text[], ${column((link) => String(link.forwardQuery ?? false))}::text[],
        ${column((link) => JSON.stringify(link.rules ?? []))}::text[], ${column((link) => String(link.publicStats ?? false))}::text[],
        ${column((link) => link.workspaceId ?? null)}::int[]
      ) WITH ORDINALITY AS imported(code, long_url, manage_token_hash, access_count, last_accessed_at, created_at, updated_at, expires_at,
        max_visits, expired_url, redirect_status, password_hash, tags, title, forward_query, rules, public_stats, workspace_id, position)
      ORDER BY position
      ON CONFLICT (code) DO NOTHING
      RETURNING code`;
    return rows.map((row) => row.code);
  }

  /** Closes the client; later calls fail as postgres.js fails them (CONNECTION_ENDED). */
  async end(): Promise<void> {
    this.ended = true;
    await this.client.end({ timeout: 5 });
  }

  /** For `/ready`. */
  async ping(): Promise<void> {
    await this.db.execute(sql`SELECT 1`);
  }
}

/**
 * A text[] literal of `values`, each quoted: unquoted, a tag `null` (any
 * case) is read as a NULL element, which link_tags refuses (the import's
 * whole batch failed on Postgres, where SQLite kept the tag).
 */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
}

/**
 * The condition of the hot statement: links that let every visit through
 * without a look at their row (no cap, no expiry, no hold, and no password
 * unless it was given). Any other link is left to the locked read after it: an
 * expiry too, as it must be judged once the row is locked (a row another
 * writer holds may be waited for past it), and this statement's condition
 * is checked before it waits.
 */
function plainLinks(sql: Sql, access: VisitAccess) {
  return access.unlocked
    ? sql`AND links.max_visits IS NULL AND links.expires_at IS NULL AND links.hold IS NULL`
    : sql`AND links.max_visits IS NULL AND links.expires_at IS NULL AND links.hold IS NULL AND links.password_hash IS NULL`;
}

/** What a redirect needs of a link (Destination), and its count; never the password hash itself. */
function destinationColumns(sql: Sql) {
  return sql`links.code, links.long_url, links.redirect_status, links.forward_query, links.rules,
    (extract(epoch FROM links.expires_at) * 1000)::float8 AS expires_ms, links.max_visits, links.expired_url,
    links.password_hash IS NOT NULL AS password_protected, links.hold, links.access_count`;
}

function destinationOf(row: DestinationRow): CountedDestination {
  return {
    longUrl: row.long_url,
    redirectStatus: row.redirect_status,
    forwardQuery: row.forward_query,
    rules: row.rules,
    expiresAt: row.expires_ms === null ? null : new Date(row.expires_ms),
    maxVisits: row.max_visits,
    expiredUrl: row.expired_url,
    passwordProtected: row.password_protected,
    hold: row.hold,
    accessCount: Number(row.access_count),
  };
}

/**
 * linkState (links/destination.ts) in SQL, at `at`. The used-up test is
 * written as links_exhausted_idx's predicate and the expired one implies
 * links_expires_at_idx's (migration 0010), so the planner may use them;
 * `active` has no index: it is most links, read in the page's order.
 */
function stateCondition(state: LinkState, at: Date): SQL {
  // A hold comes before the rest (linkState): a held link is in its hold's state only.
  if (state === "quarantined" || state === "disabled") return eq(links.hold, state);
  const notExpired = or(isNull(links.expiresAt), gt(links.expiresAt, at))!;
  if (state === "expired") return and(lte(links.expiresAt, at), isNull(links.hold))!;
  // A capped link's sorted_access_count is its count (the count write keeps it): the index's predicate, exact.
  if (state === "exhausted")
    return and(sql`${links.maxVisits} IS NOT NULL AND ${links.sortedAccessCount} >= ${links.maxVisits}`, notExpired, isNull(links.hold))!;
  return and(notExpired, sql`(${links.maxVisits} IS NULL OR ${links.accessCount} < ${links.maxVisits})`, isNull(links.hold))!;
}

/** A case-insensitive substring of the code or the long URL, `%` and `_` literal. */
function likeCondition(search: string): SQL {
  const pattern = likePattern(search);
  return or(ilike(links.code, pattern), ilike(links.longUrl, pattern))!;
}

/** The same, through links_search's trigram indexes (migration 0006), which serve 3 or more characters. */
function indexedSearch(search: string): SQL {
  const pattern = likePattern(search);
  return sql`${links.code} IN (SELECT ${linksSearch.code} FROM ${linksSearch} WHERE ${or(ilike(linksSearch.code, pattern), ilike(linksSearch.longUrl, pattern))})`;
}
