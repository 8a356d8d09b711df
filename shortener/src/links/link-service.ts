import { Forbidden, InvalidRequest, Unauthorized } from "@linkgeo/shared";
import { hashManageToken, manageTokenMatches, newManageToken } from "../auth/manage-token.ts";
import type { LinkCache } from "../cache/link-cache.ts";
import { RecentCodes } from "../cache/recent-codes.ts";
import type { ApiKeyScope } from "../auth/api-key.ts";
import type { Credential } from "../auth/credential.ts";
import { requireScope } from "../auth/scopes.ts";
import type { CountedVisit, VisitCounter } from "../visits/visit-counter.ts";
import type { SeenVisitor } from "../visits/seen-visitor.ts";
import { AliasTaken, InvalidAlias, InvalidUrl, LinkNotFound, WrongPassword } from "./link-errors.ts";
import { decodeDestination, destinationOfLink, encodeDestination, type Destination, type LinkState } from "./destination.ts";
import { parseOptions, type LinkOptions, type OptionsInput, type ParsedOptions } from "./link-options.ts";
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

  async create(input: {
    longUrl: string;
    alias?: string;
    options?: OptionsInput;
    requestHosts: Iterable<string>;
  }): Promise<{ link: Link; manageToken: string }> {
    const longUrl = this.validUrl(input.longUrl, input.requestHosts);
    if (input.alias !== undefined) {
      const problem = aliasProblem(input.alias);
      if (problem) throw InvalidAlias.because(problem);
    }
    const createdAt = this.deps.clock();
    const options = await this.stored(this.parsedOptions(input.options ?? {}, input.requestHosts, createdAt, true));
    const { token, hash } = newManageToken();
    // A generated code collides with probability ~n/3.5e12; a few retries make
    // a failure practically impossible, and a custom alias never retries.
    const attempts = input.alias === undefined ? 5 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const code = input.alias ?? this.deps.generateCode();
      if (input.alias === undefined && isReserved(code)) continue;
      const link = await this.deps.links.insert({ ...options, code, longUrl, manageTokenHash: hash, createdAt });
      if (link) {
        this.deps.onChange?.("created");
        await this.deps.cache.set(code, encodeDestination(destinationOfLink(link)));
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

  /** Replaces what `changes` names: the long URL and any option (`null` clears one); the rest stays. */
  async update(code: string, changes: { long_url?: string } & OptionsInput, credential: Credential, requestHosts: Iterable<string>): Promise<Link> {
    const now = this.deps.clock();
    const longUrl = changes.long_url === undefined ? undefined : this.validUrl(changes.long_url, requestHosts);
    const parsed = this.parsedOptions(changes, requestHosts, now, false);
    if (longUrl === undefined && Object.keys(parsed).length === 0) throw InvalidRequest.because("send long_url or an option to change");
    // Who may change the link is known before a password is hashed: argon2id is too costly to spend on anyone.
    await this.authorized(code, credential);
    const options = await this.stored(parsed);
    const updated = await this.deps.links.update(code, { ...options, ...(longUrl === undefined ? {} : { longUrl }) }, now);
    if (!updated) throw LinkNotFound.for(code);
    this.deps.onChange?.("updated");
    await this.deps.cache.set(code, encodeDestination(destinationOfLink(updated)));
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
   * Counts a redirect (with its visitor, for analytics) if its link lets it
   * through; resolves, once the count is durable, with the link's
   * destination and whether it did (an expired, used-up or protected link
   * does not: `refusalOf` says why). `client` is the client's connection:
   * closed before the count is written, the redirect is not counted
   * (VisitCounter). `unlocked`: the visit gave the link's password.
   */
  async visit(code: string, visitor?: SeenVisitor, client?: AbortSignal, unlocked = false): Promise<CountedVisit> {
    if (!couldBeCode(code)) throw LinkNotFound.for(code);
    // A hot link skips the shared cache: the count write below is the authority.
    const skipCache = this.recentCodes.has(code);
    const cached = skipCache ? undefined : await this.deps.cache.get(code);
    if (cached === null) throw LinkNotFound.for(code);
    const counter = unlocked ? this.deps.visits.unlocked : this.deps.visits;
    const visit = await counter.visit(code, visitor, client);
    if (visit === null) {
      this.recentCodes.delete(code);
      void this.deps.cache.markMissing(code);
      throw LinkNotFound.for(code);
    }
    // No write-back of a miss: the count write answers every redirect anyway, so an entry would
    // only serve HEAD, and links followed now and then paid a Redis write each for it (a quarter
    // of the shortener's CPU with redirects spread over 100,000 links). An entry that disagrees
    // with the database is dropped rather than overwritten: the database's answer may already be
    // older than a write that landed meanwhile (see LinkCache).
    if (!skipCache && cached !== undefined && cached !== encodeDestination(visit.destination)) void this.deps.cache.forget(code);
    this.recentCodes.add(code);
    return visit;
  }

  /**
   * A visit that sends the link's password (the unlock form): counted like
   * any redirect when it is right; a wrong one is 401 (WrongPassword), and a
   * link without a password is visited as it is. The try itself is limited
   * by the gateway, per link and client and per link.
   */
  async unlock(code: string, password: string, visitor?: SeenVisitor, client?: AbortSignal): Promise<CountedVisit> {
    const link = await this.get(code);
    if (link.passwordHash === null) return this.visit(code, visitor, client);
    if (!(await Bun.password.verify(password, link.passwordHash))) throw WrongPassword.forLink();
    return this.visit(code, visitor, client, true);
  }

  /** Where a redirect would go, without counting it (HEAD); with the count when the link has a cap. */
  async peek(code: string): Promise<Destination & { accessCount?: number }> {
    if (!couldBeCode(code)) throw LinkNotFound.for(code);
    const cached = await this.deps.cache.get(code);
    if (cached === null) throw LinkNotFound.for(code);
    const destination = cached === undefined ? undefined : decodeDestination(cached);
    // The cache holds no count: a capped link is read, to tell a used-up one.
    if (destination && destination.maxVisits === null) return destination;
    const link = await this.get(code);
    const stored = destinationOfLink(link);
    void this.deps.cache.fill(code, encodeDestination(stored));
    return stored;
  }

  /** A page of every link; `state` is judged at this service's clock, as each record's state is. */
  list(query: { page: number; pageSize: number; search?: string; order: LinkOrder; tag?: string; state?: LinkState }): Promise<LinkPage> {
    return this.deps.links.list({
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
      search: query.search,
      order: query.order,
      tag: query.tag,
      state: query.state === undefined ? undefined : { is: query.state, at: this.deps.clock() },
    });
  }

  /**
   * The normalised URL, or InvalidUrl naming `field`: the rule of the long
   * URL, of `expired_url` and of each rule's `url` alike. `requestHosts`
   * are the hosts the request came by (never a target).
   */
  private validUrl(raw: string, requestHosts: Iterable<string>, field = "long_url"): string {
    const check = checkLongUrl(raw, field);
    if (!check.ok) throw InvalidUrl.because(check.reason);
    const refusal = this.deps.targets.refusal(check.url, requestHosts, field);
    if (refusal) throw InvalidUrl.because(refusal);
    return check.url.href;
  }

  /** The options a request sets, checked (parseOptions); URLs by the long URL's rule. */
  private parsedOptions(input: OptionsInput, requestHosts: Iterable<string>, now: Date, creating: boolean): ParsedOptions {
    return parseOptions(input, (raw, field) => this.validUrl(raw, requestHosts, field), now, creating);
  }

  /** Checked options as stored: the password as its argon2id hash. */
  private async stored({ password, ...options }: ParsedOptions): Promise<Partial<LinkOptions>> {
    if (password === undefined) return options;
    return { ...options, passwordHash: password === null ? null : await Bun.password.hash(password, "argon2id") };
  }

  /**
   * The link, if `credential` may do what `scope` names with it: its manage
   * token may do all of it, an admin too, an API key what its scopes say;
   * else 404 or 403.
   */
  async authorized(code: string, credential: Credential, scope: ApiKeyScope = "links:write"): Promise<Link> {
    const link = await this.get(code);
    if (credential.kind === "manage-token") {
      if (!manageTokenMatches(credential.token, link.manageTokenHash)) throw Forbidden.because(`this token may not manage short URL "${link.code}"`);
      return link;
    }
    requireScope(credential, scope, `this token may not manage short URL "${link.code}"`);
    return link;
  }
}
