import type { AdminStore } from "../admins/admin-store.ts";
import type { DomainStore } from "../domains/domain-store.ts";
import type { AllowStore } from "../threats/allow-entry.ts";
import type { RecheckStore } from "../threats/recheck-store.ts";
import type { ReportStore } from "../threats/report.ts";
import type { ApiKeyStore } from "../auth/api-key-store.ts";
import type { AdminSessionStore } from "../auth/admin-session-store.ts";
import type { PeopleStore } from "../people/people-store.ts";
import type { WorkspaceStore } from "../people/workspace-store.ts";
import type { AuditStore } from "../audit/audit-store.ts";
import type { LinkStore } from "../links/link-store.ts";
import type { OrphanVisitStore } from "../visits/orphan-visit-store.ts";
import { storageUnavailable } from "./storage-unavailable.ts";

/**
 * Whether the database takes writes. A database can answer reads and
 * refuse every write (a full disk, a read-only file, an I/O error), and
 * then `/ready` must say so, or a load balancer keeps sending creates and
 * redirects to a replica that can only answer 503. A write failing for such
 * a reason marks writes failing; any write that succeeds clears it. While
 * they fail, `check()` makes a write of its own (`probe`), so the replica
 * comes back once the database takes writes again, even with no traffic.
 */
export class WriteHealth {
  private failing = false;

  constructor(private readonly probe: () => Promise<void>) {}

  /** Runs `write`, noting what its outcome says about the database. */
  async watch<T>(write: () => Promise<T>): Promise<T> {
    try {
      const result = await write();
      this.failing = false;
      return result;
    } catch (error) {
      if (storageUnavailable(error)) this.failing = true;
      throw error;
    }
  }

  /** For `/ready`: resolves while writes work; while they fail, only once a probe write succeeds. */
  async check(): Promise<void> {
    if (!this.failing) return;
    await this.probe();
    this.failing = false;
  }
}

/** The stores with every write watched by `health`; reads pass through. */
export function storesWatchingWrites<
  S extends {
    links: LinkStore;
    admins: AdminStore;
    sessions: AdminSessionStore;
    orphans: OrphanVisitStore;
    apiKeys: ApiKeyStore;
    domains: DomainStore;
    allowList: AllowStore;
    reports: ReportStore;
    recheck: RecheckStore;
    people: PeopleStore;
    workspaces: WorkspaceStore;
    audit: AuditStore;
  },
