import { InvalidRequest } from "@linkgeo/shared";
import { threatHostKey, threatUrlKey } from "./threat-entries.ts";

/** What an allow-list entry allows: a domain (and every name under it) or one URL. */
export type AllowKind = "domain" | "url";

export interface AllowEntry {
  id: number;
  kind: AllowKind;
  /** The key the feeds are matched by: a host name, or a normalised URL (threat-entries.ts). */
  value: string;
  createdAt: Date;
}

export type NewAllowEntry = Omit<AllowEntry, "id">;

/**
 * The entry a `POST /admin/allow-list` body asks for: exactly one of
 * `domain` (a host name, kept as the feeds' hosts are) and `url` (an http
 * or https URL, kept as the feeds' URLs are). InvalidRequest otherwise,
 * naming the field.
 */
export function allowEntryOf(body: { domain?: unknown; url?: unknown }): Pick<AllowEntry, "kind" | "value"> {
  const { domain, url } = body;
  if ((domain === undefined) === (url === undefined)) throw InvalidRequest.because("send either domain or url");
  if (domain !== undefined) {
    const host = typeof domain === "string" ? threatHostKey(domain.trim()) : undefined;
    if (host === undefined) throw InvalidRequest.because("domain must be a host name, like example.com (no scheme, port or path)");
    return { kind: "domain", value: host };
  }
  const key = typeof url === "string" && url.length <= 2048 ? threatUrlKey(url) : undefined;
  if (key === undefined) throw InvalidRequest.because("url must be an absolute http or https URL of at most 2048 characters");
  return { kind: "url", value: key };
}

/** The allow-list's port: the stores of both engines implement it. */
export interface AllowStore {
  /** The new entry, or null when the same one is there already. */
  insert(entry: NewAllowEntry): Promise<AllowEntry | null>;
  /** Every entry, oldest first. */
  list(): Promise<AllowEntry[]>;
  /** True when an entry was deleted. */
  delete(id: number): Promise<boolean>;
}
