import type { VisitFacts } from "./visit-facts.ts";

/**
 * What a redirect request said about who followed the link, as it said it:
 * kept in memory only until its batch is written (milliseconds), when it is
 * turned into VisitFacts once per distinct visitor of the batch, then dropped.
 * Never stored, never logged.
 */
export interface SeenVisitor {
  /** The socket's peer (the gateway, or the client itself). */
  peer: string | undefined;
  forwardedFor: string | null;
  userAgent: string | null;
  referer: string | null;
}

/** Equal for requests that say the same: a batch of one visitor's clicks is classified once. */
export function visitorKey(visitor: SeenVisitor): string {
  return `${visitor.peer ?? ""}\n${visitor.forwardedFor ?? ""}\n${visitor.userAgent ?? ""}\n${visitor.referer ?? ""}`;
}

/** Who a seen visitor is, for analytics: see VisitClassifier and clientOf. */
export type DescribeVisitor = (visitor: SeenVisitor) => VisitFacts;
