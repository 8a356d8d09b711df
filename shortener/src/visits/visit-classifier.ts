import type { IpCountries } from "./ip-countries.ts";
import { referrerHost } from "./referrer-host.ts";
import { UserAgentClassifier } from "./user-agent-classifier.ts";
import type { VisitFacts } from "./visit-facts.ts";

export interface VisitClassifierDeps {
  /** Loaded once at start: `loadIpCountries().countries`. */
  countries: Pick<IpCountries, "countryOf">;
  /** Distinct User-Agents whose facts are remembered. Default 10,000. */
  uaCacheSize?: number;
}

/** What the redirect knows of one visit; none of it is kept. */
export interface VisitInput {
  /** The client's address as `clientOf` gives it (`1.2.3.4`, `2001:db8::1`, or `unknown`). */
  clientAddress: string;
  /** The User-Agent header, null when absent. */
  userAgent: string | null;
  /** The Referer header, null when absent. */
  referer: string | null;
}

/**
 * Turns a counted redirect into the facts analytics keep: the address
 * becomes a country and the User-Agent a few families, then both are
 * dropped. Pure and synchronous, with no I/O: a few microseconds for a
 * User-Agent seen before, a few tens for a new one.
 */
export class VisitClassifier {
  private readonly countries: Pick<IpCountries, "countryOf">;
  private readonly userAgents: UserAgentClassifier;

  constructor(deps: VisitClassifierDeps) {
    this.countries = deps.countries;
    this.userAgents = new UserAgentClassifier(deps.uaCacheSize === undefined ? {} : { cacheSize: deps.uaCacheSize });
  }

  classify(input: VisitInput): VisitFacts {
    const agent = this.userAgents.classify(input.userAgent);
    return {
      bot: agent.bot,
      referrer: referrerHost(input.referer),
      country: this.countries.countryOf(input.clientAddress),
      browser: agent.browser,
      os: agent.os,
      device: agent.device,
    };
  }
}
