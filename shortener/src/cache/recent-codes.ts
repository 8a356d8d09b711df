import { BoundedMap } from "@linkgeo/shared";

/**
 * Codes this process saw exist a moment ago, kept in memory. A redirect for
 * one of them skips the shared cache's read and goes straight to the count
 * write, which decides anyway (a link deleted meanwhile still answers 404).
 * Only "exists" is remembered here, never "missing": a miss in one replica
 * must not hide an alias another replica has just created.
 */
export class RecentCodes {
  private readonly seenAt: BoundedMap<string, number>;

  constructor(
    maxCodes = 50_000,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.seenAt = new BoundedMap(maxCodes);
  }

  has(code: string): boolean {
    const at = this.seenAt.get(code);
    if (at === undefined) return false;
    if (this.now() - at < this.ttlMs) return true;
    this.seenAt.delete(code);
    return false;
  }

  add(code: string): void {
    this.seenAt.set(code, this.now());
  }

  delete(code: string): void {
    this.seenAt.delete(code);
  }
}
