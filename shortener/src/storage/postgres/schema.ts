import type { AdminVerdict, AllowKind } from "../../threats/allow-entry.ts";
import type { LinkHold } from "../../links/link-hold.ts";
import type { ReportAction, ReportReason } from "../../threats/report.ts";
import { getTableColumns, sql } from "drizzle-orm";
import type { Actor, AuditAction } from "../../audit/audit-event.ts";
import type { WorkspaceRole } from "../../people/workspace.ts";
import type { ApiKeyScope } from "../../auth/api-key.ts";
import { ruleInFixedOrder, type LinkRule, type RedirectStatus } from "../../links/link-options.ts";
import { bigint, boolean, customType, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Every table the Postgres migrations (./migrations) create, as Drizzle sees
 * them: the query builder uses links, admins and admin_sessions; the visits
 * stores and the write probe use SQL of their own. The migrations are the
 * source of truth, and shortener/test/schema-drift.test.ts fails when this
 * file and the migrated database disagree on a table, column, type,
 * collation, default, key, index or foreign key.
 */

/** "C" collation: codes are case-sensitive and sort (and lock) in byte order. */
const byteOrderText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** A link's rules as jsonb, read back with each rule's keys in one order (jsonb keeps them sorted by length). */
const ruleList = customType<{ data: LinkRule[]; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (rules) => JSON.stringify(rules),
  fromDriver: (value) => ((typeof value === "string" ? JSON.parse(value) : value) as LinkRule[]).map(ruleInFixedOrder),
});

export const links = pgTable(
  "links",
  {
    code: byteOrderText("code").primaryKey(),
    longUrl: text("long_url").notNull(),
    manageTokenHash: text("manage_token_hash").notNull(),
    accessCount: bigint("access_count", { mode: "number" }).notNull().default(0),
    lastAccessedAt: instant("last_accessed_at"),
    createdAt: instant("created_at").notNull(),
    updatedAt: instant("updated_at").notNull(),
    // Link options (migration 0008).
    expiresAt: instant("expires_at"),
    maxVisits: integer("max_visits"),
    expiredUrl: text("expired_url"),
    redirectStatus: smallint("redirect_status").$type<RedirectStatus>(),
    passwordHash: text("password_hash"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    title: text("title"),
    forwardQuery: boolean("forward_query").notNull().default(false),
    publicStats: boolean("public_stats").notNull().default(false),
    rules: ruleList("rules").notNull().default(sql`'[]'::jsonb`),
    // What the listing sorts on (migration 0015): copies of the two counts, refreshed by the visit log's summing step.
    sortedAccessCount: bigint("sorted_access_count", { mode: "number" }).notNull().default(0),
    sortedLastAccessedAt: instant("sorted_last_accessed_at"),
    // The workspace the link belongs to (migration 0024); null for a link of none.
    workspaceId: integer("workspace_id").references(() => workspaces.id),
    // Abuse protection (migration 0029): a hold and why; who made the link.
    hold: text("hold").$type<LinkHold>(),
    holdReason: text("hold_reason"),
    createdBy: text("created_by"),
  },
  (t) => [
    // The admin listing's three orders (storage/link-order-sql.ts), read in index order. No index names
    // access_count or last_accessed_at: a counted visit then updates its row in place (HOT).
    index("links_created_at_idx").on(t.createdAt.desc(), t.code),
    index("links_sorted_access_count_idx").on(t.sortedAccessCount.desc(), t.createdAt.desc(), t.code),
    index("links_sorted_last_accessed_at_idx").on(t.sortedLastAccessedAt.desc().nullsLast(), t.createdAt.desc(), t.code),
    // A manage token finds its one link (GET /shorten/ with the token).
    uniqueIndex("links_manage_token_hash_idx").on(t.manageTokenHash),
    // The listing's ?state= (migration 0010): only links that can leave "active" are in these.
    index("links_expires_at_idx").on(t.expiresAt, t.tags).where(sql`expires_at IS NOT NULL`),
    index("links_exhausted_idx").on(t.createdAt.desc(), t.code).where(sql`max_visits IS NOT NULL AND sorted_access_count >= max_visits`),
    // A workspace's listing, newest first.
    index("links_workspace_id_idx").on(t.workspaceId, t.createdAt.desc(), t.code).where(sql`workspace_id IS NOT NULL`),
    // The listing's held states (migration 0029).
    index("links_hold_idx").on(t.hold, t.createdAt.desc(), t.code).where(sql`hold IS NOT NULL`),
  ],
);

/** A link as the stores answer it (Link): every column of links but the listing's sort keys, which only order pages. */
export const linkColumns = (({ sortedAccessCount: _count, sortedLastAccessedAt: _at, ...columns }) => columns)(getTableColumns(links));

/**
 * The listing's ?tag=: a row per link and tag, kept in step with links.tags
 * by a trigger (migration 0010), so that a counted visit never touches it.
 */
export const linkTags = pgTable(
  "link_tags",
  {
    code: byteOrderText("code")
      .notNull()
      .references(() => links.code, { onDelete: "cascade" }),
    tag: byteOrderText("tag").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.tag] }), index("link_tags_tag_idx").on(t.tag, t.createdAt.desc(), t.code)],
);

