import { describeError, HttpError, type Logger } from "@linkgeo/shared";
import { type AllowEntry, allowEntryOf, type AllowStore } from "./allow-entry.ts";
import { threatUrlKey } from "./threat-entries.ts";
import type { ThreatCheck } from "./threat-list.ts";

/** 409 `conflict`: the same domain or URL is on the allow-list already. */
export class AllowEntryTaken extends HttpError {
  private constructor(message: string) {
    super(409, "conflict", message);
  }

  static naming(entry: Pick<AllowEntry, "kind" | "value">): AllowEntryTaken {
    return new AllowEntryTaken(`the ${entry.kind} ${JSON.stringify(entry.value)} is on the allow-list already`);
  }
}

/** 404 `not_found`: no allow-list entry has this id. */
export class AllowEntryNotFound extends HttpError {
  private constructor() {
    super(404, "not_found", "no allow-list entry has this id");
  }

  static here(): AllowEntryNotFound {
    return new AllowEntryNotFound();
  }
}

export interface AllowListDeps {
  store: AllowStore;
  clock: () => Date;
  log: Logger;
  /** How long a replica trusts what it read before it reads the list again, in the background. Default 1,000 ms. */
  trustMs?: number;
  /** Milliseconds on a monotonic clock; tests pass one they move. */
  now?: () => number;
}

/**
 * The allow-list (docs/abuse.md): domains and URLs allowed whatever the
 * threat feeds say, for their false positives. Asked on every destination
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
  private reading: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: AllowListDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  /** `checks` with the allow-list over it: a URL it allows is listed by no feed. */
  over(checks: ThreatCheck): ThreatCheck {
    return { listing: (url) => (this.allows(url) ? undefined : checks.listing(url)) };
  }

  /** Whether an entry allows `url`: the URL itself, or its host or a domain above it. */
  allows(url: URL): boolean {
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
      .list()
      .then(
        (entries) => this.keep(entries),
        (error: unknown) => {
          // Tried again at the next check, not at every one until then.
          this.readAt = this.now();
          this.deps.log.warn("allow-list could not be read: the last one read is kept", { error: describeError(error) });
        },
      )
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  async add(body: { domain?: unknown; url?: unknown }): Promise<AllowEntry> {
    const wanted = allowEntryOf(body);
    const added = await this.deps.store.insert({ ...wanted, createdAt: this.deps.clock() });
    if (!added) throw AllowEntryTaken.naming(wanted);
    await this.readAfterChange();
    return added;
  }

  list(): Promise<AllowEntry[]> {
    return this.deps.store.list();
  }

  async remove(rawId: string): Promise<void> {
    const id = Number(rawId);
    if (!(Number.isSafeInteger(id) && id > 0 && /^\d+$/.test(rawId)) || !(await this.deps.store.delete(id))) throw AllowEntryNotFound.here();
    await this.readAfterChange();
  }

  /** A read begun after the change: one in flight may have begun before it, and is waited out first. */
  private async readAfterChange(): Promise<void> {
    await this.reading;
    await this.read();
  }

  private keep(entries: readonly AllowEntry[]): void {
    this.domains = new Set(entries.filter((entry) => entry.kind === "domain").map((entry) => entry.value));
    this.urls = new Set(entries.filter((entry) => entry.kind === "url").map((entry) => entry.value));
    this.readAt = this.now();
  }
}
