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
