import type { WorkspaceRole } from "./roles.ts";
import type { ApiKey } from "./api-key.ts";

/** A key as a request finds it: for a workspace's key, its maker's role there now (null once they left). */
export type FoundApiKey = ApiKey & { makerRole: WorkspaceRole | null };

/**
 * Where API keys live. One implementation per engine (Postgres, SQLite);
 * both pass the same contract suite (`shortener/test/api-key-store.contract.test.ts`).
 */
export interface ApiKeyStore {
  insert(key: ApiKey): Promise<void>;
  /** The key whose SHA-256 (hex) this is, with its maker's role in its workspace, or null. */
  findByHash(keyHash: string): Promise<FoundApiKey | null>;
  /** Every key (or workspace `workspaceId`'s), newest first. */
  list(workspaceId?: number): Promise<ApiKey[]>;
  /** True when a key was deleted (revoked). */
  delete(id: string): Promise<boolean>;
  /** Moves each key's last use forward to its time here (never back); keys gone meanwhile are skipped. */
  recordUses(uses: ReadonlyMap<string, Date>): Promise<void>;
}
