import type { LinkQuery, LinkStore } from "../links/link-store.ts";
import type { OrphanVisitReads, OrphanVisitStore } from "../visits/orphan-visit-store.ts";
import type { VisitReads, VisitStore } from "../visits/visit-store.ts";
import type { ReadReplicas } from "./postgres/read-replicas.ts";
import { lostConnection } from "./storage-unavailable.ts";

/** The stores whose reads a replica may answer. */
export interface ReadStores {
  links: LinkStore;
  visits: VisitStore;
  orphans: OrphanVisitStore;
}

/**
 * The primary's stores, with the reads that may be a moment old sent to a
 * fit read replica (DATABASE_READ_URL): the admin listing and search
 * (`links.list`, unless the client asked for a fresh answer), exports
 * (`links.exportPage`), and the visits reports (every `visits` and `orphans`
 * read). Everything else stays on the primary: writes, and the reads a
 * client must see its own writes in (a link by code or manage token, the
 * redirect, a visit cap, keys, sessions). A read a replica fails is asked of
 * the primary; a replica out of reach is skipped until the watch finds it
 * fit again, one that failed a statement (a conflict with its recovery, its
 * statement timeout) is not.
 */
export function readingFromReplicas<S extends ReadStores>(primary: S, replicas: ReadReplicas<ReadStores>): S {
  const fromReplica =
    <A extends unknown[], T>(read: (stores: ReadStores, ...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      const replica = replicas.pick();
      if (replica) {
        try {
          return await read(replica.stores, ...args);
        } catch (error) {
          if (lostConnection(error)) replicas.failed(replica, error);
        }
      }
      return read(primary, ...args);
    };
  const listFromReplica = fromReplica((stores, query: LinkQuery) => stores.links.list(query));
  return {
    ...primary,
    links: overriding(primary.links, {
      list: (query) => (query.fresh ? primary.links.list(query) : listFromReplica(query)),
      exportPage: fromReplica((stores, after, limit, workspaceId) => stores.links.exportPage(after, limit, workspaceId)),
    }),
    visits: overriding(primary.visits, {
      buckets: fromReplica((stores, scope, from, to) => stores.visits.buckets(scope, from, to)),
      facts: fromReplica((stores, scope, fromDay, toDay) => stores.visits.facts(scope, fromDay, toDay)),
      factDays: fromReplica((stores, scope, dimension, value, fromDay, toDay) => stores.visits.factDays(scope, dimension, value, fromDay, toDay)),
      dailyCounts: fromReplica((stores, codes, from, to) => stores.visits.dailyCounts(codes, from, to)),
      topLinks: fromReplica((stores, from, to, limit) => stores.visits.topLinks(from, to, limit)),
      // A report's reads on one replica, in one transaction: parts from two replicas, or from one a moment apart, would not add up.
      snapshot: <T>(read: (reads: VisitReads) => Promise<T>) => fromReplica((stores) => stores.visits.snapshot(read))(),
    }),
    orphans: overriding(primary.orphans, {
      days: fromReplica((stores, scope) => stores.orphans.days(scope)),
      breakdowns: fromReplica((stores, scope, limit) => stores.orphans.breakdowns(scope, limit)),
      snapshot: <T>(read: (reads: OrphanVisitReads) => Promise<T>) => fromReplica((stores) => stores.orphans.snapshot(read))(),
    }),
  };
}

/** `store` with some of its methods replaced; the others are its own, called on it. */
function overriding<T extends object>(store: T, replaced: Partial<T>): T {
  return new Proxy(store, {
    get(target, key) {
      if (Object.hasOwn(replaced, key)) return replaced[key as keyof T];
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
