import { asc, eq, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { defaultDomainId, type Domain, type DomainChanges, type NewDomain } from "../../domains/domain.ts";
import type { DomainStore } from "../../domains/domain-store.ts";
import { hasErrorCode } from "../storage-unavailable.ts";
import { domains, domainWorkspaces } from "./schema.ts";

/** Postgres' unique_violation: a host another domain took between our check and the write. */
const uniqueViolation = "23505";

type DomainRow = Omit<Domain, "workspaces">;

export class PostgresDomainStore implements DomainStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(domain: NewDomain): Promise<Domain | null> {
    const rows = await this.db.insert(domains).values(domain).onConflictDoNothing().returning();
    return rows[0] ? { ...rows[0], workspaces: [] } : null;
  }

  async list(): Promise<Domain[]> {
    const rows = await this.db.select().from(domains).orderBy(sql`${domains.id} <> ${defaultDomainId}`, asc(domains.host));
    return this.withGrants(rows);
  }

  async update(id: number, { workspaces, ...changes }: DomainChanges): Promise<Domain | "not found" | "host taken"> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] =
          Object.keys(changes).length === 0
            ? await tx.select().from(domains).where(eq(domains.id, id))
            : await tx.update(domains).set(changes).where(eq(domains.id, id)).returning();
        if (!row) return "not found";
        if (workspaces !== undefined) {
          await tx.delete(domainWorkspaces).where(eq(domainWorkspaces.domainId, id));
          if (workspaces.length > 0) await tx.insert(domainWorkspaces).values(workspaces.map((workspaceId) => ({ domainId: id, workspaceId })));
        }
        return (await this.withGrants([row], tx))[0]!;
      });
    } catch (error) {
      if (hasErrorCode(error, uniqueViolation)) return "host taken";
      throw error;
    }
  }

  async delete(id: number): Promise<boolean> {
    if (id === defaultDomainId) return false;
    const rows = await this.db.delete(domains).where(eq(domains.id, id)).returning({ id: domains.id });
    return rows.length > 0;
  }

  private async withGrants(rows: DomainRow[], db: Pick<PostgresJsDatabase, "select"> = this.db): Promise<Domain[]> {
    const grants = Map.groupBy(await db.select().from(domainWorkspaces).orderBy(domainWorkspaces.workspaceId), (grant) => grant.domainId);
    return rows.map((row) => ({ ...row, workspaces: (grants.get(row.id) ?? []).map((grant) => grant.workspaceId) }));
  }
}
