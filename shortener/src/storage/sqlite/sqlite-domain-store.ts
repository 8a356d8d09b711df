import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { defaultDomainId, type Domain, type DomainChanges, type NewDomain } from "../../domains/domain.ts";
import type { DomainStore } from "../../domains/domain-store.ts";
import { domains } from "./schema.ts";

export class SqliteDomainStore implements DomainStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(domain: NewDomain): Promise<Domain | null> {
    return this.db.insert(domains).values(domain).onConflictDoNothing().returning().get() ?? null;
  }

  async list(): Promise<Domain[]> {
    return this.db.select().from(domains).orderBy(sql`${domains.id} <> ${defaultDomainId}`, asc(domains.host)).all();
  }

  async update(id: number, changes: DomainChanges): Promise<Domain | "not found" | "host taken"> {
    if (changes.host !== undefined) {
      const other = this.db
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.host, changes.host), ne(domains.id, id)))
        .get();
      if (other) return "host taken";
    }
    if (Object.keys(changes).length === 0) return this.db.select().from(domains).where(eq(domains.id, id)).get() ?? "not found";
    return this.db.update(domains).set(changes).where(eq(domains.id, id)).returning().get() ?? "not found";
  }

  async delete(id: number): Promise<boolean> {
    if (id === defaultDomainId) return false;
    return this.db.delete(domains).where(eq(domains.id, id)).returning({ id: domains.id }).all().length > 0;
  }
}
