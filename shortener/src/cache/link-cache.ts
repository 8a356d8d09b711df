/**
 * Code → long URL. `undefined`: not cached; `null`: known not to exist (a
 * short-lived tombstone that keeps scans of unknown codes off the database).
 * The cache is never the authority for a redirect: the count write returns
 * the current URL, so a stale entry cannot send anyone to an old address.
 */
export interface LinkCache {
  get(code: string): Promise<string | null | undefined>;
  set(code: string, longUrl: string): Promise<void>;
  /** Records that `code` does not exist, unless something is already cached for it. */
  markMissing(code: string): Promise<void>;
  forget(code: string): Promise<void>;
  ping(): Promise<void>;
}

export const linkTtlSeconds = 60 * 60;
export const missingTtlSeconds = 30;
