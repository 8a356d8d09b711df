/**
 * A link as the API finds it: its code, on its domain (docs/domains.md).
 * Every record says its `domain`; a call about one link sends it as
 * `?domain=`, so a code taken on two hosts never reaches the other's link.
 * Absent, the default domain (a link made on the home page, or saved in
 * this browser before domains).
 */
export interface LinkAddress {
  code: string;
  domain?: string;
}

/** The `?domain=` of a call about `link`: its domain's host, or nothing for the default domain. */
export function domainQuery(link: LinkAddress): { domain?: string } {
  return link.domain === undefined ? {} : { domain: link.domain };
}

/** How the daily visits and the page's own address name a link: `host/code`, or the code alone on the default domain. */
export function linkName(link: LinkAddress): string {
  return link.domain === undefined ? link.code : `${link.domain}/${link.code}`;
}

/** The link a report names: `host/code` on that host, a code alone on the default domain. */
export function addressOfName(name: string): LinkAddress {
  const slash = name.lastIndexOf("/");
  return slash === -1 ? { code: name } : { code: name.slice(slash + 1), domain: name.slice(0, slash) };
}

/** The link's page in the web app: `/app/links/<code>`, with `?domain=<host>` when it has one. */
export function linkPage(link: LinkAddress): string {
  const path = `/app/links/${encodeURIComponent(link.code)}`;
  return link.domain === undefined ? path : `${path}?domain=${encodeURIComponent(link.domain)}`;
}
