import type { VisitFacts } from "./visit-facts.ts";

/** What a redirect request says about who followed the link; used once, then dropped (never stored). */
export interface Visitor {
  /** The client's address as the gateway forwarded it (trusted proxies considered). */
  clientAddress: string;
  userAgent: string | null;
  referer: string | null;
}

/** Turns a visitor into the facts analytics keep; absent when analytics are off. */
export type DescribeVisit = (visitor: Visitor) => VisitFacts;
