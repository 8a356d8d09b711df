/** Which list names a destination: the question LinkTargets asks of every URL a visitor may be sent to (threats/ answers it). */
export interface ThreatCheck {
  /**
   * The name of a list that names `url` (the URL itself, its host, or a domain above it), or undefined. `counted` false:
   * a look that refuses nothing (the threat recheck), not counted in the metrics' matches.
   */
  listing(url: URL, counted?: boolean): string | undefined;
}
