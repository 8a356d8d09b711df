import { InvalidRequest } from "@linkgeo/shared";
import { couldBeCode } from "./short-code.ts";

/** How many links one daily-visits request may name (a page of the admin listing at most). */
export const maxCodesPerRequest = 100;
export const defaultDays = 14;
export const maxDays = 90;

/** One link a daily-visits request names: as it was named (the answer's key), its code, and its domain's host (absent: the default domain). */
export interface NamedLink {
  named: string;
  code: string;
  host?: string;
}

/**
 * `?codes=a,b,c`: 1 to 100 short URLs, each a code (3–32 of A-Z a-z 0-9 _
 * -) on the default domain, or `host/code` on another (docs/domains.md),
 * repeats counted once; 400 otherwise. A code with no link is fine: it has
 * no visits.
 */
export function parseCodeList(raw: string): NamedLink[] {
  const named = raw.split(",");
  if (named.length > maxCodesPerRequest) throw InvalidRequest.because(`codes may name at most ${maxCodesPerRequest} short URLs`);
  const links = [...new Set(named)].map((entry) => {
    const slash = entry.lastIndexOf("/");
    const link: NamedLink = slash === -1 ? { named: entry, code: entry } : { named: entry, code: entry.slice(slash + 1), host: entry.slice(0, slash) };
    return link;
  });
  if (!links.every((link) => couldBeCode(link.code) && (link.host === undefined || link.host.length > 0))) {
    throw InvalidRequest.because("codes must be a comma-separated list of short URLs (3 to 32 of A-Z, a-z, 0-9, _ and -), each host/code on an added domain");
  }
  return links;
}

/** `?days=`: a whole number from 1 to 90, 14 when absent; 400 otherwise. */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined) return defaultDays;
  const days = /^\d{1,2}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(days >= 1 && days <= maxDays)) throw InvalidRequest.because(`days must be a whole number from 1 to ${maxDays}`);
  return days;
}
