import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { ApiKey } from "../../auth/api-key.ts";
import type { ApiKeyStore, FoundApiKey } from "../../auth/api-key-store.ts";
import { apiKeys, workspaceMembers } from "./schema.ts";

export class SqliteApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: BunSQLiteDatabase) {}

  async insert(key: ApiKey): Promise<void> {
    this.db.insert(apiKeys).values(key).run();
  }

  async findByHash(keyHash: string): Promise<FoundApiKey | null> {
    return (
      this.db
        .select({ ...getTableColumns(apiKeys), makerRole: workspaceMembers.role })
        .from(apiKeys)
        .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, apiKeys.workspaceId), eq(workspaceMembers.personId, apiKeys.madeBy)))
        .where(eq(apiKeys.keyHash, keyHash))
        .get() ?? null
    );
  }

  async list(workspaceId?: number): Promise<ApiKey[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(workspaceId === undefined ? undefined : eq(apiKeys.workspaceId, workspaceId))
      .orderBy(desc(apiKeys.createdAt), apiKeys.id)
      .all();
  }

  async delete(id: string): Promise<boolean> {
    return this.db.delete(apiKeys).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id }).all().length > 0;
  }

  async recordUses(uses: ReadonlyMap<string, Date>): Promise<void> {
    this.db.transaction((tx) => {
      for (const [id, at] of uses) {
        tx.update(apiKeys)
          .set({ lastUsedAt: sql`max(coalesce(${apiKeys.lastUsedAt}, 0), ${at.getTime()})` })
          .where(eq(apiKeys.id, id))
          .run();
      }
    });
  }
}