>(stores: S, health: WriteHealth): S {
  const { links, admins, sessions, orphans, apiKeys, domains, allowList, reports, recheck, people, workspaces, audit } = stores;
  return {
    ...stores,
    links: {
      insert: (link) => health.watch(() => links.insert(link)),
      insertMany: (batch) => health.watch(() => links.insertMany(batch)),
      find: (code) => links.find(code),
      findByManageTokenHash: (hash) => links.findByManageTokenHash(hash),
      update: (code, changes, at, heldAs) => health.watch(() => links.update(code, changes, at, heldAs)),
      delete: (code) => health.watch(() => links.delete(code)),
      list: (query) => links.list(query),
      exportPage: (after, limit, workspaceId) => links.exportPage(after, limit, workspaceId),
      findMany: (codes) => links.findMany(codes),
      keysOn: (domainId, limit) => links.keysOn(domainId, limit),
      insertImported: (batch) => health.watch(() => links.insertImported(batch)),
      recordVisits: (counts, at, deadline, access) => health.watch(() => links.recordVisits(counts, at, deadline, access)),
    } satisfies LinkStore,
    admins: {
      insert: (admin) => health.watch(() => admins.insert(admin)),
      find: (username) => admins.find(username),
    } satisfies AdminStore,
    sessions: {
      insert: (session) => health.watch(() => sessions.insert(session)),
      findLive: (idHashes, now) => sessions.findLive(idHashes, now),
      delete: (idHash) => health.watch(() => sessions.delete(idHash)),
      deleteExpired: (now) => health.watch(() => sessions.deleteExpired(now)),
    } satisfies AdminSessionStore,
    orphans: {
      add: (counts) => health.watch(() => orphans.add(counts)),
      days: (scope) => orphans.days(scope),
      breakdowns: (scope, limit) => orphans.breakdowns(scope, limit),
      snapshot: (read) => orphans.snapshot(read),
    } satisfies OrphanVisitStore,
    apiKeys: {
      insert: (key) => health.watch(() => apiKeys.insert(key)),
      findByHash: (keyHash) => apiKeys.findByHash(keyHash),
      list: (workspaceId) => apiKeys.list(workspaceId),
      delete: (id) => health.watch(() => apiKeys.delete(id)),
      recordUses: (uses) => health.watch(() => apiKeys.recordUses(uses)),
    } satisfies ApiKeyStore,
    allowList: {
      insert: (entry) => health.watch(() => allowList.insert(entry)),
      list: (verdict) => allowList.list(verdict),
      delete: (verdict, id) => health.watch(() => allowList.delete(verdict, id)),
    } satisfies AllowStore,
    reports: {
      insert: (report, maxOpen) => health.watch(() => reports.insert(report, maxOpen)),
      page: (query) => reports.page(query),
      find: (id) => reports.find(id),
      resolveLink: (code, action, at) => health.watch(() => reports.resolveLink(code, action, at)),
      openCount: () => reports.openCount(),
    } satisfies ReportStore,
    recheck: {
      claim: (holder, now, leaseUntil) => health.watch(() => recheck.claim(holder, now, leaseUntil)),
      advance: (holder, cursor, leaseUntil) => health.watch(() => recheck.advance(holder, cursor, leaseUntil)),
      finish: (holder, nextRunAt) => health.watch(() => recheck.finish(holder, nextRunAt)),
    } satisfies RecheckStore,
    domains: {
      insert: (domain) => health.watch(() => domains.insert(domain)),
      list: () => domains.list(),
      update: (id, changes) => health.watch(() => domains.update(id, changes)),
      delete: (id) => health.watch(() => domains.delete(id)),
    } satisfies DomainStore,
    people: {
      insert: (person) => health.watch(() => people.insert(person)),
      findByUsername: (username) => people.findByUsername(username),
      insertSession: (session) => health.watch(() => people.insertSession(session)),
      findLiveSession: (idHash, now) => people.findLiveSession(idHash, now),
      deleteSession: (idHash) => health.watch(() => people.deleteSession(idHash)),
      deleteExpiredSessions: (now) => health.watch(() => people.deleteExpiredSessions(now)),
      delete: (personId) => health.watch(() => people.delete(personId)),
    } satisfies PeopleStore,
    workspaces: {
      create: (workspace, ownerId) => health.watch(() => workspaces.create(workspace, ownerId)),
      ofPerson: (personId) => workspaces.ofPerson(personId),
      page: (after, limit) => workspaces.page(after, limit),
      find: (id) => workspaces.find(id),
      roleOf: (workspaceId, personId) => workspaces.roleOf(workspaceId, personId),
      members: (workspaceId) => workspaces.members(workspaceId),
      findLiveInvite: (idHash, now) => workspaces.findLiveInvite(idHash, now),
      insertInvite: (invite) => health.watch(() => workspaces.insertInvite(invite)),
      liveInvites: (workspaceId, now) => workspaces.liveInvites(workspaceId, now),
      deleteInvite: (workspaceId, idPrefix) => health.watch(() => workspaces.deleteInvite(workspaceId, idPrefix)),
      accept: (idHash, joiner, now) => health.watch(() => workspaces.accept(idHash, joiner, now)),
      deleteExpiredInvites: (now) => health.watch(() => workspaces.deleteExpiredInvites(now)),
      delete: (id) => health.watch(() => workspaces.delete(id)),
      changeMember: (workspaceId, personId, role) => health.watch(() => workspaces.changeMember(workspaceId, personId, role)),
    } satisfies WorkspaceStore,
    audit: {
      append: (events) => health.watch(() => audit.append(events)),
      page: (workspaceId, limit, before) => audit.page(workspaceId, limit, before),
      trim: (workspaceId, keep) => health.watch(() => audit.trim(workspaceId, keep)),
    } satisfies AuditStore,
  };
}
