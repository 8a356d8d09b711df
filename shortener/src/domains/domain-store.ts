import type { Domain, DomainChanges, NewDomain } from "./domain.ts";

/**
 * Where domains live. One implementation per engine (Postgres, SQLite);
 * both pass the same contract suite (`shortener/test/domain-store.contract.test.ts`).
 * The default domain (id 0, host null) is made by the migration and is never deleted.
 */
export interface DomainStore {
  /** The new domain, or null when its host is taken. */
  insert(domain: NewDomain): Promise<Domain | null>;
  /** Every domain, the default one first, then by host. */
  list(): Promise<Domain[]>;
  /** The domain after the change, or why there is none: no domain has this id, or the new host is another's. */
  update(id: number, changes: DomainChanges): Promise<Domain | "not found" | "host taken">;
  /** True when a domain was deleted; never the default one. */
  delete(id: number): Promise<boolean>;
}
