import { shortCodeShape } from "@linkgeo/shared/wire";

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
}

const storageKey = "linkgeo.links";

const isSavedLink = (value: unknown): value is SavedLink => {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && ["short_url", "manage_token", "link", "long_url", "created_at"].every((key) => typeof v[key] === "string");
};

export function savedLinks(): SavedLink[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isSavedLink) : [];
  } catch {
    return [];
  }
}

export function savedLink(shortUrl: string): SavedLink | undefined {
  return savedLinks().find((link) => link.short_url === shortUrl);
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
    links: links.map(({ short_url, manage_token, link, long_url, created_at }) => ({ short_url, manage_token, link, long_url, created_at })),
    refused: parsed.length - links.length,
  };
}

// base64url; an admin token has a dot, and must never be kept as a link's token.
export const manageTokenShape = /^[A-Za-z0-9_-]+$/;

function isWellFormed(link: SavedLink): boolean {
  return shortCodeShape.test(link.short_url) && manageTokenShape.test(link.manage_token) && /^https?:\/\//.test(link.link);
}

/** Adds a link (newest first), or replaces the one with the same code. */
export function saveLink(link: SavedLink): void {
  const others = savedLinks().filter((saved) => saved.short_url !== link.short_url);
  write([{ ...link }, ...others]);
}

export function forgetLink(shortUrl: string): void {
  write(savedLinks().filter((saved) => saved.short_url !== shortUrl));
}

function write(links: SavedLink[]): void {
  localStorage.setItem(storageKey, JSON.stringify(links));
}
