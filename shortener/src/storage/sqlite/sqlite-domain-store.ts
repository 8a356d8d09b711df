import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { defaultDomainId, type Domain, type DomainChanges, type NewDomain } from "../../domains/domain.ts";
import type { DomainStore } from "../../domains/domain-store.ts";
import { domains, domainWorkspaces } from "./schema.ts";

type DomainRow = Omit<Domain, "workspaces">;

export class SqliteDomainStore implements DomainStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(domain: NewDomain): Promise<Domain | null> {
    const row = this.db.insert(domains).values(domain).onConflictDoNothing().returning().get();
    return row ? { ...row, workspaces: [] } : null;
  }

  async list(): Promise<Domain[]> {
    const rows = this.db.select().from(domains).orderBy(sql`${domains.id} <> ${defaultDomainId}`, asc(domains.host)).all();
    return this.withGrants(rows);
  }

  async update(id: number, { workspaces, ...changes }: DomainChanges): Promise<Domain | "not found" | "host taken"> {
    if (changes.host !== undefined) {
      const other = this.db
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.host, changes.host), ne(domains.id, id)))
        .get();
      if (other) return "host taken";
    }
    return this.db.transaction((tx) => {
      const row =
        Object.keys(changes).length === 0
          ? tx.select().from(domains).where(eq(domains.id, id)).get()
          : tx.update(domains).set(changes).where(eq(domains.id, id)).returning().get();
      if (!row) return "not found";
      if (workspaces !== undefined) {
        tx.delete(domainWorkspaces).where(eq(domainWorkspaces.domainId, id)).run();
        if (workspaces.length > 0)
          tx.insert(domainWorkspaces)
            .values(workspaces.map((workspaceId) => ({ domainId: id, workspaceId })))
            .run();
      }
      return this.withGrants([row], tx)[0]!;
    });
  }

  async delete(id: number): Promise<boolean> {
    if (id === defaultDomainId) return false;
    return this.db.delete(domains).where(eq(domains.id, id)).returning({ id: domains.id }).all().length > 0;
  }

  private withGrants(rows: DomainRow[], db: Pick<BunSQLiteDatabase, "select"> = this.db): Domain[] {
    const grants = Map.groupBy(db.select().from(domainWorkspaces).orderBy(domainWorkspaces.workspaceId).all(), (grant) => grant.domainId);
    return rows.map((row) => ({ ...row, workspaces: (grants.get(row.id) ?? []).map((grant) => grant.workspaceId) }));
  }
}