/**
 * The listing's search: each link's code and long URL under pg_trgm indexes
 * (ILIKE '%…%'), kept in step with links by a trigger (migration 0006), so
 * that a counted visit, which rewrites a links row, never touches them.
 */
export const linksSearch = pgTable(
  "links_search",
  {
    code: byteOrderText("code")
      .primaryKey()
      .references(() => links.code, { onDelete: "cascade" }),
    longUrl: text("long_url").notNull(),
  },
  (t) => [
    index("links_search_code_trgm_idx").using("gin", t.code.op("gin_trgm_ops")),
    index("links_search_long_url_trgm_idx").using("gin", t.longUrl.op("gin_trgm_ops")),
  ],
);

export const admins = pgTable("admins", {
  username: text("username").primaryKey(),
  passwordHash: text("password_hash").notNull(),
  createdAt: instant("created_at").notNull(),
});

/** People (migration 0020): accounts apart from the admins, usernames in lower case. */
export const people = pgTable(
  "people",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 1 }),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [uniqueIndex("people_username_idx").on(t.username)],
);

/** A person signed in (migration 0021): only the SHA-256 of the token. */
export const personSessions = pgTable(
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

/** Workspaces (migration 0022): where people work together. */
export const workspaces = pgTable("workspaces", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 1 }),
  name: text("name").notNull(),
  createdAt: instant("created_at").notNull(),
});

/** Who is in which workspace, with which role (migration 0022). */
export const workspaceMembers = pgTable(
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

/** Invites to a workspace (migration 0023): only the SHA-256 of each token. */
export const workspaceInvites = pgTable(
  "workspace_invites",
  {
    idHash: text("id_hash").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    role: text("role").$type<WorkspaceRole>().notNull(),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at").notNull(),
    // The owner who made it (migration 0031): it is accepted only while they are still an owner there.
    madeBy: integer("made_by").references(() => people.id, { onDelete: "cascade" }),
  },
  (t) => [index("workspace_invites_expires_at_idx").on(t.expiresAt), index("workspace_invites_workspace_id_idx").on(t.workspaceId)],
);

/** API keys: only the SHA-256 of each key (migration 0011). */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes").array().$type<ApiKeyScope[]>().notNull(),
    createdAt: instant("created_at").notNull(),
    expiresAt: instant("expires_at"),
    lastUsedAt: instant("last_used_at"),
    // A workspace's key (migration 0024): its workspace and maker; null for an admin's key.
    workspaceId: integer("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    madeBy: integer("made_by").references(() => people.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_workspace_id_idx").on(t.workspaceId).where(sql`workspace_id IS NOT NULL`)],
);

/** Domains (migration 0018): the default one is id 0 with no host. */
export const domains = pgTable(
  "domains",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 1 }),
    host: text("host"),
    rootUrl: text("root_url"),
    notFoundUrl: text("not_found_url"),
    expiredUrl: text("expired_url"),
    redirectStatus: smallint("redirect_status").$type<RedirectStatus>(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [uniqueIndex("domains_host_idx").on(t.host)],
);

/** The allow-list (threats/allow-list.ts): `kind` domain or url, `value` the key feeds are matched by. */
export const allowList = pgTable(
  "allow_list",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 1 }),
    kind: text("kind").$type<AllowKind>().notNull(),
    value: text("value").notNull(),
    createdAt: instant("created_at").notNull(),
    // The ban list's entries share the table (migration 0029).
    verdict: text("verdict").$type<AdminVerdict>().notNull().default(sql`'allow'::text`),
  },
  (t) => [uniqueIndex("allow_list_verdict_kind_value_idx").on(t.verdict, t.kind, t.value)],
);

export const adminSessions = pgTable(
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

/** One row that /ready writes while writes are failing. */
export const writeProbe = pgTable("write_probe", {
  id: integer("id").primaryKey(),
  at: instant("at").notNull(),
});

/** Humans and bots per UTC hour (a whole day once folded: hours = 24). No foreign key (migration 0014): a link's deletion deletes its rows. */
export const linkVisitBuckets = pgTable(
  "link_visit_buckets",
  {
    code: text("code").notNull(),
    startsAt: instant("starts_at").notNull(),
    hours: smallint("hours").notNull(),
    humans: bigint("humans", { mode: "number" }).notNull(),
    bots: bigint("bots", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.startsAt] }), index("link_visit_buckets_starts_at_idx").on(t.startsAt)],
);

/**
 * The visit log (migration 0013): each batch's counted visits per link, until
 * a summing step adds them to the buckets and breakdowns above and below.
 * No key and no index: a redirect's write appends one tuple.
 */
