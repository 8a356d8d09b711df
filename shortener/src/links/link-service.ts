import { Forbidden, Unauthorized } from "@linkgeo/shared";
import { hashManageToken, manageTokenMatches, newManageToken } from "../auth/manage-token.ts";
import type { LinkCache } from "../cache/link-cache.ts";
import { RecentCodes } from "../cache/recent-codes.ts";
import type { Credential } from "../auth/credential.ts";
import type { VisitCounter } from "../visits/visit-counter.ts";
import type { SeenVisitor } from "../visits/seen-visitor.ts";
import { AliasTaken, InvalidAlias, InvalidUrl, LinkNotFound } from "./link-errors.ts";
import type { LinkOrder } from "./link-order.ts";
import type { LinkPage, LinkStore } from "./link-store.ts";
import type { Link } from "./link.ts";
import type { LinkTargets } from "./link-targets.ts";
import { checkLongUrl } from "./long-url.ts";
import { aliasProblem, couldBeCode, isReserved } from "./short-code.ts";

export interface LinkServiceDeps {
  links: LinkStore;
  cache: LinkCache;
  visits: VisitCounter;
  targets: LinkTargets;
  clock: () => Date;
  generateCode: () => string;
  recentCodes?: RecentCodes;
  /** Told of every link created, updated or deleted (the metrics). */
  onChange?: (change: "created" | "updated" | "deleted") => void;
}

/** The rules of short links; knows nothing of HTTP. */
export class LinkService {
  private readonly recentCodes: RecentCodes;

  constructor(private readonly deps: LinkServiceDeps) {
    this.recentCodes = deps.recentCodes ?? new RecentCodes();
  }

  async create(input: { longUrl: string; alias?: string; requestHosts: Iterable<string> }): Promise<{ link: Link; manageToken: string }> {
    const longUrl = this.validUrl(input.longUrl, input.requestHosts);
    if (input.alias !== undefined) {
      const problem = aliasProblem(input.alias);
      if (problem) throw InvalidAlias.because(problem);
    }
    const { token, hash } = newManageToken();
    const createdAt = this.deps.clock();
    // A generated code collides with probability ~n/3.5e12; a few retries make
    // a failure practically impossible, and a custom alias never retries.
    const attempts = input.alias === undefined ? 5 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const code = input.alias ?? this.deps.generateCode();
      if (input.alias === undefined && isReserved(code)) continue;
      const link = await this.deps.links.insert({ code, longUrl, manageTokenHash: hash, createdAt });
      if (link) {
        this.deps.onChange?.("created");
        await this.deps.cache.set(code, longUrl);
        return { link, manageToken: token };
      }
      if (input.alias !== undefined) throw AliasTaken.for(code);
    }
    throw new Error("could not find a free short code after 5 attempts");
  }

  async get(code: string): Promise<Link> {
    const link = couldBeCode(code) ? await this.deps.links.find(code) : null;
    if (!link) throw LinkNotFound.for(code);
    return link;
  }

  async update(code: string, rawUrl: string, credential: Credential, requestHosts: Iterable<string>): Promise<Link> {
    const longUrl = this.validUrl(rawUrl, requestHosts);
    await this.authorized(code, credential);
    const updated = await this.deps.links.updateLongUrl(code, longUrl, this.deps.clock());
    if (!updated) throw LinkNotFound.for(code);
    this.deps.onChange?.("updated");
    await this.deps.cache.set(code, longUrl);
    return updated;
  }

  async delete(code: string, credential: Credential): Promise<void> {
    await this.authorized(code, credential);
    await this.deps.links.delete(code);
    this.deps.onChange?.("deleted");
    await this.deps.cache.markDeleted(code);
  }

  /** The one link this manage token manages; 401 when no link has it (a mistyped token, or its link was deleted). */
  async managedBy(token: string): Promise<Link> {
    const link = await this.deps.links.findByManageTokenHash(hashManageToken(token));
    if (!link) throw Unauthorized.because("no short URL has this manage token");
    return link;
  }

  /**
   * Counts a redirect (with its visitor, for analytics); resolves with the URL to send the visitor to once the count is durable.
   * `client` is the client's connection: closed before the count is written, the redirect is not counted (VisitCounter).
   */
  async visit(code: string, visitor?: SeenVisitor, client?: AbortSignal): Promise<string> {
    if (!couldBeCode(code)) throw LinkNotFound.for(code);
    // A hot link skips the shared cache: the count write below is the authority.
    const skipCache = this.recentCodes.has(code);
    const cached = skipCache ? undefined : await this.deps.cache.get(code);
    if (cached === null) throw LinkNotFound.for(code);
    const longUrl = await this.deps.visits.visit(code, visitor, client);
    if (longUrl === null) {
      this.recentCodes.delete(code);
      void this.deps.cache.markMissing(code);
      throw LinkNotFound.for(code);
    }
    // No write-back of a miss: the count write answers every redirect anyway, so an entry would
    // only serve HEAD, and links followed now and then paid a Redis write each for it (a quarter
    // of the shortener's CPU with redirects spread over 100,000 links). An entry that disagrees
    // with the database is dropped rather than overwritten: the database's answer may already be
    // older than a write that landed meanwhile (see LinkCache).
    if (!skipCache && cached !== undefined && cached !== longUrl) void this.deps.cache.forget(code);
    this.recentCodes.add(code);
    return longUrl;
  }

  /** Where a redirect would go, without counting it (HEAD). */
  async peek(code: string): Promise<string> {
    if (!couldBeCode(code)) throw LinkNotFound.for(code);
    const cached = await this.deps.cache.get(code);
    if (cached === null) throw LinkNotFound.for(code);
    if (cached !== undefined) return cached;
    const link = await this.get(code);
    void this.deps.cache.fill(code, link.longUrl);
    return link.longUrl;
  }

  list(query: { page: number; pageSize: number; search?: string; order: LinkOrder }): Promise<LinkPage> {
    return this.deps.links.list({ offset: (query.page - 1) * query.pageSize, limit: query.pageSize, search: query.search, order: query.order });
  }

  /** The normalised long URL, or InvalidUrl; `requestHosts` are the hosts the request came by (never a target). */
  private validUrl(raw: string, requestHosts: Iterable<string>): string {
    const check = checkLongUrl(raw);
    if (!check.ok) throw InvalidUrl.because(check.reason);
    const refusal = this.deps.targets.refusal(check.url, requestHosts);
    if (refusal) throw InvalidUrl.because(refusal);
    return check.url.href;
  }

  /** The link, if `credential` may manage it (its manage token, or an admin's); else 404 or 403. */
  async authorized(code: string, credential: Credential): Promise<Link> {
    const link = await this.get(code);
    if (credential.kind === "admin") return link;
    if (!manageTokenMatches(credential.token, link.manageTokenHash)) {
      throw Forbidden.because(`this token may not manage short URL "${link.code}"`);
    }
    return link;
  }
}
