import { withDatabaseDeadline } from "../database-deadline.ts";
import type { AdminStore } from "../admins/admin-store.ts";
import type { ApiKeyStore } from "../auth/api-key-store.ts";
import type { AdminSessionStore } from "../auth/admin-session-store.ts";
import type { DomainStore } from "../domains/domain-store.ts";
import type { LinkStore } from "../links/link-store.ts";
import type { PeopleStore } from "../people/people-store.ts";
import type { WorkspaceStore } from "../people/workspace-store.ts";
import type { AuditStore } from "../audit/audit-store.ts";
import type { OrphanVisitStore } from "../visits/orphan-visit-store.ts";
import type { VisitStore } from "../visits/visit-store.ts";
import type { AllowStore } from "../threats/allow-entry.ts";
import type { RecheckStore } from "../threats/recheck-store.ts";
import type { ReportStore } from "../threats/report.ts";

/** Every store of a database, each a port its users know it by. */
export interface Stores {
  links: LinkStore;
  admins: AdminStore;
  sessions: AdminSessionStore;
  visits: VisitStore;
  /** Visits that led nowhere (visits/orphan-visits.ts). */
  orphans: OrphanVisitStore;
  apiKeys: ApiKeyStore;
  domains: DomainStore;
  /** Accounts apart from the admins (people/). */
  people: PeopleStore;
  /** Workspaces and their members (people/). */
  workspaces: WorkspaceStore;
  /** The audit log (audit/). */
  audit: AuditStore;
  /** The threat feeds' allow-list and the ban list (threats/). */
  allowList: AllowStore;
  /** Reports of harmful links (threats/). */
  reports: ReportStore;
  /** The threat recheck's lease and place (threats/). */
  recheck: RecheckStore;
}

/**
 * The stores with a deadline on every call, so a database that hangs (frozen
 * connections, a lock never released) costs a request a 503 after
 * `timeoutMs`, not an answer that never comes. `recordVisits` is passed
 * through: the VisitCounter gives each batch its own deadline and tells the
 * store, which must not commit once it has passed.
 */
