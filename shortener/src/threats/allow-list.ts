import { describeError, HttpError, type Logger } from "@linkgeo/shared";
import { type AdminVerdict, type AllowEntry, allowEntryOf, type AllowStore } from "./allow-entry.ts";
import { threatUrlKey } from "./threat-entries.ts";
import type { ThreatCheck } from "../links/threat-check.ts";

/** The name a refusal gives the ban list, as a feed's is its file's name. */
export const bannedListName = "banned";

/** How messages name each list. */
export const adminListNames: Record<AdminVerdict, string> = { allow: "allow-list", ban: "ban list" };

/** 409 `conflict`: the same domain or URL is on the list already. */
export class AllowEntryTaken extends HttpError {
  private constructor(message: string) {
    super(409, "conflict", message);
  }

  static naming(entry: Pick<AllowEntry, "kind" | "value" | "verdict">): AllowEntryTaken {
    return new AllowEntryTaken(`the ${entry.kind} ${JSON.stringify(entry.value)} is on the ${adminListNames[entry.verdict]} already`);
  }
}

/** 404 `not_found`: no entry of the list has this id. */
export class AllowEntryNotFound extends HttpError {
  private constructor(verdict: AdminVerdict) {
    super(404, "not_found", `no ${adminListNames[verdict]} entry has this id`);
  }

  static on(verdict: AdminVerdict): AllowEntryNotFound {
    return new AllowEntryNotFound(verdict);
  }
}

export interface AllowListDeps {
  store: AllowStore;
  /** Which list: the allow-list (default) or the ban list, kept alike. */
  verdict?: AdminVerdict;
  clock: () => Date;
  log: Logger;
  /** How long a replica trusts what it read before it reads the list again, in the background. Default 1,000 ms. */
  trustMs?: number;
  /** Milliseconds on a monotonic clock; tests pass one they move. */
  now?: () => number;
}

/**
 * The allow-list (docs/abuse.md): domains and URLs allowed whatever the
 * threat feeds say, for their false positives; or, with `verdict` "ban",
 * the ban list: domains an admin refused (from the reports' queue), a list
 * of its own for every check. Asked on every destination
 * check, so each replica keeps the entries it read last and reads them
 * again in the background once they are `trustMs` old: an entry added on
 * one replica counts on every other within about a second, on this one at
 * once. A failed read keeps the last one; before the first read is in, no
 * entry allows anything (a feed's refusal stands).
 */
export class AllowList {
  private domains: ReadonlySet<string> = new Set();
  private urls: ReadonlySet<string> = new Set();
  private readAt: number | undefined;
  private loadedOnce = false;
  private reading: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: AllowListDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  get verdict(): AdminVerdict {
    return this.deps.verdict ?? "allow";
  }

  /**
   * `checks` with this list over it: a URL the allow-list names is listed by no feed; one the ban list names, by it.
   * Complete once this list has been read and `checks` is complete.
   */
  over(checks: ThreatCheck): ThreatCheck {
    const list = this;
    const listing =
      this.verdict === "ban"
        ? (url: URL, counted?: boolean) => (this.names(url) ? bannedListName : checks.listing(url, counted))
        : (url: URL, counted?: boolean) => (this.names(url) ? undefined : checks.listing(url, counted));
    return {
      listing,
      get complete() {
        return list.loaded && (checks.complete ?? true);
      },
    };
  }

  /** Whether a read has succeeded: before it, the list names nothing. */
  get loaded(): boolean {
    return this.loadedOnce;
  }

  /** Whether an entry names `url`: the URL itself, or its host or a domain above it. */
  names(url: URL): boolean {
    if (this.readAt === undefined || this.now() - this.readAt >= (this.deps.trustMs ?? 1_000)) void this.read();
    if (this.domains.size === 0 && this.urls.size === 0) return false;
    const key = threatUrlKey(url.href);
    if (key !== undefined && this.urls.has(key)) return true;
    for (let host = url.hostname.replace(/\.+$/, ""); ; host = host.slice(host.indexOf(".") + 1)) {
      if (this.domains.has(host)) return true;
      if (!host.includes(".") || host.startsWith("[")) return false;
    }
  }

  /** Reads the entries again now; one read at a time. */
  read(): Promise<void> {
    this.reading ??= this.deps.store
      .list(this.verdict)
      .then(
        (entries) => this.keep(entries),
        (error: unknown) => {
          // Tried again at the next check, not at every one until then.
          this.readAt = this.now();
          this.deps.log.warn(`${adminListNames[this.verdict]} could not be read: the last one read is kept`, { error: describeError(error) });
        },
      )
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  async add(body: { domain?: unknown; url?: unknown }): Promise<AllowEntry> {
    const wanted = { ...allowEntryOf(body), verdict: this.verdict };
    const added = await this.deps.store.insert({ ...wanted, createdAt: this.deps.clock() });
    if (!added) throw AllowEntryTaken.naming(wanted);
    await this.readAfterChange();
    return added;
  }

  list(): Promise<AllowEntry[]> {
    return this.deps.store.list(this.verdict);
  }

  async remove(rawId: string): Promise<void> {
    const id = Number(rawId);
    if (!(Number.isSafeInteger(id) && id > 0 && /^\d+$/.test(rawId)) || !(await this.deps.store.delete(this.verdict, id)))
      throw AllowEntryNotFound.on(this.verdict);
    await this.readAfterChange();
  }

  /** A read begun after the change: one in flight may have begun before it, and is waited out first. */
  private async readAfterChange(): Promise<void> {
    await this.reading;
    await this.read();
  }

  private keep(entries: readonly AllowEntry[]): void {
    this.domains = new Set(entries.filter((entry) => entry.kind === "domain").map((entry) => entry.value));
    // Keyed again as now (threatUrlKey): an entry stored by an earlier version keeps matching.
    this.urls = new Set(entries.filter((entry) => entry.kind === "url").map((entry) => threatUrlKey(entry.value) ?? entry.value));
    this.readAt = this.now();
    this.loadedOnce = true;
  }
}
