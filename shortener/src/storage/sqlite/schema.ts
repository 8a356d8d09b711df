import type { AdminVerdict, AllowKind } from "../../threats/allow-entry.ts";
import type { LinkHold } from "../../links/link-hold.ts";
import type { ReportAction, ReportReason } from "../../threats/report.ts";
import { getTableColumns, sql } from "drizzle-orm";
import type { Actor, AuditAction } from "../../audit/audit-event.ts";
import type { WorkspaceRole } from "../../people/workspace.ts";
import type { ApiKeyScope } from "../../auth/api-key.ts";
import { ruleInFixedOrder, type LinkRule, type RedirectStatus } from "../../links/link-options.ts";
import { blob, customType, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Every table the SQLite migrations (./migrations) create, as Drizzle sees
 * them: the query builder uses links, admins and admin_sessions; the visits
 * stores and the write probe use SQL of their own; the listing's search index
 * (links_search, an FTS5 table with its triggers) is SQL only. The migrations are the
 * source of truth, and shortener/test/schema-drift.test.ts fails when this
 * file and the migrated database disagree on a table, column, type,
 * default, key, index or foreign key. Times are ms since the epoch.
 */

const instant = (name: string) => integer(name, { mode: "timestamp_ms" });

/** A link's rules as JSON text, read back with each rule's keys in one order (as a client wrote them, else). */
const ruleList = customType<{ data: LinkRule[]; driverData: string }>({
  dataType: () => "text",
  toDriver: (rules) => JSON.stringify(rules),
  fromDriver: (text) => (JSON.parse(text) as LinkRule[]).map(ruleInFixedOrder),
});

export const links = sqliteTable(
  "links",
  {
    code: text("code").primaryKey(),
    longUrl: text("long_url").notNull(),
    manageTokenHash: text("manage_token_hash").notNull(),
    accessCount: integer("access_count").notNull().default(0),
    lastAccessedAt: instant("last_accessed_at"),
    createdAt: instant("created_at").notNull(),
    updatedAt: instant("updated_at").notNull(),
    // Link options (migration 0008).
    expiresAt: instant("expires_at"),
    maxVisits: integer("max_visits"),
    expiredUrl: text("expired_url"),
    redirectStatus: integer("redirect_status").$type<RedirectStatus>(),
    passwordHash: text("password_hash"),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    title: text("title"),
    forwardQuery: integer("forward_query", { mode: "boolean" }).notNull().default(false),
    publicStats: integer("public_stats", { mode: "boolean" }).notNull().default(false),
    rules: ruleList("rules").notNull().default(sql`'[]'`),
    // What the listing sorts on (migration 0014): copies of the two counts, refreshed by the visit log's summing step.
    sortedAccessCount: integer("sorted_access_count").notNull().default(0),
    sortedLastAccessedAt: instant("sorted_last_accessed_at"),
    // The workspace the link belongs to (migration 0022); null for a link of none.
    workspaceId: integer("workspace_id").references(() => workspaces.id),
    // Abuse protection (migration 0027): a hold and why; who made the link.
    hold: text("hold").$type<LinkHold>(),
    holdReason: text("hold_reason"),
    createdBy: text("created_by"),
  },
  (t) => [
    // The admin listing's three orders (storage/link-order-sql.ts), read in index
    // order. SQLite sorts NULLs first ascending, so last in a DESC index.
    index("links_created_at_idx").on(sql`${t.createdAt} desc`, t.code),
    index("links_sorted_access_count_idx").on(sql`${t.sortedAccessCount} desc`, sql`${t.createdAt} desc`, t.code),
    index("links_sorted_last_accessed_at_idx").on(sql`${t.sortedLastAccessedAt} desc`, sql`${t.createdAt} desc`, t.code),
    // A manage token finds its one link (GET /shorten/ with the token).
    uniqueIndex("links_manage_token_hash_idx").on(t.manageTokenHash),
    // The listing's ?state= (migration 0010): only links that can leave "active" are in these.
    index("links_expires_at_idx").on(t.expiresAt, t.tags).where(sql`expires_at IS NOT NULL`),
    index("links_exhausted_idx").on(sql`${t.createdAt} desc`, t.code).where(sql`max_visits IS NOT NULL AND sorted_access_count >= max_visits`),
    // A workspace's listing, newest first.
    index("links_workspace_id_idx").on(t.workspaceId, sql`${t.createdAt} desc`, t.code).where(sql`workspace_id IS NOT NULL`),
    // The listing's held states (migration 0027).
    index("links_hold_idx").on(t.hold, sql`${t.createdAt} desc`, t.code).where(sql`hold IS NOT NULL`),
  ],
);

/** A link as the stores answer it (Link): every column of links but the listing's sort keys, which only order pages. */
export const linkColumns = (({ sortedAccessCount: _count, sortedLastAccessedAt: _at, ...columns }) => columns)(getTableColumns(links));

/**
 * The listing's ?tag=: a row per link and tag, taken from the JSON array in
 * links.tags by triggers (migration 0010), so that a counted visit never touches it.
 */
export const linkTags = sqliteTable(
  "link_tags",
  {
    code: text("code")
      .notNull()
      .references(() => links.code, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.tag] }), index("link_tags_tag_idx").on(t.tag, sql`${t.createdAt} desc`, t.code)],
);

