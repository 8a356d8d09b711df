import type { ApiKey } from "./api-key.ts";

/**
 * Where API keys live. One implementation per engine (Postgres, SQLite);
 * both pass the same contract suite (`shortener/test/api-key-store.contract.test.ts`).
 */
export interface ApiKeyStore {
  insert(key: ApiKey): Promise<void>;
  /** The key whose SHA-256 (hex) this is, or null. */
  findByHash(keyHash: string): Promise<ApiKey | null>;
  /** Every key, newest first. */
  list(): Promise<ApiKey[]>;
  /** True when a key was deleted (revoked). */
  delete(id: string): Promise<boolean>;
  /** Moves each key's last use forward to its time here (never back); keys gone meanwhile are skipped. */
  recordUses(uses: ReadonlyMap<string, Date>): Promise<void>;
}
