import { domainHostShape, shortCodeShape } from "@linkgeo/shared/wire";
import { linkName, type LinkAddress } from "./link-address.ts";

/**
 * The links this browser created (or was given the manage token of), with
 * their tokens, in localStorage. Nothing leaves the browser but the API calls
 * that use a token. What is stored is read as hostile: another script or an
 * old version may have written anything there.
 */

export interface SavedLink {
  short_url: string;
  manage_token: string;
  link: string;
  long_url: string;
  created_at: string;
  /** The host of the link's domain, as its record names it; absent (a link made on the home page, or saved before domains): the default domain. */
  domain?: string;
}

const storageKey = "linkgeo.links";

const isSavedLink = (value: unknown): value is SavedLink => {
  const v = value as Record<string, unknown> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    ["short_url", "manage_token", "link", "long_url", "created_at"].every((key) => typeof v[key] === "string") &&
    (v.domain === undefined || typeof v.domain === "string")
  );
};

/** Where a saved link is: its code, on its domain. */
export function savedAddress(link: Pick<SavedLink, "short_url" | "domain">): LinkAddress {
  return link.domain === undefined ? { code: link.short_url } : { code: link.short_url, domain: link.domain };
}

/** What tells saved links apart: `host/code`, or the code alone on the default domain (link-address.ts). */
export function savedName(link: Pick<SavedLink, "short_url" | "domain">): string {
  return linkName(savedAddress(link));
}

export function savedLinks(): SavedLink[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isSavedLink) : [];
  } catch {
    return [];
  }
}

/** The saved link at `address` (its domain as saved: absent, the default domain). */
export function savedLink(address: LinkAddress): SavedLink | undefined {
  const name = linkName(address);
  return savedLinks().find((link) => savedName(link) === name);
}

/**
 * The links in a file of "Your links" (the download of another browser), as
 * hostile as storage: a JSON array whose items are kept only when they are
 * saved links with a code fit for a path, a token of the API's alphabet and
 * an http(s) short link; `refused` counts the others. Undefined: no such array.
 */
export function savedLinksIn(text: string): { links: SavedLink[]; refused: number } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const links = parsed.filter((item): item is SavedLink => isSavedLink(item) && isWellFormed(item));
  return {
    links: links.map(({ short_url, manage_token, link, long_url, created_at, domain }) => ({
      short_url,
      manage_token,
      link,
      long_url,
      created_at,
      ...(domain === undefined ? {} : { domain }),
    })),
    refused: parsed.length - links.length,
  };
}

// base64url; an admin token has a dot, and must never be kept as a link's token.
export const manageTokenShape = /^[A-Za-z0-9_-]+$/;

function isWellFormed(link: SavedLink): boolean {
  return (
    shortCodeShape.test(link.short_url) &&
    manageTokenShape.test(link.manage_token) &&
    /^https?:\/\//.test(link.link) &&
    (link.domain === undefined || domainHostShape.test(link.domain))
  );
}

/** Adds a link (newest first), or replaces the one with the same code on the same domain. */
export function saveLink(link: SavedLink): void {
  const name = savedName(link);
  const others = savedLinks().filter((saved) => savedName(saved) !== name);
  write([{ ...link }, ...others]);
}

export function forgetLink(address: LinkAddress): void {
  const name = linkName(address);
  write(savedLinks().filter((saved) => savedName(saved) !== name));
}

function write(links: SavedLink[]): void {
  localStorage.setItem(storageKey, JSON.stringify(links));
}