export const admins = sqliteTable("admins", {
  username: text("username").primaryKey(),
  passwordHash: text("password_hash").notNull(),
  createdAt: instant("created_at").notNull(),
});

/** People (migration 0018): accounts apart from the admins, usernames in lower case. */
export const people = sqliteTable(
  "people",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [uniqueIndex("people_username_idx").on(t.username)],
);

/** A person signed in (migration 0019): only the SHA-256 of the token. */
export const personSessions = sqliteTable(
  "person_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [index("person_sessions_expires_at_idx").on(t.expiresAt), index("person_sessions_person_id_idx").on(t.personId)],
);

/** Workspaces (migration 0020): where people work together. */
export const workspaces = sqliteTable("workspaces", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  createdAt: instant("created_at").notNull(),
});

/** Who is in which workspace, with which role (migration 0020). */
export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    role: text("role").$type<WorkspaceRole>().notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.personId] }), index("workspace_members_person_id_idx").on(t.personId)],
);

/** Invites to a workspace (migration 0021): only the SHA-256 of each token. */
export const workspaceInvites = sqliteTable(
  "workspace_invites",
  {
    idHash: text("id_hash").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    role: text("role").$type<WorkspaceRole>().notNull(),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
    // The owner who made it (migration 0029): it is accepted only while they are still an owner there.
    madeBy: integer("made_by").references(() => people.id, { onDelete: "cascade" }),
  },
  (t) => [index("workspace_invites_expires_at_idx").on(t.expiresAt), index("workspace_invites_workspace_id_idx").on(t.workspaceId)],
);

/** API keys: only the SHA-256 of each key (migration 0011). */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<ApiKeyScope[]>().notNull(),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at"),
    lastUsedAt: instant("last_used_at"),
    // A workspace's key (migration 0022): its workspace and maker; null for an admin's key.
    workspaceId: integer("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    madeBy: integer("made_by").references(() => people.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_workspace_id_idx").on(t.workspaceId).where(sql`workspace_id IS NOT NULL`)],
);

/** Domains (migration 0016): the default one is id 0 with no host. */
export const domains = sqliteTable(
  "domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    host: text("host"),
    rootUrl: text("root_url"),
    notFoundUrl: text("not_found_url"),
    expiredUrl: text("expired_url"),
    redirectStatus: integer("redirect_status").$type<RedirectStatus>(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [uniqueIndex("domains_host_idx").on(t.host)],
);

/** The allow-list (threats/allow-list.ts): `kind` domain or url, `value` the key feeds are matched by. */
export const allowList = sqliteTable(
  "allow_list",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").$type<AllowKind>().notNull(),
    value: text("value").notNull(),
    createdAt: instant("created_at").notNull(),
    // The ban list's entries share the table (migration 0027).
    verdict: text("verdict").$type<AdminVerdict>().notNull().default(sql`'allow'`),
  },
  (t) => [uniqueIndex("allow_list_verdict_kind_value_idx").on(t.verdict, t.kind, t.value)],
);

export const adminSessions = sqliteTable(
  "admin_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    username: text("username")
      .notNull()
      .references(() => admins.username, { onDelete: "cascade" }),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [index("admin_sessions_expires_at_idx").on(t.expiresAt)],
);

/** Rows that /ready writes (and deletes) while writes are failing. */
export const writeProbe = sqliteTable("write_probe", {
  id: integer("id").primaryKey(),
  at: integer("at").notNull(),
  filler: blob("filler"),
});

/** Humans and bots per UTC hour (a whole day once folded: hours = 24). */
export const linkVisitBuckets = sqliteTable(
  "link_visit_buckets",
  {
    code: text("code")
      .notNull()
      .references(() => links.code, { onDelete: "cascade" }),
    startsAt: integer("starts_at").notNull(),
    hours: integer("hours").notNull(),
    humans: integer("humans").notNull(),
    bots: integer("bots").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.startsAt] }), index("link_visit_buckets_starts_at_idx").on(t.startsAt)],
);

/**
 * The visit log (migration 0013): each batch's counted visits per link, until
 * a summing step adds them to the buckets and breakdowns. `facts` is JSON.
 */
export const linkVisitLog = sqliteTable("link_visit_log", {
  code: text("code").notNull(),
  at: integer("at").notNull(),
  humans: integer("humans").notNull(),
  bots: integer("bots").notNull(),
  facts: text("facts").notNull(),
});