export const linkVisitLog = pgTable("link_visit_log", {
  code: text("code").notNull(),
  at: instant("at").notNull(),
  humans: integer("humans").notNull(),
  bots: integer("bots").notNull(),
  facts: text("facts").notNull(),
});

/**
 * The breakdowns' layout before migration 0030: a row per link, UTC day,
 * breakdown and value, with the bots among the visits (migration 0017). Renamed
 * from link_visit_facts by 0030, so a replica of the version before cannot sum
 * into it, roll it up or delete from it during a rolling upgrade; its rows are
 * moved into link_fact_days a step at a time. No foreign key, as above.
 */
export const linkVisitFactsOld = pgTable(
  "link_visit_facts_old",
  {
    code: text("code").notNull(),
    day: date("day").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    bots: bigint("bots", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.code, t.day, t.dimension, t.value] }), index("link_visit_facts_day_idx").on(t.day)],
);

/**
 * A link's breakdowns of one UTC day in one row (migration 0030): a jsonb
 * document of each breakdown's values with their visits and bots
 * (visits/fact-days.ts). Replaces link_visit_facts_old, whose rows a summing
 * job moves here a step at a time; the view link_fact_rows reads both as
 * rows. No foreign key, as above.
 */
export const linkFactDays = pgTable(
  "link_fact_days",
  {
    code: text("code").notNull(),
    day: date("day").notNull(),
    facts: jsonb("facts").notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.day] }), index("link_fact_days_day_idx").on(t.day)],
);

/** One row: every bucket that starts before `through` (a UTC midnight), and every breakdown of a day before it, is in the sums below. */
export const visitRollups = pgTable("visit_rollups", {
  id: smallint("id").primaryKey(),
  through: instant("through").notNull(),
});

/** Every link's humans and bots per bucket start, for the finished days (before visit_rollups.through). */
export const visitTotals = pgTable("visit_totals", {
  startsAt: instant("starts_at").primaryKey(),
  hours: smallint("hours").notNull(),
  humans: bigint("humans", { mode: "number" }).notNull(),
  bots: bigint("bots", { mode: "number" }).notNull(),
});

/** Every link's visits per finished UTC day by referrer, country, browser, OS and device, with the bots among them. */
export const visitFactTotals = pgTable(
  "visit_fact_totals",
  {
    day: date("day").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    bots: bigint("bots", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.value] })],
);

/** Each link's visits per finished UTC day: the every-link report's top links, for the days outside whole months. No foreign key: deleting a link deletes its rows (takeOutOfRollups). */
export const linkVisitDays = pgTable(
  "link_visit_days",
  {
    code: text("code").notNull(),
    day: date("day").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.day] }), index("link_visit_days_day_idx").on(t.day, t.code, t.visits)],
);

/** Each link's visits per UTC month (its first day), of the finished days: the every-link report's top links. No foreign key, as link_visit_days. */
export const linkVisitMonths = pgTable(
  "link_visit_months",
  {
    code: text("code").notNull(),
    month: date("month").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.code, t.month] }), index("link_visit_months_month_idx").on(t.month, t.code, t.visits)],
);

/** Visits that led nowhere (a code no link has, an expired or used-up link, a wrong password) per UTC day, domain, kind and referrer host. */
export const orphanVisits = pgTable(
  "orphan_visits",
  {
    day: date("day").notNull(),
    /** The domain whose host was asked (0: the default domain). */
    domainId: integer("domain_id").notNull().default(0),
    kind: text("kind").notNull(),
    referrer: text("referrer").notNull(),
    humans: bigint("humans", { mode: "number" }).notNull(),
    bots: bigint("bots", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.domainId, t.kind, t.referrer] })],
);

/** The audit log (migration 0025): a workspace's events, or the instance's (workspace_id null). */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity({ startWith: 1 }),
    at: instant("at").notNull(),
    workspaceId: integer("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    actorKind: text("actor_kind").$type<Actor["kind"]>().notNull(),
    actorId: text("actor_id"),
    action: text("action").$type<AuditAction>().notNull(),
    target: text("target").notNull(),
  },
  (t) => [index("audit_events_workspace_id_idx").on(t.workspaceId, t.id.desc())],
);

/** Domains granted to workspaces (migration 0026). */
export const domainWorkspaces = pgTable(
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

/** Reports of harmful links (migration 0029); never who sent one. */
export const reports = pgTable(
  "reports",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity({ startWith: 1 }),
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

/** The threat recheck's one row (migration 0029): its lease, its cursor, and when it runs next. */
export const threatRecheck = pgTable("threat_recheck", {
  id: integer("id").primaryKey(),
  holder: text("holder"),
  leaseUntil: instant("lease_until"),
  cursor: text("cursor"),
  nextRunAt: instant("next_run_at").notNull(),
});
