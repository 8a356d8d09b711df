import { InvalidRequest, type DomainView } from "@linkgeo/shared";
import { parseRedirectStatus } from "../http/redirect-status.ts";
import { defaultDomainId, type Domain, type DomainChanges, type DomainSettings } from "./domain.ts";
import { DomainConflict, DomainNotFound } from "./domain-errors.ts";
import { parseDomainHost } from "./domain-host.ts";
import type { DomainStore } from "./domain-store.ts";
import type { DomainDirectory } from "./domain-directory.ts";

/** A domain's body as a client sends it (POST and PATCH /admin/domains): checked here, each bad field a 400 naming it. */
export interface DomainInput {
  host?: unknown;
  root_url?: unknown;
  not_found_url?: unknown;
  expired_url?: unknown;
  redirect_status?: unknown;
  workspaces?: unknown;
}

export interface DomainsDeps {
  store: DomainStore;
  /** Told of every change, so this replica sees it at once; knows the default domain's host. */
  directory: DomainDirectory;
  /** A deleted domain's links go with it (LinkService). */
  links: { hasLinksOn(domainId: number): Promise<boolean>; deleteAllOn(domainId: number): Promise<number> };
  /** The rule of every URL a visitor may be sent to (LinkTargets.destination): the normalised URL, or InvalidUrl naming `field`. */
  destination: (raw: string, ownHosts: Iterable<string>, field: string) => string;
  clock: () => Date;
  /** Whether a workspace of this id exists (a domain is granted to existing ones). */
  workspaceExists: (workspaceId: number) => Promise<boolean>;
}

/** What becomes of a deleted domain's links: nothing may (the default: a domain with links is not deleted), or they are deleted with it. */
export type DeletedDomainLinks = "refuse" | "delete";

/** Whom a call is for: the host the request came by (the default domain's, when PUBLIC_BASE_URL is unset), and every `host[:port]` it names. */
export interface DomainRequest {
  hostName: string | undefined;
  requestHosts: readonly string[];
}

/** The workspaces one domain may be granted to: a bound on one request's checks. */
const maxGrants = 100;

const urlFields = [
  ["root_url", "rootUrl"],
  ["not_found_url", "notFoundUrl"],
  ["expired_url", "expiredUrl"],
] as const;

/**
 * The domains links are served on (docs/domains.md): the default one,
 * which always exists, and those an admin adds. Each may send `/`, an
 * unknown code and a used-up link somewhere of its own, and set its links'
 * redirect status. Knows nothing of HTTP.
 */
export class Domains {
  constructor(private readonly deps: DomainsDeps) {}

  async create(input: DomainInput, request: DomainRequest): Promise<DomainView> {
    if (input.host === undefined) throw InvalidRequest.because("host is required");
    const host = this.host(input.host, request);
    const settings: DomainSettings = { rootUrl: null, notFoundUrl: null, expiredUrl: null, redirectStatus: null };
    Object.assign(settings, await this.settings(input, host, request));
    const created = await this.deps.store.insert({ ...settings, host, createdAt: this.deps.clock() });
    if (!created) throw DomainConflict.hostTaken(host);
    this.deps.directory.changed();
    return this.view(created, request);
  }

  async list(request: DomainRequest): Promise<DomainView[]> {
    return (await this.deps.store.list()).map((domain) => this.view(domain, request));
  }

  async update(id: string, input: DomainInput, request: DomainRequest): Promise<DomainView> {
    const domainId = parseDomainId(id);
    if (input.host !== undefined && domainId === defaultDomainId) throw DomainConflict.defaultDomain("takes its host from PUBLIC_BASE_URL or the request");
    const changes: DomainChanges = input.host === undefined ? {} : { host: this.host(input.host, request) };
    Object.assign(changes, await this.settings(input, changes.host, request));
    if (input.workspaces !== undefined) {
      if (domainId === defaultDomainId) throw DomainConflict.defaultDomain("is every workspace's: it is granted to none");
      changes.workspaces = await this.grantedWorkspaces(input.workspaces);
    }
    const updated = await this.deps.store.update(domainId, changes);
    if (updated === "not found") throw DomainNotFound.withId(id);
    if (updated === "host taken") throw DomainConflict.hostTaken(changes.host ?? "");
    this.deps.directory.changed();
    return this.view(updated, request);
  }

