import { InvalidRequest } from "@linkgeo/shared";
import { threatHostKey, threatUrlKey } from "./threat-entries.ts";

/** What an allow-list or ban-list entry names: a domain (and every name under it) or one URL. */
export type AllowKind = "domain" | "url";

/** Which of the admins' two lists an entry is on: the allow-list overrides the feeds, the ban list acts as one. */
export type AdminVerdict = "allow" | "ban";

export interface AllowEntry {
  id: number;
  verdict: AdminVerdict;
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

/** The port of the allow-list and the ban list (one table): the stores of both engines implement it. */
export interface AllowStore {
  /** The new entry, or null when the same one is on its list already. */
  insert(entry: NewAllowEntry): Promise<AllowEntry | null>;
  /** Every entry of one list, oldest first. */
  list(verdict: AdminVerdict): Promise<AllowEntry[]>;
  /** True when an entry of that list was deleted. */
  delete(verdict: AdminVerdict, id: number): Promise<boolean>;
}
