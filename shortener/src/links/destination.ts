import type { VisitClaim as ClaimOf } from "../visits/visit-writer.ts";
import { redirectStatuses, type LinkRule, type RedirectStatus } from "./link-options.ts";
import { linkHolds, type LinkHold } from "./link-hold.ts";
import type { Link } from "./link.ts";

/**
 * Where a link leads and on what terms: what a redirect needs of its link,
 * as the count write returns it (never the password hash, only whether
 * there is one).
 */
export interface Destination {
  longUrl: string;
  redirectStatus: RedirectStatus | null;
  forwardQuery: boolean;
  rules: LinkRule[];
  expiresAt: Date | null;
  maxVisits: number | null;
  expiredUrl: string | null;
  passwordProtected: boolean;
  /** A hold (link-hold.ts) refuses every visit, before anything else is judged. */
  hold: LinkHold | null;
}

/** What the count write made of one link's visits (visits/visit-writer.ts): its destination, and how many of the visits it let through and counted (see `refusalOf` for the others). */
export type VisitClaim = ClaimOf<CountedDestination>;

/** Why a link lets no visit through, or undefined when it does. */
export type Refusal = "expired" | "exhausted" | "password" | LinkHold;

/** A link as the count write sees it under its row lock: its destination and its count so far. */
export type CountedDestination = Destination & { accessCount: number };

/**
 * The one rule of how many of `asked` visits a link lets through at `at`;
 * both stores apply it under the link's row lock, so a cap holds across any
 * number of replicas. A link whose password was not given (`unlocked`
 * false) lets none through.
 */
export function grantedVisits(link: CountedDestination, asked: number, at: Date, unlocked: boolean): number {
  if (refusalOf(link, at, unlocked) !== undefined) return 0;
  return link.maxVisits === null ? asked : Math.min(asked, link.maxVisits - link.accessCount);
}

/**
 * Why a visit at `at` leads nowhere, or undefined when it leads on. A hold
 * comes first (the password would only keep a harmful link a moment
 * longer); then the password: before it, nothing may tell where the link
 * would send anyone, not even its `expired_url` (nor that it has expired).
 */
export function refusalOf(link: CountedDestination, at: Date, unlocked: boolean): Refusal | undefined {
  if (link.hold !== null) return link.hold;
  if (link.passwordProtected && !unlocked) return "password";
  const state = linkState(link, at);
  return state === "active" ? undefined : state;
}

/** What a link's record says of it (`state`), and what the listing's `?state=` picks. */
export const linkStates = ["active", "expired", "exhausted", ...linkHolds] as const;
export type LinkState = (typeof linkStates)[number];

/**
 * A link's state as its record shows it: its hold when it has one, `expired` past its expiry, `exhausted` once its cap
 * is reached, else `active`. The stores' listing filter says the same in SQL (storage/<engine>/*-link-store.ts, stateCondition).
 */
export function linkState(link: Pick<Destination, "expiresAt" | "maxVisits" | "hold"> & { accessCount: number }, now: Date): LinkState {
  if (link.hold !== null) return link.hold;
  if (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()) return "expired";
  if (link.maxVisits !== null && link.accessCount >= link.maxVisits) return "exhausted";
  return "active";
}

/** A link's destination as a LinkCache entry holds it (JSON; the cache stores text). */
export function encodeDestination(destination: Destination): string {
  // Fixed key order: an entry and a fresh encoding of the same destination are the same text.
  return JSON.stringify({
    longUrl: destination.longUrl,
    redirectStatus: destination.redirectStatus,
    forwardQuery: destination.forwardQuery,
    rules: destination.rules,
    expiresAt: destination.expiresAt?.getTime() ?? null,
    maxVisits: destination.maxVisits,
    expiredUrl: destination.expiredUrl,
    passwordProtected: destination.passwordProtected,
    hold: destination.hold,
  });
}

/**
 * A cache entry back as a destination. An entry written before links had
 * options is the bare long URL (such a link had none); an entry that is
 * neither is undefined, a miss.
 */
export function decodeDestination(entry: string): Destination | undefined {
  if (entry.startsWith("https://") || entry.startsWith("http://")) return plainDestination(entry);
  if (!entry.startsWith("{")) return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(entry);
  } catch {
    return undefined;
  }
  // Held to its shape like any answer from outside: another version's entry, or a damaged one, is a miss.
  const nullable = (value: unknown, type: "string" | "number") => value === null || typeof value === type;
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    typeof parsed.longUrl !== "string" ||
    !(parsed.redirectStatus === null || redirectStatuses.includes(parsed.redirectStatus as RedirectStatus)) ||
    typeof parsed.forwardQuery !== "boolean" ||
    !Array.isArray(parsed.rules) ||
    !parsed.rules.every(isRule) ||
    !nullable(parsed.expiresAt, "number") ||
    !nullable(parsed.maxVisits, "number") ||
    !nullable(parsed.expiredUrl, "string") ||
    typeof parsed.passwordProtected !== "boolean" ||
    !(parsed.hold === null || linkHolds.includes(parsed.hold as LinkHold))
  ) {
    return undefined;
  }
  return {
    longUrl: parsed.longUrl,
    redirectStatus: parsed.redirectStatus as RedirectStatus | null,
    forwardQuery: parsed.forwardQuery,
    rules: parsed.rules,
    expiresAt: parsed.expiresAt === null ? null : new Date(parsed.expiresAt as number),
    maxVisits: parsed.maxVisits as number | null,
    expiredUrl: parsed.expiredUrl as string | null,
    passwordProtected: parsed.passwordProtected,
    hold: parsed.hold as LinkHold | null,
  };
}

function isRule(value: unknown): value is LinkRule {
  if (typeof value !== "object" || value === null) return false;
  const { when, url } = value as { when?: unknown; url?: unknown };
  if (typeof url !== "string" || typeof when !== "object" || when === null) return false;
  return Object.values(when).every((condition) => typeof condition === "string");
}

/** The destination of a link without options: its long URL, always. */
export function plainDestination(longUrl: string): Destination {
  return { ...noOptionsDestination, longUrl };
}

const noOptionsDestination: Omit<Destination, "longUrl"> = {
  redirectStatus: null,
  forwardQuery: false,
  rules: [],
  expiresAt: null,
  maxVisits: null,
  expiredUrl: null,
  passwordProtected: false,
  hold: null,
};

/** A stored link's destination. */
export function destinationOfLink(link: Link): CountedDestination {
  return {
    longUrl: link.longUrl,
    redirectStatus: link.redirectStatus,
    forwardQuery: link.forwardQuery,
    rules: link.rules,
    expiresAt: link.expiresAt,
    maxVisits: link.maxVisits,
    expiredUrl: link.expiredUrl,
    passwordProtected: link.passwordHash !== null,
    hold: link.hold,
    accessCount: link.accessCount,
  };
}
