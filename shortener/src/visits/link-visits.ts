import type { VisitFacts } from "./visit-facts.ts";

/** The breakdowns kept per link and UTC day, as the API names them. */
export const dimensions = ["referrers", "countries", "browsers", "os", "devices"] as const;
export type Dimension = (typeof dimensions)[number];

/** Which fact of a visit each breakdown counts. */
const factOf: Record<Dimension, (facts: VisitFacts) => string> = {
  referrers: (facts) => facts.referrer,
  countries: (facts) => facts.country,
  browsers: (facts) => facts.browser,
  os: (facts) => facts.os,
  devices: (facts) => facts.device,
};

/** Visits with one value of one breakdown: all of them, and how many of those were bots. */
export interface ValueVisits {
  visits: number;
  bots: number;
}

/**
 * What a batch of visits adds to one link: its access count, and, when the
 * visits came with their facts (analytics on), the same visits split into
 * humans and bots and counted per value of each breakdown (with the bots
 * among them, so a report can rank humans and bots apart). Written in one
 * transaction, so `humans + bots` and each breakdown's sum equal `count`.
 */
export class LinkVisits {
  count = 0;
  humans = 0;
  bots = 0;
  /** Per breakdown, visits per value. */
  readonly byDimension: Record<Dimension, Map<string, ValueVisits>> = {
    referrers: new Map(),
    countries: new Map(),
    browsers: new Map(),
    os: new Map(),
    devices: new Map(),
  };

  /** Each visitor's facts with their visits, in the order added: what `first` takes from. */
  private readonly parts: Array<[VisitFacts | undefined, number]> = [];

  /** `n` visits of one visitor; without facts (analytics off) only the access count grows. */
  add(facts: VisitFacts | undefined, n = 1): void {
    this.count += n;
    this.parts.push([facts, n]);
    if (!facts) return;
    if (facts.bot) this.bots += n;
    else this.humans += n;
    for (const dimension of dimensions) {
      const value = factOf[dimension](facts);
      const counts = this.byDimension[dimension];
      const counted = counts.get(value);
      if (counted) {
        counted.visits += n;
        if (facts.bot) counted.bots += n;
      } else counts.set(value, { visits: n, bots: facts.bot ? n : 0 });
    }
  }

  /** Whether these visits carry analytics (false when analytics are off). */
  get analysed(): boolean {
    return this.humans + this.bots > 0;
  }

  /** Each (dimension, value, visits, bots among them) row, for the stores. */
  *factRows(): Generator<[Dimension, string, number, number]> {
    for (const dimension of dimensions) for (const [value, { visits, bots }] of this.byDimension[dimension]) yield [dimension, value, visits, bots];
  }

  /**
   * The first `n` of these visits, visitor by visitor in the order they were
   * added: what a link with a visit cap lets through when it has fewer
   * visits left than a batch brings (VisitCounter grants its waiters in the
   * same order).
   */
  first(n: number): LinkVisits {
    if (n >= this.count) return this;
    if (this.parts.length === 0) return LinkVisits.counting(n);
    const taken = new LinkVisits();
    for (const [facts, visits] of this.parts) {
      const left = n - taken.count;
      if (left <= 0) break;
      taken.add(facts, Math.min(visits, left));
    }
    return taken;
  }

  /** `n` visits without facts (the access count only). */
  static counting(n: number): LinkVisits {
    const visits = new LinkVisits();
    visits.count = n;
    return visits;
  }
}