/** The breakdowns' layout before migration 0028 (a row per link, UTC day, breakdown and value; bots since 0015), renamed from link_visit_facts by it, as Postgres' 0030. */
export const linkVisitFactsOld = sqliteTable(
  "link_visit_facts_old",
  {
    code: text("code")
      .notNull()
      .references(() => links.code, { onDelete: "cascade" }),
    day: text("day").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    visits: integer("visits").notNull(),
    bots: integer("bots").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.code, t.day, t.dimension, t.value] }), index("link_visit_facts_day_idx").on(t.day)],
);

/** A link's breakdowns of one UTC day in one row, a JSON document (migration 0028, as Postgres' 0030). */
export const linkFactDays = sqliteTable(
  "link_fact_days",
  {
    code: text("code")
      .notNull()
      .references(() => links.code, { onDelete: "cascade" }),
    day: text("day").notNull(),
    facts: text("facts").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.day] }), index("link_fact_days_day_idx").on(t.day)],
);

/** One row: every bucket that starts before `through` (ms, a UTC midnight), and every breakdown of a day before it, is in the sums below. */
export const visitRollups = sqliteTable("visit_rollups", {
  id: integer("id").primaryKey(),
  through: integer("through").notNull(),
});

/** Every link's humans and bots per bucket start, for the finished days (before visit_rollups.through). */
export const visitTotals = sqliteTable("visit_totals", {
  startsAt: integer("starts_at").primaryKey(),
  hours: integer("hours").notNull(),
  humans: integer("humans").notNull(),
  bots: integer("bots").notNull(),
});

/** Every link's visits per finished UTC day (YYYY-MM-DD) by referrer, country, browser, OS and device, with the bots among them. */
export const visitFactTotals = sqliteTable(
  "visit_fact_totals",
  {
    day: text("day").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    visits: integer("visits").notNull(),
    bots: integer("bots").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.value] })],
);

/** Each link's visits per finished UTC day: the every-link report's top links, for the days outside whole months. No foreign key: deleting a link deletes its rows (takeOutOfRollups). */
export const linkVisitDays = sqliteTable(
  "link_visit_days",
  {
    code: text("code").notNull(),
    day: text("day").notNull(),
    visits: integer("visits").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.day] }), index("link_visit_days_day_idx").on(t.day, t.code, t.visits)],
);

/** Each link's visits per UTC month (its first day, YYYY-MM-DD), of the finished days: the every-link report's top links. No foreign key, as link_visit_days. */
export const linkVisitMonths = sqliteTable(
  "link_visit_months",
  {
    code: text("code").notNull(),
    month: text("month").notNull(),
    visits: integer("visits").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.month] }), index("link_visit_months_month_idx").on(t.month, t.code, t.visits)],
);

/** Visits that led nowhere (a code no link has, an expired or used-up link, a wrong password) per UTC day (YYYY-MM-DD), domain, kind and referrer host. */
export const orphanVisits = sqliteTable(
  "orphan_visits",
  {
    day: text("day").notNull(),
    /** The domain whose host was asked (0: the default domain). */
    domainId: integer("domain_id").notNull().default(0),
    kind: text("kind").notNull(),
    referrer: text("referrer").notNull(),
    humans: integer("humans").notNull(),
    bots: integer("bots").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.domainId, t.kind, t.referrer] })],
);

/** The audit log (migration 0023): a workspace's events, or the instance's (workspace_id null). */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: instant("at").notNull(),
    workspaceId: integer("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    actorKind: text("actor_kind").$type<Actor["kind"]>().notNull(),
    actorId: text("actor_id"),
    action: text("action").$type<AuditAction>().notNull(),
    target: text("target").notNull(),
  },
  (t) => [index("audit_events_workspace_id_idx").on(t.workspaceId, sql`${t.id} desc`)],
);

/** Domains granted to workspaces (migration 0024). */
export const domainWorkspaces = sqliteTable(
  "domain_workspaces",
  {
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.workspaceId] }), index("domain_workspaces_workspace_id_idx").on(t.workspaceId)],
);

/** Reports of harmful links (migration 0027); never who sent one. */
export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code")
      .notNull()
      .references(() => links.code, { onDelete: "cascade" }),
    reason: text("reason").$type<ReportReason>().notNull(),
    note: text("note"),
    createdAt: instant("created_at").notNull(),
    resolution: text("resolution").$type<ReportAction>(),
    resolvedAt: instant("resolved_at"),
  },
  (t) => [index("reports_open_idx").on(t.id).where(sql`resolution IS NULL`), index("reports_code_idx").on(t.code)],
);

/** The threat recheck's one row (migration 0027): its lease, its cursor, and when it runs next. */
export const threatRecheck = sqliteTable("threat_recheck", {
  id: integer("id").primaryKey(),
  holder: text("holder"),
  leaseUntil: instant("lease_until"),
  cursor: text("cursor"),
  nextRunAt: instant("next_run_at").notNull(),
});
