import type { Domain } from "../domains/domain.ts";
import type { DomainDirectory, DomainSnapshot } from "../domains/domain-directory.ts";
import { LinkNotFound } from "./link-errors.ts";
import type { Reader, RecordView } from "./link-record.ts";
import { keyParts, linkKey, unknownDomainHost } from "./link-key.ts";
import { couldBeCode } from "./short-code.ts";
import { defaultDomainId } from "../domains/domain.ts";

/** The domains as a request reads them: this replica's snapshot, and the host the request came by (the default domain's when PUBLIC_BASE_URL is unset). */
export interface DomainsSeen {
  directory: DomainDirectory;
  snapshot: DomainSnapshot;
  requestHost: string | undefined;
}

/**
 * `requestHost` stands for the default domain's host when PUBLIC_BASE_URL is
 * unset; a request that came by an added domain's host says nothing of it
 * (that host is the added domain's), and the default domain then has none.
 */
export async function domainsSeen(directory: DomainDirectory, origin: string): Promise<DomainsSeen> {
  const snapshot = await directory.current();
  const hostName = URL.parse(origin)?.hostname;
  return { directory, snapshot, requestHost: hostName !== undefined && snapshot.withHost(hostName) ? undefined : hostName };
}

/** The domain a client names (undefined: none has that host); absent, the default one. */
export function namedDomain(seen: DomainsSeen, host: string | undefined): Domain | undefined {
  return seen.directory.named(seen.snapshot, host, seen.requestHost);
}

/** The key of the link a route names: `code` on the domain of `?domain=` (the default one when absent); a domain none has holds no link (404). */
export function namedLinkKey(seen: DomainsSeen, code: string, domainHost: string | undefined): string {
  const domain = namedDomain(seen, domainHost);
  // A client names a code, never a key: `5~promo` is no link's code, here or on domain 5.
  if (!domain || !couldBeCode(code)) throw LinkNotFound.for(code);
  return linkKey(domain.id, code);
}

/** An added domain's host by its id, for a record's `domain` and `link`. */
export function hostsOf(seen: DomainsSeen): (domainId: number) => string | null | undefined {
  return (domainId) => seen.snapshot.withId(domainId)?.host;
}

/** The default domain's host as a request sees it: PUBLIC_BASE_URL's, else the request's ("" when that is an added domain's). */
export function defaultHostOf(seen: DomainsSeen): string {
  return seen.directory.hostOf({ host: null }, seen.requestHost);
}

/** How a record is shown to `reader` on a request that came by `origin` (link-record.ts), at `now`. */
export function recordView(origin: string, reader: Reader, seen: DomainsSeen, now: Date): RecordView {
  return { origin, now, reader, hostOf: hostsOf(seen), defaultHost: defaultHostOf(seen) };
}

/** How a report names a link: its code on the default domain, `host/code` on an added one (the key's prefix never reaches a client). */
export function linkLabel(seen: DomainsSeen, key: string): string {
  const { domainId, code } = keyParts(key);
  if (domainId === defaultDomainId) return code;
  return `${seen.snapshot.withId(domainId)?.host ?? unknownDomainHost(domainId)}/${code}`;
}

/** Where a link is, as an export writes it: its code, and its domain's host (the default domain's is the request's, or PUBLIC_BASE_URL's). */
export function linkPlace(seen: DomainsSeen, key: string): { code: string; domain: string } {
  const { domainId, code } = keyParts(key);
  if (domainId === defaultDomainId) return { code, domain: defaultHostOf(seen) };
  return { code, domain: seen.snapshot.withId(domainId)?.host ?? unknownDomainHost(domainId) };
}