export function storesWithDeadline(stores: Stores, timeoutMs: number): Stores {
  const { links, admins, sessions, visits, orphans, apiKeys, domains, people, workspaces, audit, allowList, reports, recheck } = stores;
  const bounded =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    (...args: A) =>
      withDatabaseDeadline(timeoutMs, () => call(...args));
  return {
    links: {
      insert: bounded((link) => links.insert(link)),
      insertMany: bounded((batch) => links.insertMany(batch)),
      find: bounded((code) => links.find(code)),
      findByManageTokenHash: bounded((hash) => links.findByManageTokenHash(hash)),
      update: bounded((code, changes, at, heldAs) => links.update(code, changes, at, heldAs)),
      delete: bounded((code) => links.delete(code)),
      list: bounded((query) => links.list(query)),
      exportPage: bounded((after, limit, workspaceId) => links.exportPage(after, limit, workspaceId)),
      findMany: bounded((codes) => links.findMany(codes)),
      keysOn: bounded((domainId, limit) => links.keysOn(domainId, limit)),
      insertImported: bounded((batch) => links.insertImported(batch)),
      recordVisits: (counts, at, signal, access) => links.recordVisits(counts, at, signal, access),
    },
    admins: {
      insert: bounded((admin) => admins.insert(admin)),
      find: bounded((username) => admins.find(username)),
    },
    sessions: {
      insert: bounded((session) => sessions.insert(session)),
      findLive: bounded((idHashes, now) => sessions.findLive(idHashes, now)),
      delete: bounded((idHash) => sessions.delete(idHash)),
      deleteExpired: bounded((now) => sessions.deleteExpired(now)),
    },
    visits: {
      // One deadline for the whole snapshot (a report's reads); the reads inside it are the engine's own.
      snapshot: bounded((read) => visits.snapshot(read)),
      buckets: bounded((scope, from, to) => visits.buckets(scope, from, to)),
      facts: bounded((scope, fromDay, toDay) => visits.facts(scope, fromDay, toDay)),
      factDays: bounded((scope, dimension, value, fromDay, toDay) => visits.factDays(scope, dimension, value, fromDay, toDay)),
      dailyCounts: bounded((codes, from, to) => visits.dailyCounts(codes, from, to)),
      topLinks: bounded((from, to, limit) => visits.topLinks(from, to, limit)),
      // A background job, not a request: it sets its own limits.
      foldHoursBefore: (before) => visits.foldHoursBefore(before),
      sumVisitLog: () => visits.sumVisitLog(),
      rollUpBefore: (before) => visits.rollUpBefore(before),
    },
    orphans: {
      // OrphanVisits drops a batch whose write failed: a hung database costs it one batch per deadline, never a growing backlog.
      add: bounded((counts) => orphans.add(counts)),
      days: bounded((scope) => orphans.days(scope)),
      breakdowns: bounded((scope, limit) => orphans.breakdowns(scope, limit)),
      snapshot: bounded((read) => orphans.snapshot(read)),
    },
    apiKeys: {
      insert: bounded((key) => apiKeys.insert(key)),
      findByHash: bounded((keyHash) => apiKeys.findByHash(keyHash)),
      list: bounded((workspaceId) => apiKeys.list(workspaceId)),
      delete: bounded((id) => apiKeys.delete(id)),
      recordUses: bounded((uses) => apiKeys.recordUses(uses)),
    },
    allowList: {
      insert: bounded((entry) => allowList.insert(entry)),
      list: bounded((verdict) => allowList.list(verdict)),
      delete: bounded((verdict, id) => allowList.delete(verdict, id)),
    },
    reports: {
      insert: bounded((report, maxOpen) => reports.insert(report, maxOpen)),
      page: bounded((query) => reports.page(query)),
      find: bounded((id) => reports.find(id)),
      resolveLink: bounded((code, action, at) => reports.resolveLink(code, action, at)),
      openCount: bounded(() => reports.openCount()),
    },
    recheck: {
      claim: bounded((holder, now, leaseUntil) => recheck.claim(holder, now, leaseUntil)),
      advance: bounded((holder, cursor, leaseUntil) => recheck.advance(holder, cursor, leaseUntil)),
      finish: bounded((holder, nextRunAt) => recheck.finish(holder, nextRunAt)),
    },
    domains: {
      insert: bounded((domain) => domains.insert(domain)),
      list: bounded(() => domains.list()),
      update: bounded((id, changes) => domains.update(id, changes)),
      delete: bounded((id) => domains.delete(id)),
    },
    people: {
      insert: bounded((person) => people.insert(person)),
      findByUsername: bounded((username) => people.findByUsername(username)),
      insertSession: bounded((session) => people.insertSession(session)),
      findLiveSession: bounded((idHash, now) => people.findLiveSession(idHash, now)),
      deleteSession: bounded((idHash) => people.deleteSession(idHash)),
      deleteExpiredSessions: bounded((now) => people.deleteExpiredSessions(now)),
      delete: bounded((personId) => people.delete(personId)),
    },
    workspaces: {
      create: bounded((workspace, ownerId) => workspaces.create(workspace, ownerId)),
      ofPerson: bounded((personId) => workspaces.ofPerson(personId)),
      page: bounded((after, limit) => workspaces.page(after, limit)),
      find: bounded((id) => workspaces.find(id)),
      roleOf: bounded((workspaceId, personId) => workspaces.roleOf(workspaceId, personId)),
      members: bounded((workspaceId) => workspaces.members(workspaceId)),
      findLiveInvite: bounded((idHash, now) => workspaces.findLiveInvite(idHash, now)),
      insertInvite: bounded((invite) => workspaces.insertInvite(invite)),
      liveInvites: bounded((workspaceId, now) => workspaces.liveInvites(workspaceId, now)),
      deleteInvite: bounded((workspaceId, idPrefix) => workspaces.deleteInvite(workspaceId, idPrefix)),
      accept: bounded((idHash, joiner, now) => workspaces.accept(idHash, joiner, now)),
      deleteExpiredInvites: bounded((now) => workspaces.deleteExpiredInvites(now)),
      delete: bounded((id) => workspaces.delete(id)),
      changeMember: bounded((workspaceId, personId, role) => workspaces.changeMember(workspaceId, personId, role)),
    },
    audit: {
      append: bounded((events) => audit.append(events)),
      page: bounded((workspaceId, limit, before) => audit.page(workspaceId, limit, before)),
      trim: bounded((workspaceId, keep) => audit.trim(workspaceId, keep)),
    },
  };
}
