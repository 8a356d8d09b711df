import { asc, eq, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { defaultDomainId, type Domain, type DomainChanges, type NewDomain } from "../../domains/domain.ts";
import type { DomainStore } from "../../domains/domain-store.ts";
import { domains } from "./schema.ts";

/** Postgres' unique_violation: a host another domain took between our check and the write. */
const uniqueViolation = "23505";

export class PostgresDomainStore implements DomainStore {
  constructor(private readonly db: PostgresJsDatabase) {}

  async insert(domain: NewDomain): Promise<Domain | null> {
    const rows = await this.db.insert(domains).values(domain).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async list(): Promise<Domain[]> {
    return this.db.select().from(domains).orderBy(sql`${domains.id} <> ${defaultDomainId}`, asc(domains.host));
  }

  async update(id: number, changes: DomainChanges): Promise<Domain | "not found" | "host taken"> {
    if (Object.keys(changes).length === 0) return (await this.db.select().from(domains).where(eq(domains.id, id)))[0] ?? "not found";
    try {
      const rows = await this.db.update(domains).set(changes).where(eq(domains.id, id)).returning();
      return rows[0] ?? "not found";
    } catch (error) {
      // Drizzle hands postgres.js' error on as its cause.
      const failure = error as { code?: unknown; cause?: { code?: unknown } };
      if (failure.code === uniqueViolation || failure.cause?.code === uniqueViolation) return "host taken";
      throw error;
    }
  }

  async delete(id: number): Promise<boolean> {
    if (id === defaultDomainId) return false;
    const rows = await this.db.delete(domains).where(eq(domains.id, id)).returning({ id: domains.id });
    return rows.length > 0;
  }
}
