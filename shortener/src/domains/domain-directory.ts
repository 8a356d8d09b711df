import { describeError, type Logger } from "@linkgeo/shared";
import { defaultDomainId, type Domain } from "./domain.ts";
import type { DomainStore } from "./domain-store.ts";
import { requestHostName } from "./domain-host.ts";

/** UNKNOWN_HOSTS: a request on a host no domain has is served as the default domain, or answered 404. */
export type UnknownHosts = "default" | "404";

export interface DomainDirectoryDeps {
  store: Pick<DomainStore, "list">;
  /** PUBLIC_BASE_URL's host: the default domain's. Absent: any host no domain has is the default domain's. */
  publicHost?: string;
  unknownHosts: UnknownHosts;
  log: Logger;
  /** How long a replica serves what it read of the domains before it reads them again (in the background). Default 1,000 ms. */
  trustMs?: number;
  /** Milliseconds on a monotonic clock; tests pass one they move. */
  now?: () => number;
}

/** The domains as one replica read them at one moment: by id, and by host. */
export class DomainSnapshot {
  private readonly byId: ReadonlyMap<number, Domain>;
  private readonly byHost: ReadonlyMap<string, Domain>;

  constructor(domains: readonly Domain[]) {
    this.byId = new Map(domains.map((domain) => [domain.id, domain]));
    this.byHost = new Map(domains.flatMap((domain) => (domain.host === null ? [] : [[domain.host, domain]])));
  }

  /** The default domain; the migration made it, so only a store that lost it has none, and its settings are then none. */
  get defaultDomain(): Domain {
    return (
      this.byId.get(defaultDomainId) ?? {
        id: defaultDomainId,
        host: null,
        rootUrl: null,
        notFoundUrl: null,
        expiredUrl: null,
        redirectStatus: null,
        createdAt: new Date(0),
        workspaces: [],
      }
    );
  }

  withId(id: number): Domain | undefined {
    return this.byId.get(id);
  }

  withHost(host: string): Domain | undefined {
    return this.byHost.get(host);
  }

  /** Every added domain's host: a link may not lead to any of them. */
  get hosts(): string[] {
    return [...this.byHost.keys()];
  }
}

/**
 * Which domain a host is, on the redirect path and for the API, without a
 * database read per request: each replica keeps the domains it read last,
 * and reads them again in the background once they are `trustMs` old (a
 * domain added, changed or deleted on one replica is seen by every other
 * within about a second; on this one at once, `changed()`). A failed read
 * keeps the last one, said once in the log; only the first read of all is
 * waited for, and its failure is the request's (a 503).
 */
export class DomainDirectory {
  private snapshot: { domains: DomainSnapshot; readAt: number } | undefined;
  private reading: Promise<DomainSnapshot> | undefined;
  private readFailed = false;
  /** Moved on by `changed()`: a read begun before it may have missed the change, and is not kept. */
  private generation = 0;
  private readonly trustMs: number;
  private readonly now: () => number;

  constructor(private readonly deps: DomainDirectoryDeps) {
    this.trustMs = deps.trustMs ?? 1_000;
    this.now = deps.now ?? (() => performance.now());
  }

  /** The domains as last read; read again in the background when stale, waited for only the first time. */
  async current(): Promise<DomainSnapshot> {
    return this.held() ?? this.read();
  }

  /**
   * The domains as last read, without waiting (a redirect's path: no
   * promise to settle); undefined before the first read. Stale ones start a
   * read in the background, as `current` does.
   */
  held(): DomainSnapshot | undefined {
    const held = this.snapshot;
    if (held === undefined) return undefined;
    if (this.now() - held.readAt >= this.trustMs) void this.read().catch(() => {});
    return held.domains;
  }

  /** This replica changed a domain: the next call reads them again, and waits for it. */
  changed(): void {
    this.generation++;
    this.snapshot = undefined;
    this.reading = undefined;
  }

  /**
   * The domain a request on `hostName` is for: the added domain of that
   * host; else the default domain, for its own host, or for any host when
   * UNKNOWN_HOSTS is `default`; else undefined (a 404).
   */
  resolve(domains: DomainSnapshot, hostName: string | undefined): Domain | undefined {
    const added = hostName === undefined ? undefined : domains.withHost(hostName);
    if (added) return added;
    if (this.deps.unknownHosts === "default" || hostName === this.deps.publicHost) return domains.defaultDomain;
    return undefined;
  }

  /**
   * The domain a client names (a body's `domain`, `?domain=`) in any
   * spelling of its host: absent or the default domain's host, the default
   * domain; else the added domain of that host, or undefined.
   */
  named(domains: DomainSnapshot, host: string | undefined, requestHost: string | undefined): Domain | undefined {
    if (host === undefined || host === "") return domains.defaultDomain;
    const name = requestHostName(host);
    if (name === undefined) return undefined;
    // An added domain's host is that domain, whatever host the request came by.
    const added = domains.withHost(name);
    if (added) return added;
    return name === this.hostOf(domains.defaultDomain, requestHost) ? domains.defaultDomain : undefined;
  }

  /** The host of a domain's links: its own, or the default domain's for this request (PUBLIC_BASE_URL's, else the request's). */
  hostOf(domain: Pick<Domain, "host">, requestHostName: string | undefined): string {
    return domain.host ?? this.deps.publicHost ?? requestHostName ?? "";
  }

  private read(): Promise<DomainSnapshot> {
    const generation = this.generation;
    this.reading ??= this.deps.store
      .list()
      .then((domains) => {
        const snapshot = new DomainSnapshot(domains);
        if (generation === this.generation) this.snapshot = { domains: snapshot, readAt: this.now() };
        if (this.readFailed) this.deps.log.info("domains read again");
        this.readFailed = false;
        return snapshot;
      })
      .catch((error) => {
        if (!this.readFailed && this.snapshot) this.deps.log.warn("cannot read the domains: serving the last ones read", { error: describeError(error) });
        this.readFailed = true;
        throw error;
      })
      .finally(() => {
        if (generation === this.generation) this.reading = undefined;
      });
    return this.reading;
  }
}
