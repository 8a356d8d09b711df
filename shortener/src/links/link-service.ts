import { Forbidden, HttpError, InvalidRequest, Unauthorized } from "@linkgeo/shared";
import { hashManageToken, newManageToken, unmanagedTokenHashes } from "../auth/manage-token.ts";
import type { LinkCache } from "../cache/link-cache.ts";
import { RecentCodes } from "../cache/recent-codes.ts";
import type { ApiKeyScope } from "../auth/api-key.ts";
import type { Credential } from "../auth/credential.ts";
import { mayDo, requireScopeWith, seesLink, tokenManages } from "../auth/scopes.ts";
import type { CountedVisit, VisitCounter } from "../visits/visit-counter.ts";
import type { SeenVisitor } from "../visits/seen-visitor.ts";
import { AliasTaken, InvalidAlias, LinkNotFound, WrongPassword } from "./link-errors.ts";
import { decodeDestination, destinationOfLink, encodeDestination, type CountedDestination, type Destination, type LinkState } from "./destination.ts";
import { parseOptions, type LinkOptions, type OptionsInput, type ParsedOptions } from "./link-options.ts";
import type { LinkOrder } from "./link-order.ts";
import type { LinkPage, LinkStore } from "./link-store.ts";
import type { Link, NewLink } from "./link.ts";
import type { HoldChange } from "./link-hold.ts";
import type { LinkTargets } from "./link-targets.ts";
import { aliasProblem, couldBeCode, isReserved } from "./short-code.ts";
import { codeOfKey, couldBeKey, linkKey } from "./link-key.ts";
import { defaultDomainId } from "../domains/domain.ts";
import { hashLinkPassword, linkPasswordMatches } from "./link-password.ts";
import { mayReadUrls } from "./url-readers.ts";
import { requireMayOpenVisits } from "./public-stats.ts";

/** One link to create, as a client asked for it (the body of POST /shorten/). */
export interface CreateRequest {
  longUrl: string;
  alias?: string;
  options?: OptionsInput;
  /** The domain the link is made on (its id); the default domain when absent. */
  domainId?: number;
  /** The domain as the client named it (a bulk item's `domain`), until the route finds its id. */
  domain?: string;
  /** The workspace the link belongs to (people/creation-workspace.ts); none when absent. */
  workspaceId?: number | null;
  /** The workspace as the client named it (a bulk item's `workspace`), until the route finds which it is. */
  workspace?: unknown;
  /** Who made it (link-creator.ts); null or absent for anyone. */
  createdBy?: string | null;
}

/** What became of one item of a bulk create: its link, or the error the same create alone would have met. */
export type CreateOutcome = { ok: true; link: Link; manageToken: string } | { ok: false; error: HttpError };

/**
 * Items of one bulk create that may set a password. Each is an argon2id
 * hash, 60 to 130 ms of a core (Bun runs them on its thread pool, a few at
 * once): 5 of them keep a bulk create of 1,000 within its second on two
 * cores; 1,000 would take a minute.
 */
export const maxBulkPasswords = 5;

/** A bulk item checked and ready to insert: the code it tries (its alias, or a generated one) and its manage token. */
interface BulkCandidate {
  index: number;
  alias?: string;
  domainId: number;
  code: string;
  link: Omit<NewLink, "code">;
  manageToken: string;
}

export interface LinkServiceDeps {
  links: LinkStore;
  cache: LinkCache;
  visits: VisitCounter<CountedDestination>;
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

