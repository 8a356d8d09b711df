import { prefersHtml } from "@linkgeo/shared";
import type { OrphanVisits } from "../visits/orphan-visits.ts";
import type { SeenVisitor } from "../visits/seen-visitor.ts";
import type { VisitFacts } from "../visits/visit-facts.ts";
import { refusalOf, type CountedDestination, type Destination, type Refusal } from "./destination.ts";
import { LinkGone, LinkNotFound, LinkQuarantined, PasswordRequired, WrongPassword } from "./link-errors.ts";
import type { RedirectStatus } from "./link-options.ts";
import type { LinkService } from "./link-service.ts";
import { type ThreatCheck, unlistedDomainUrl } from "./threat-check.ts";
import { couldBeCode, isReserved } from "./short-code.ts";
import { visitorDestination } from "./visitor-destination.ts";
import type { Domain } from "../domains/domain.ts";
import type { DomainDirectory } from "../domains/domain-directory.ts";
import { RequestHostNames } from "../domains/domain-host.ts";
import { linkKey } from "./link-key.ts";
import { disabledPage, gonePage, linkPageHeader, notFoundPage, quarantinedPage, unlockPage } from "./visitor-pages.ts";

/** One request to follow a link, however it arrived (on its own, or in the gateway's batch). */
export interface RedirectRequest {
  code: string;
  /** The host asked (`host[:port]`: the gateway's X-Forwarded-Host, or Host): the link's domain is this host's. */
  host: string | null | undefined;
  /** HEAD answers alike without counting. */
  counted: boolean;
  /** Who followed it, as the request said: for the link's rules, and (analytics on) its visit's facts. */
  visitor: SeenVisitor;
  accept: string | null;
  acceptLanguage: string | null;
  /** The short URL's query string without `?`: passed on when the link has `forward_query`. */
  query: string;
  /** The unlock form's password (`POST /<code>`); undefined for a plain GET or HEAD. */
  password?: string;
  /** The client's connection (its request's signal): closed before the visit is written, it is not counted. */
  client?: AbortSignal;
}