  /**
   * Deletes an added domain. One with links is refused unless `links` is
   * `delete`: its links are then deleted first, as each one alone would be
   * (count, visits, caches), then the domain, then any link another replica
   * made on it meanwhile. Returns how many links went.
   */
  async remove(id: string, links: DeletedDomainLinks): Promise<number> {
    const domainId = parseDomainId(id);
    if (domainId === defaultDomainId) throw DomainConflict.defaultDomain("always exists: it cannot be deleted");
    if (links === "refuse" && (await this.deps.links.hasLinksOn(domainId))) throw DomainConflict.hasLinks(domainId);
    let deleted = links === "delete" ? await this.deps.links.deleteAllOn(domainId) : 0;
    if (!(await this.deps.store.delete(domainId))) throw DomainNotFound.withId(id);
    this.deps.directory.changed();
    // A link another request made on it meanwhile (before the check, or the row's deletion) goes with it, in either case.
    deleted += await this.deps.links.deleteAllOn(domainId);
    return deleted;
  }

  /** The default domain's host for this request: PUBLIC_BASE_URL's, else the one it came by. */
  private defaultHost(request: DomainRequest): string {
    return this.deps.directory.hostOf({ host: null }, request.hostName);
  }

  private host(raw: unknown, request: DomainRequest): string {
    if (typeof raw !== "string") throw InvalidRequest.because("host must be a string");
    const parsed = parseDomainHost(raw);
    if ("problem" in parsed) throw InvalidRequest.because(`host ${parsed.problem}`);
    if (parsed.host === this.defaultHost(request)) throw DomainConflict.defaultHost(parsed.host);
    return parsed.host;
  }

  /** The settings `input` names, checked; URLs by the long URL's rule, never one of the domains' hosts. */
  private async settings(input: DomainInput, host: string | undefined, request: DomainRequest): Promise<Partial<DomainSettings>> {
    const settings: Partial<DomainSettings> = {};
    const named = urlFields.filter(([field]) => input[field] !== undefined && input[field] !== null);
    const ownHosts = named.length === 0 ? [] : [...request.requestHosts, ...(host ? [host] : []), ...(await this.hosts())];
    for (const [field, key] of urlFields) {
      const value = input[field];
      if (value === undefined) continue;
      if (value !== null && typeof value !== "string") throw InvalidRequest.because(`${field} must be a string or null`);
      settings[key] = value === null ? null : this.deps.destination(value, ownHosts, field);
    }
    if (input.redirect_status !== undefined) settings.redirectStatus = parseRedirectStatus(input.redirect_status);
    return settings;
  }

  /** `workspaces`: a list of the ids of existing workspaces, each once (a 400 names the first that is none). */
  private async grantedWorkspaces(raw: unknown): Promise<number[]> {
    if (!Array.isArray(raw) || raw.length > maxGrants || !raw.every((id) => Number.isInteger(id) && id > 0 && id <= 2 ** 31 - 1)) {
      throw InvalidRequest.because(`workspaces must be a list of at most ${maxGrants} workspace ids`);
    }
    const ids = [...new Set(raw as number[])].sort((a, b) => a - b);
    for (const id of ids) if (!(await this.deps.workspaceExists(id))) throw InvalidRequest.because(`workspaces: no workspace ${id}`);
    return ids;
  }

  private async hosts(): Promise<string[]> {
    return (await this.deps.directory.current()).hosts;
  }

  private view(domain: Domain, request: DomainRequest): DomainView {
    return {
      id: domain.id,
      host: domain.host ?? this.defaultHost(request),
      default: domain.id === defaultDomainId,
      root_url: domain.rootUrl,
      not_found_url: domain.notFoundUrl,
      expired_url: domain.expiredUrl,
      redirect_status: domain.redirectStatus,
      created_at: domain.createdAt.toISOString(),
      workspaces: domain.workspaces,
    };
  }
}

/** A domain's id from a path: digits only, as the store numbers them; anything else names no domain. */
function parseDomainId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw DomainNotFound.withId(raw);
  return Number(raw);
}
