import { clientOf, type IpRange } from "@linkgeo/shared";
import type { DescribeVisitor } from "./seen-visitor.ts";
import type { VisitClassifier } from "./visit-classifier.ts";

/**
 * Analytics' view of a visitor: its client address worked out as for every
 * request (X-Forwarded-For believed only from `trustedProxies`), then its
 * country, browser, OS, device and referrer host.
 */
export function describeVisitorWith(classifier: Pick<VisitClassifier, "classify">, trustedProxies: readonly IpRange[]): DescribeVisitor {
  return (visitor) =>
    classifier.classify({
      clientAddress: clientOf(visitor.peer, visitor.forwardedFor, trustedProxies).address,
      userAgent: visitor.userAgent,
      referer: visitor.referer,
    });
}
