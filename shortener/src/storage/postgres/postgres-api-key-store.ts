import { and, desc, eq, getTableColumns } from "drizzle-orm";
import type { Sql } from "postgres";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { ApiKey } from "../../auth/api-key.ts";
import type { ApiKeyStore, FoundApiKey } from "../../auth/api-key-store.ts";
import { apiKeys, workspaceMembers } from "./schema.ts";

export class PostgresApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly db: PostgresJsDatabase,
    private readonly client: Sql,
  ) {}

  async insert(key: ApiKey): Promise<void> {
    await this.db.insert(apiKeys).values(key);
  }

  async findByHash(keyHash: string): Promise<FoundApiKey | null> {
    const rows = await this.db
      .select({ ...getTableColumns(apiKeys), makerRole: workspaceMembers.role })
      .from(apiKeys)
      .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, apiKeys.workspaceId), eq(workspaceMembers.personId, apiKeys.madeBy)))
      .where(eq(apiKeys.keyHash, keyHash));
    return rows[0] ?? null;
  }

  async list(workspaceId?: number): Promise<ApiKey[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(workspaceId === undefined ? undefined : eq(apiKeys.workspaceId, workspaceId))
      .orderBy(desc(apiKeys.createdAt), apiKeys.id);
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(apiKeys).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
    return rows.length > 0;
  }

  async recordUses(uses: ReadonlyMap<string, Date>): Promise<void> {
    if (uses.size === 0) return;
    const ids = [...uses.keys()];
    // One statement for every key used; a key's last use only moves forward (another replica may have written a later one).
    // The times go as ISO text: this client sends dates as text, which its timestamptz[] serializer does not take.
    await this.client`
      UPDATE api_keys SET last_used_at = greatest(api_keys.last_used_at, u.at::timestamptz)
      FROM unnest(${ids}::text[], ${ids.map((id) => uses.get(id)!.toISOString())}::text[]) AS u(id, at)
      WHERE api_keys.id = u.id`;
  }
}
