/**
 * Code → long URL. `undefined`: not cached; `null`: known not to exist (a
 * tombstone that keeps scans of unknown codes, and reads of a deleted link,
 * off the database). The cache is never the authority for a redirect: the
 * count write returns the current URL, so a stale entry cannot send anyone
 * to an old address. HEAD is answered from it, so what it holds must never
 * go back in time:
 *
 * - the writers of a link (create, update, delete) write what they changed,
 *   over anything cached (`set`, `markDeleted`);
 * - a reader that found the database's value writes it back only where
 *   nothing is cached (`fill`): its read may be older than a write that
 *   landed meanwhile, so it must not overwrite one;
 * - a reader that finds the cache disagreeing with the database drops the
 *   entry (`forget`): a miss sends the next reader to the database, which
 *   cannot be wrong.
 */
export interface LinkCache {
  get(code: string): Promise<string | null | undefined>;
  /** The link's URL as its writer just stored it, over anything cached. */
  set(code: string, longUrl: string): Promise<void>;
  /** The URL a reader found in the database, only if nothing is cached for `code`. */
  fill(code: string, longUrl: string): Promise<void>;
  /** Records that `code` does not exist, unless something is already cached for it. */
  markMissing(code: string): Promise<void>;
  /** The link was just deleted: a tombstone over anything cached, kept as long as a URL would be. */
  markDeleted(code: string): Promise<void>;
  forget(code: string): Promise<void>;
  ping(): Promise<void>;
}

export const linkTtlSeconds = 60 * 60;
export const missingTtlSeconds = 30;