/** What a redirect answers, before it is a Response: a batch sends it as is, without building one. */
export interface RedirectAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export function toResponse(answer: RedirectAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export interface RedirectResponderDeps {
  links: LinkService;
  /** Which domain the host asked is: its links, and where it sends what leads nowhere. */
  domains: DomainDirectory;
  /** REDIRECT_STATUS: for links without their own. */
  status: RedirectStatus;
  /** PERMANENT_REDIRECT_MAX_AGE: how long a browser may keep a link's own 301 or 308. */
  permanentMaxAgeSeconds: number;
  /** Who a visitor is (device, country) for the links' rules; absent, rules by device and country never match. */
  describe?: (visitor: SeenVisitor) => Pick<VisitFacts, "os" | "device" | "country">;
  /** Told of each redirect that sent its visitor on, with its domain (the metrics). */
  onRedirect?: (domain: Domain) => void;
  /** Analytics on: where visits that lead nowhere (unknown, expired, used up, wrong password) are counted. */
  orphans?: Pick<OrphanVisits, "record">;
  /**
   * The threat lists (and the admins' allow and ban lists), asked of a destination a visitor's query made
   * (`forward_query`): the stored one was checked when it was set, the one with the query never was; and of the
   * domain's own addresses, which no recheck judges (unlistedDomainUrl).
   */
  threats?: ThreatCheck;
  clock: () => Date;
}

const unknownFacts = { os: "other", device: "other", country: "unknown" } as const;

/**
 * The answer to a redirect: the status and Location a visitor is sent on
 * with (the link's rules and query applied), or why it is not: the page or
 * error of a link that does not exist (404), is gone (410, or its
 * `expired_url`), wants its password (401), is quarantined (451) or
 * disabled (410). Every other failure is
 * thrown for the error renderer. The one owner of what a redirect answers,
 * so a batched redirect and a lone one are the same bytes.
 */
export function redirectResponder(deps: RedirectResponderDeps) {
  const { links, clock } = deps;
  // The few hosts a deployment is asked on, each read once: parsing one costs a redirect more than finding its domain.
  const hostNames = new RequestHostNames();

  // `known`: the visitor's facts, when the count write classified them already (analytics on).
  const sendOn = (
    destination: Destination,
    request: RedirectRequest,
    domain: Domain,
    known?: Pick<VisitFacts, "os" | "device" | "country">,
  ): RedirectAnswer => {
    const location = visitorDestination(destination, {
      facts: () => known ?? (deps.describe ? deps.describe(request.visitor) : unknownFacts),
      acceptLanguage: request.acceptLanguage,
      query: request.query,
    });
    // A listed URL is not reached by adding its query to a link that forwards one: answered as a quarantined link.
    if (destination.forwardQuery && request.query !== "" && deps.threats?.listing(new URL(location)) !== undefined) {
      return refuse("quarantined", destination, request, domain);
    }
    if (request.counted) deps.onRedirect?.(domain);
    if (request.password !== undefined) return afterUnlock(location);
    const status = destination.redirectStatus ?? domain.redirectStatus ?? deps.status;
    return { status, headers: { location, "cache-control": cacheControl(destination, status) }, body: null };
  };

  // The unlock form's answer is always 303: a 307 or 308 would make the browser post the form, the password
  // in it, to the destination; nor may it be kept, or tell the destination where the visitor came from.
  const afterUnlock = (location: string): RedirectAnswer => ({
    status: 303,
    headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" },
    body: null,
  });

  // A permanent redirect a link asked for may be kept by the browser a while (its repeats are not counted);
  // never past the link's expiry, and never for a capped link, whose every visit must come here to be counted.
  const cacheControl = (destination: Destination, status: number): string => {
    if (destination.redirectStatus === null || (status !== 301 && status !== 308) || destination.maxVisits !== null) return "private, max-age=0";
    let seconds = deps.permanentMaxAgeSeconds;
    if (destination.expiresAt !== null) seconds = Math.min(seconds, Math.floor((destination.expiresAt.getTime() - clock().getTime()) / 1000));
    return `private, max-age=${Math.max(0, seconds)}`;
  };

  const refuse = (refusal: Refusal, destination: Destination, request: RedirectRequest, domain: Domain): RedirectAnswer => {
    // A held link leads nowhere, not even to its expired_url: that is the owner's address too. Not an orphan visit: the link is there.
    if (refusal === "quarantined") {
      if (prefersHtml(request.accept)) return quarantinedPage();
      throw LinkQuarantined.here();
    }
    if (refusal === "disabled") {
      if (prefersHtml(request.accept)) return disabledPage();
      throw LinkGone.because("disabled");
    }
    if (request.counted && refusal !== "password") deps.orphans?.record(refusal, domain.id, request.visitor);
    if (refusal === "password") {
      if (prefersHtml(request.accept)) return unlockPage(false);
      throw PasswordRequired.forLink();
    }
    // The link's own expired_url, else its domain's.
    const expiredUrl = destination.expiredUrl ?? unlistedDomainUrl(domain.expiredUrl, deps.threats);
    if (expiredUrl !== null) {
      if (request.password !== undefined) return afterUnlock(expiredUrl);
      return { status: 302, headers: { location: expiredUrl, "cache-control": "private, max-age=0" }, body: null };
    }
    if (prefersHtml(request.accept)) return gonePage(refusal);
    throw LinkGone.because(refusal);
  };

  // `key`: the code on the domain of the host asked (link-key.ts).
  const answer = async (request: RedirectRequest, domain: Domain): Promise<RedirectAnswer> => {
    const key = linkKey(domain.id, request.code);
    if (!request.counted) {
      const destination = await links.peek(key);
      const refusal = refusalOf({ ...destination, accessCount: destination.accessCount ?? 0 }, clock(), false);
      return refusal ? refuse(refusal, destination, request, domain) : sendOn(destination, request, domain);
    }
    const visit =
      request.password === undefined
        ? await links.visit(key, request.visitor, request.client)
        : await links.unlock(key, request.password, request.visitor, request.client);
    if (visit.through) return sendOn(visit.destination, request, domain, visit.facts);
    return refuse(refusalAfterWrite(visit.destination, clock(), request.password !== undefined), visit.destination, request, domain);
  };

  return async (request: RedirectRequest): Promise<RedirectAnswer> => {
    let domain: Domain | undefined;
    try {
      domain = deps.domains.resolve(deps.domains.held() ?? (await deps.domains.current()), hostNames.of(request.host));
      // A host no domain has, with UNKNOWN_HOSTS=404: nothing is found on it. A path is a code, never a key (`/5~promo`).
      if (domain === undefined || !couldBeCode(request.code)) throw LinkNotFound.for(request.code);
      return await answer(request, domain);
    } catch (error) {
      // A visit that led nowhere, on its domain: no such link (not a path no link could have, as /favicon.ico), or the wrong
      // password. A host that is no domain's (UNKNOWN_HOSTS=404) was never one of ours to count.
      if (request.counted && domain && error instanceof LinkNotFound && couldBeCode(request.code) && !isReserved(request.code)) {
        deps.orphans?.record("unknown", domain.id, request.visitor);
      }
      if (request.counted && domain && error instanceof WrongPassword) deps.orphans?.record("password", domain.id, request.visitor);
      // The domain's not-found URL, for people and programs alike: it is where the domain's owner sends what is not a link.
      // Marked for the gateway (which drops the header): a code no link has, though it is no 404, is a miss of its budget.
      const notFoundUrl = error instanceof LinkNotFound ? unlistedDomainUrl(domain?.notFoundUrl ?? null, deps.threats) : null;
      if (notFoundUrl !== null) {
        return { status: 302, headers: { location: notFoundUrl, "cache-control": "private, max-age=0", [linkPageHeader]: "not-found" }, body: null };
      }
      if (!prefersHtml(request.accept)) throw error;
      if (error instanceof LinkNotFound) return notFoundPage(request.code);
      if (error instanceof WrongPassword) return unlockPage(true);
      throw error;
    }
  };
}

/** Why the write let a visit not through: its state at the write (a cap reached within the batch leaves the count at the cap). */
function refusalAfterWrite(destination: CountedDestination, at: Date, unlocked: boolean): Refusal {
  return refusalOf(destination, at, unlocked) ?? "exhausted";
}
