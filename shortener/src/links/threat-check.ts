/** Which list names a destination: the question LinkTargets asks of every URL a visitor may be sent to (threats/ answers it). */
export interface ThreatCheck {
  /**
   * The name of a list that names `url` (the URL itself, its host, or a domain above it), or undefined. `counted` false:
   * a look that refuses nothing (the threat recheck), not counted in the metrics' matches.
   */
  listing(url: URL, counted?: boolean): string | undefined;
  /**
   * Whether every list is loaded (a file not read yet, or never readable, lists nothing): the threat recheck lets no
   * link go while one is missing, as a list missing here is not one that dropped the link. Absent: always.
   */
  readonly complete?: boolean;
}

/**
 * A domain's own address (`root_url`, `not_found_url`, `expired_url`) as
 * visitors may be sent to it now: null once a list names it. It was
 * checked when it was set, and the threat recheck judges links, not
 * domains: asked at each use instead (a table read), it stops the moment
 * the list names it, and serves again the moment the list drops it.
 */
export function unlistedDomainUrl(url: string | null, threats: ThreatCheck | undefined): string | null {
  if (url === null || threats === undefined) return url;
  const parsed = URL.parse(url);
  return parsed !== null && threats.listing(parsed) !== undefined ? null : url;
}
