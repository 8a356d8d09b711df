import type { VisitFacts } from "../visits/visit-facts.ts";
import { preferredLanguage } from "./accept-language.ts";
import type { Destination } from "./destination.ts";
import type { LinkRule, RuleDevice } from "./link-options.ts";

/** What a redirect knows of its visitor for the link's rules and query; facts are worked out only when a rule asks. */
export interface VisitorContext {
  facts: () => Pick<VisitFacts, "os" | "device" | "country">;
  acceptLanguage: string | null;
  /** The short URL's query string, without `?` ("" when none). */
  query: string;
}

const deviceMatches: Record<RuleDevice, (facts: Pick<VisitFacts, "os" | "device">) => boolean> = {
  ios: (facts) => facts.os === "iOS",
  android: (facts) => facts.os === "Android",
  mobile: (facts) => facts.device === "mobile",
  tablet: (facts) => facts.device === "tablet",
  desktop: (facts) => facts.device === "desktop",
};

/**
 * The URL this visitor is sent to: the first rule whose every condition
 * holds, else the long URL; with `forward_query`, the short URL's query is
 * added to it, its parameters replacing the destination's own of the same
 * name (the visitor's `utm_source` wins over a default one). The
 * destination's other parameters stay as written, byte for byte (a flag
 * without `=`, a `;`, a signature's own encoding).
 */
export function visitorDestination(destination: Destination, visitor: VisitorContext): string {
  const target = destination.rules.length === 0 ? destination.longUrl : (firstMatch(destination.rules, visitor)?.url ?? destination.longUrl);
  if (!destination.forwardQuery || visitor.query === "") return target;
  const url = new URL(target);
  const forwarded = new URLSearchParams(visitor.query);
  if (forwarded.size === 0) return target;
  const replaced = new Set(forwarded.keys());
  const own = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && !replaced.has(nameOf(pair)));
  url.search = [...own, forwarded.toString()].join("&");
  return url.href;
}

/** A query pair's name as URLSearchParams reads it (`+` a space, percent-escapes decoded; a malformed one as written). */
function nameOf(pair: string): string {
  const name = pair.split("=", 1)[0]!.replaceAll("+", " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function firstMatch(rules: readonly LinkRule[], visitor: VisitorContext): LinkRule | undefined {
  let facts: Pick<VisitFacts, "os" | "device" | "country"> | undefined;
  let language: string | undefined | null = null;
  const factsOf = () => (facts ??= visitor.facts());
  return rules.find(({ when }) => {
    if (when.device !== undefined && !deviceMatches[when.device](factsOf())) return false;
    if (when.country !== undefined && factsOf().country !== when.country) return false;
    if (when.language !== undefined) {
      if (language === null) language = preferredLanguage(visitor.acceptLanguage);
      if (language !== when.language) return false;
    }
    return true;
  });
}