  async create(input: CreateRequest & { requestHosts: Iterable<string> }): Promise<{ link: Link; manageToken: string }> {
    const longUrl = this.validUrl(input.longUrl, input.requestHosts);
    this.checkAlias(input.alias);
    const createdAt = this.deps.clock();
    const options = await this.stored(this.parsedOptions(input.options ?? {}, input.requestHosts, createdAt, true));
    const { token, hash } = newManageToken();
    // A generated code collides with probability ~n/1.95e12; a few retries make
    // a failure practically impossible, and a custom alias never retries.
    const attempts = input.alias === undefined ? 5 : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const code = input.alias ?? this.deps.generateCode();
      if (input.alias === undefined && isReserved(code)) continue;
      const key = linkKey(input.domainId ?? defaultDomainId, code);
      const link = await this.deps.links.insert({
        ...options,
        code: key,
        longUrl,
        manageTokenHash: hash,
        createdAt,
        workspaceId: input.workspaceId ?? null,
        createdBy: input.createdBy ?? null,
      });
      if (link) {
        this.deps.onChange?.("created");
        await this.deps.cache.set(key, encodeDestination(destinationOfLink(link)));
        return { link, manageToken: token };
      }
      if (input.alias !== undefined) throw AliasTaken.for(code);
    }
    throw new Error("could not find a free short code after 5 attempts");
  }

  /**
   * Creates every link of `items` that a lone `create` would have created,
   * and answers, item by item in order, its link or the error that create
   * would have met (bad URL, alias or option; a taken alias). An alias
   * twice in the batch goes to the first; the later one is taken. Every item
   * is checked before any is written; then one multi-row insert (per 1,000)
   * writes them, and generated codes that collided try again. More than
   * `maxBulkPasswords` items with a password refuse the whole request.
   */
  async createMany(items: readonly CreateRequest[], requestHosts: Iterable<string>): Promise<CreateOutcome[]> {
    const withPassword = items.filter((item) => item.options?.password !== undefined && item.options.password !== null).length;
    if (withPassword > maxBulkPasswords) {
      throw InvalidRequest.because(`links: at most ${maxBulkPasswords} items of one request may set a password (each is an argon2id hash)`);
    }
    const hosts = [...requestHosts];
    const createdAt = this.deps.clock();
    const outcomes: CreateOutcome[] = new Array(items.length);
    const checked: Array<{
      index: number;
      longUrl: string;
      alias?: string;
      domainId: number;
      workspaceId: number | null;
      createdBy: string | null;
      options: ParsedOptions;
    }> = [];
    // The batch's aliases as keys: the same alias on two domains is two links.
    const aliases = new Set<string>();
    items.forEach((item, index) => {
      try {
        const longUrl = this.validUrl(item.longUrl, hosts);
        this.checkAlias(item.alias);
        const options = this.parsedOptions(item.options ?? {}, hosts, createdAt, true);
        const domainId = item.domainId ?? defaultDomainId;
        if (item.alias !== undefined) {
          if (aliases.has(linkKey(domainId, item.alias))) throw AliasTaken.for(item.alias);
          aliases.add(linkKey(domainId, item.alias));
        }
        checked.push({ index, longUrl, alias: item.alias, domainId, workspaceId: item.workspaceId ?? null, createdBy: item.createdBy ?? null, options });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        outcomes[index] = { ok: false, error };
      }
    });
    // Bun hashes on its thread pool, which bounds how many run at once; maxBulkPasswords bounds how many there are.
    let waiting: BulkCandidate[] = await Promise.all(
      checked.map(async ({ index, longUrl, alias, domainId, workspaceId, createdBy, options }) => {
        const { token, hash } = newManageToken();
        const link = { ...(await this.stored(options)), longUrl, manageTokenHash: hash, createdAt, workspaceId, createdBy };
        return { index, alias, domainId, code: alias ?? this.freshCode(domainId, aliases), link, manageToken: token };
      }),
    );
    // As in create: a few tries make a failure of generated codes practically impossible; an alias never retries.
    for (let attempt = 0; attempt < 5 && waiting.length > 0; attempt++) {
      const inserted = await this.deps.links.insertMany(waiting.map((candidate) => ({ ...candidate.link, code: linkKey(candidate.domainId, candidate.code) })));
      // By manage token, not by code alone: a generated code may have met an alias of this very batch.
      const ours = new Map(inserted.map((link) => [link.manageTokenHash, link]));
      const retry: BulkCandidate[] = [];
      for (const candidate of waiting) {
        const link = ours.get(candidate.link.manageTokenHash);
        if (link) outcomes[candidate.index] = { ok: true, link, manageToken: candidate.manageToken };
        else if (candidate.alias !== undefined) outcomes[candidate.index] = { ok: false, error: AliasTaken.for(candidate.alias) };
        else retry.push({ ...candidate, code: this.freshCode(candidate.domainId, aliases) });
      }
      waiting = retry;
    }
    if (waiting.length > 0) throw new Error("could not find free short codes after 5 attempts");
    const created = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.link] : []));
    await Promise.all(
      created.map((link) => {
        this.deps.onChange?.("created");
        return this.deps.cache.set(link.code, encodeDestination(destinationOfLink(link)));
      }),
    );
    return outcomes;
  }

  /** The default domain's links of these codes that exist, in the order asked, each once; what could be no code is left out unasked. */
  async getMany(codes: readonly string[]): Promise<Link[]> {
    const asked = [...new Set(codes.filter(couldBeCode))];
    const found = new Map((await this.deps.links.findMany(asked)).map((link) => [link.code, link]));
    return asked.flatMap((code) => found.get(code) ?? []);
  }

  /** `code`, here and below: the link's key (link-key.ts), which is its code on the default domain. */
  async get(code: string): Promise<Link> {
    const link = await this.find(code);
    if (!link) throw LinkNotFound.for(code);
    return link;
  }

  /** The link, or null when no link has this key. */
  async find(code: string): Promise<Link | null> {
    return couldBeKey(code) ? await this.deps.links.find(code) : null;
  }

  /**
   * Replaces what `changes` names: the long URL and any option (`null` clears
   * one); the rest stays. `short_url` may be sent (a record sent back whole)
   * but must be the link's own: a link is never renamed.
   */
  async update(
    code: string,
    changes: { long_url?: string; short_url?: string; workspace?: number | null } & OptionsInput,
    credential: Credential,
    requestHosts: Iterable<string>,
  ): Promise<Link> {
    if (changes.short_url !== undefined && changes.short_url !== codeOfKey(code)) {
      throw InvalidRequest.because("short_url cannot be changed: send the link's own code, or leave it out");
    }
    const now = this.deps.clock();
    const longUrl = changes.long_url === undefined ? undefined : this.validUrl(changes.long_url, requestHosts);
    const { workspace, ...optionChanges } = changes;
    const parsed = this.parsedOptions(optionChanges, requestHosts, now, false);
    const moving = workspace !== undefined && mayDo(credential, "admin");
    if (longUrl === undefined && !moving && Object.keys(parsed).length === 0) throw InvalidRequest.because("send long_url or an option to change");
    // Who may change the link is known before a password is hashed: argon2id is too costly to spend on anyone.
    const link = await this.authorized(code, credential);
    // A held link's destinations are the admins' while it is held: its owner could otherwise trade a listed one for
    // one no list names yet, and the next recheck would let it go.
    const movesVisitors = longUrl !== undefined || parsed.expiredUrl !== undefined || parsed.rules !== undefined;
    if (link.hold !== null && movesVisitors && !mayDo(credential, "admin")) {
      throw Forbidden.because(`short URL "${codeOfKey(link.code)}" is ${link.hold}: its destinations may not change while it is held`);
    }
    requireMayOpenVisits(credential, link, parsed.publicStats === true);
    // Only an admin moves a link between workspaces; anyone else may send back the record they read (its own, or null hidden).
    if (!moving && workspace !== undefined && workspace !== null && workspace !== link.workspaceId) {
      throw InvalidRequest.because("workspace is changed by an admin: send the link's own, or leave it out");
    }
    // A protected link's password keeps its URLs from whoever may not read them: setting one the caller knows, or
    // none, would hand them over (a visit with it, or a GET), so only a reader may change it.
    if (!mayReadUrls(link, credential)) {
      if (parsed.password !== undefined) requireScopeWith(credential, "links:read", link, "only a reader of the link may change its password");
      // Such a caller read expired_url as null: sending the record back must not clear the owner's URL unseen.
      if (parsed.expiredUrl === null) throw InvalidRequest.because("expired_url is hidden from this caller (the link has a password): leave it out to keep it");
    }
    const options = await this.stored(parsed);
    // A link moved into a workspace leaves its manage token behind for good: moved out again, it is the admins' and keys'.
    const movedIn = moving && workspace !== null && workspace !== link.workspaceId;
    const updated = await this.deps.links.update(
      code,
      {
        ...options,
        ...(longUrl === undefined ? {} : { longUrl }),
        ...(moving ? { workspaceId: workspace } : {}),
        ...(movedIn ? { manageTokenHash: unmanagedTokenHashes()() } : {}),
      },
      now,
    );
    if (!updated) throw LinkNotFound.for(code);
    this.deps.onChange?.("updated");
    await this.deps.cache.set(code, encodeDestination(destinationOfLink(updated)));
    return updated;
  }

  /** Sets or lifts a link's hold (an admin acting on a report); the link as it is now. */
  async setHold(code: string, change: HoldChange): Promise<Link> {
    const updated = await this.changeHold(code, change);
    if (!updated) throw LinkNotFound.for(code);
    return updated;
  }

  /**
   * Sets or lifts a link's hold (the threat recheck) only if it is still `heldAs`: the recheck judged a read that
   * an admin's action may have overtaken. The link as it is now, or null when its hold changed meanwhile.
   */
  async changeHold(code: string, change: HoldChange, heldAs?: HoldChange): Promise<Link | null> {
    const updated = await this.deps.links.update(code, { hold: change.hold, holdReason: change.reason }, this.deps.clock(), heldAs);
    if (!updated) return null;
    this.deps.onChange?.("updated");
    await this.deps.cache.set(code, encodeDestination(destinationOfLink(updated)));
    return updated;
  }

  /** Deletes the link `credential` may delete; the link as it was. */
  async delete(code: string, credential: Credential): Promise<Link> {
    const link = await this.authorized(code, credential);
    // A held link is the admins' to delete: its owner could otherwise free its short URL, in circulation as a
    // listed destination's, and make it again to one no list names yet, with its reports gone.
    if (link.hold !== null && !mayDo(credential, "admin")) {
      throw Forbidden.because(`short URL "${codeOfKey(link.code)}" is ${link.hold}: it may not be deleted while it is held`);
    }
    await this.deps.links.delete(code);
    this.deps.onChange?.("deleted");
    await this.deps.cache.markDeleted(code);
    return link;
  }

  /** Whether an added domain has a link. */
  async hasLinksOn(domainId: number): Promise<boolean> {
    return (await this.deps.links.keysOn(domainId, 1)).length > 0;
  }

  /** Deletes every link of an added domain, a batch at a time, as one link is deleted; returns how many. */
  async deleteAllOn(domainId: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const keys = await this.deps.links.keysOn(domainId, 500);
      for (const key of keys) {
        if (await this.deps.links.delete(key)) {
          deleted++;
          this.deps.onChange?.("deleted");
        }
        await this.deps.cache.markDeleted(key);
      }
      if (keys.length < 500) return deleted;
    }
  }

  /** Whether a workspace has a link. */
  async hasLinksIn(workspaceId: number): Promise<boolean> {
    return (await this.deps.links.exportPage(null, 1, workspaceId)).length > 0;
  }

  /** Whether a workspace has a link the admins hold (quarantined or disabled): read a page of links at a time. */
  async hasHeldLinksIn(workspaceId: number): Promise<boolean> {
    for (let after: string | null = null; ; ) {
      const batch = await this.deps.links.exportPage(after, 500, workspaceId);
      if (batch.some((link) => link.hold !== null)) return true;
      if (batch.length < 500) return false;
      after = batch[batch.length - 1]!.code;
    }
  }

  /** Deletes every link of a workspace, a batch at a time, as one link is deleted; returns how many. */
  async deleteAllIn(workspaceId: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.deps.links.exportPage(null, 500, workspaceId);
      for (const { code } of batch) {
        if (await this.deps.links.delete(code)) {
          deleted++;
          this.deps.onChange?.("deleted");
        }
        await this.deps.cache.markDeleted(code);
      }
      if (batch.length < 500) return deleted;
    }
  }

  /** The one link this manage token manages; 401 when no link has it (a mistyped token, or its link was deleted). */
  async managedBy(token: string): Promise<Link> {
    const link = await this.deps.links.findByManageTokenHash(hashManageToken(token));
    if (!link || !tokenManages(token, link)) throw Unauthorized.because("no short URL has this manage token");
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
  async visit(code: string, visitor?: SeenVisitor, client?: AbortSignal, unlocked = false): Promise<CountedVisit<CountedDestination>> {
    if (!couldBeKey(code)) throw LinkNotFound.for(code);
    // The count write answers the destination (or that there is no link): the shared cache is read beside it, not
    // before it, only to drop an entry that disagrees. A hot link skips even that.
    const skipCache = this.recentCodes.has(code);
    const cachedRead = skipCache ? undefined : this.deps.cache.get(code).catch(() => undefined);
    const counter = unlocked ? this.deps.visits.unlocked : this.deps.visits;
    const visit = await counter.visit(code, visitor, client);
    const cached = await cachedRead;
    if (visit === null) {
      this.recentCodes.delete(code);
      if (cached !== null) void this.deps.cache.markMissing(code);
      throw LinkNotFound.for(code);
    }
    // No write-back of a miss: the count write answers every redirect anyway, so an entry would
    // only serve HEAD, and links followed now and then paid a Redis write each for it (a quarter
    // of the shortener's CPU with redirects spread over 100,000 links). An entry that disagrees
    // with the database (another destination, or "missing" for a link that is there) is dropped
    // rather than overwritten: the database's answer may already be older than a write that
    // landed meanwhile (see LinkCache).
    if (cached !== undefined && cached !== encodeDestination(visit.destination)) void this.deps.cache.forget(code);
    this.recentCodes.add(code);
    return visit;
  }

  /**
   * A visit that sends the link's password (the unlock form): counted like
   * any redirect when it is right; a wrong one is 401 (WrongPassword), and a
   * link without a password is visited as it is. The try itself is limited
   * by the gateway, per link and client and per link.
   */
  async unlock(code: string, password: string, visitor?: SeenVisitor, client?: AbortSignal): Promise<CountedVisit<CountedDestination>> {
    const link = await this.get(code);
    if (link.passwordHash === null) return this.visit(code, visitor, client);
    if (!(await linkPasswordMatches(password, link.passwordHash))) throw WrongPassword.forLink();
    return this.visit(code, visitor, client, true);
  }

  /** Where a redirect would go, without counting it (HEAD); with the count when the link has a cap. */
  async peek(code: string): Promise<Destination & { accessCount?: number }> {
    if (!couldBeKey(code)) throw LinkNotFound.for(code);
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

  /** A page of every link (or a workspace's); `state` is judged at this service's clock, as each record's state is. */
  list(query: {
    page: number;
    pageSize: number;
    search?: string;
    order: LinkOrder;
    tag?: string;
    state?: LinkState;
    domainId?: number;
    workspaceId?: number;
    fresh?: boolean;
  }): Promise<LinkPage> {
    return this.deps.links.list({
      fresh: query.fresh,
      domainId: query.domainId,
      workspaceId: query.workspaceId,
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
    return this.deps.targets.destination(raw, requestHosts, field);
  }

  /** InvalidAlias unless `alias` (when given) may be a custom alias. */
  private checkAlias(alias: string | undefined): void {
    const problem = alias === undefined ? null : aliasProblem(alias);
    if (problem) throw InvalidAlias.because(problem);
  }

  /** A generated code that is neither a reserved word nor one of `aliases` (a batch's own keys, which must not lose their code to it). */
  private freshCode(domainId: number, aliases: ReadonlySet<string>): string {
    for (let draw = 0; draw < 100; draw++) {
      const code = this.deps.generateCode();
      if (!isReserved(code) && !aliases.has(linkKey(domainId, code))) return code;
    }
    throw new Error("the code generator gave no usable code in 100 draws");
  }

  /** The options a request sets, checked (parseOptions); URLs by the long URL's rule. */
  private parsedOptions(input: OptionsInput, requestHosts: Iterable<string>, now: Date, creating: boolean): ParsedOptions {
    return parseOptions(input, (raw, field) => this.validUrl(raw, requestHosts, field), now, creating);
  }

  /** Checked options as stored: the password as its argon2id hash. */
  private async stored({ password, ...options }: ParsedOptions): Promise<Partial<LinkOptions>> {
    if (password === undefined) return options;
    return { ...options, passwordHash: password === null ? null : await hashLinkPassword(password) };
  }

  /**
   * The link, if `credential` may do what `scope` names with it: its manage
   * token may do all of it, an admin too, an API key what its scopes say
   * (a workspace's within its workspace), a member what their role there
   * allows (auth/scopes.ts); else 403, or 404 to a member or a workspace's
   * key for a link outside their workspaces, as if it did not exist.
   */
  async authorized(code: string, credential: Credential, scope: ApiKeyScope = "links:write"): Promise<Link> {
    return this.permitted(await this.get(code), credential, scope);
  }

  /** `link`, already read, if `credential` may do what `scope` names with it: as authorized. */
  permitted(link: Link, credential: Credential, scope: ApiKeyScope): Link {
    const code = link.code;
    if (credential.kind === "manage-token") {
      if (!tokenManages(credential.token, link)) throw Forbidden.because(`this token may not manage short URL "${codeOfKey(link.code)}"`);
      return link;
    }
    if (!seesLink(credential, link)) throw LinkNotFound.for(code);
    requireScopeWith(credential, scope, link, `this token may not manage short URL "${codeOfKey(link.code)}"`);
    return link;
  }
}
