import type { ThreatCheck } from "./threat-check.ts";
import { HarmfulDestination, InvalidUrl } from "./link-errors.ts";
import { checkLongUrl } from "./long-url.ts";
import { formatIp, inAnyIpRange, loopbackOrUnspecified, parseIp, privateNetworks, type IpAddress } from "@linkgeo/shared";

export interface LinkTargetRules {
  /** BLOCK_PRIVATE_TARGETS: refuse private address ranges and names only a private network resolves. */
  blockPrivate: boolean;
  /** BLOCKED_DOMAINS, normalised by `parseDomainList`: each one and its subdomains are refused. */
  blockedDomains: readonly string[];
  /** This machine's own addresses (a replica's, as the gateway reaches it). */
  ownAddresses: readonly string[];
}

// RFC 6761's localhost and the names /etc/hosts gives loopback.
const loopbackNames = new Set(["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"]);
// Special-use and de facto private suffixes: names only a local network resolves.
const privateSuffixes = [".local", ".internal", ".lan", ".home.arpa", ".localdomain"];

/**
 * Which hosts a long URL may not name. A link back to the service redirects
 * in a loop (one click used to count 21 accesses), so these are always
 * refused, in any spelling the URL parser accepts (`0x7f.1`, `2130706433`,
 * `[::ffff:127.0.0.1]`, `LOCALHOST.`): loopback and unspecified addresses,
 * `localhost` and its subdomains, this machine's own addresses, and every
 * host the request came by (the public origin, as configured or forwarded).
 * Operators may also refuse private ranges and listed domains, and name
 * threat feeds: a URL they list is refused as harmful (docs/abuse.md).
 *
 * Names are never resolved: the service does not fetch long URLs, and a
 * lookup here would let clients make it query DNS, for an answer that could
 * change the moment after.
 */
export class LinkTargets {
  private readonly ownAddresses: IpAddress[];

  constructor(
    private readonly rules: LinkTargetRules,
    /** THREAT_FEEDS' lists (threats/threat-feeds.ts); absent, none. */
    private readonly threats?: ThreatCheck,
  ) {
    this.ownAddresses = rules.ownAddresses.flatMap((address) => parseIp(address) ?? []);
  }

  /**
   * The normalised URL, or InvalidUrl naming `field`: the rule of every URL
   * a visitor may be sent to (a long URL, `expired_url`, a rule's `url`, a
   * domain's). `requestHosts` are the hosts the request came by and the
   * domains' (never a target).
   */
  destination(raw: string, requestHosts: Iterable<string>, field = "long_url"): string {
    const check = checkLongUrl(raw, field);
    if (!check.ok) throw InvalidUrl.because(check.reason);
    const refusal = this.refusal(check.url, requestHosts, field);
    if (refusal) throw InvalidUrl.because(refusal);
    const list = this.threats?.listing(check.url);
    if (list !== undefined) throw HarmfulDestination.listedBy(field, list);
    return check.url.href;
  }

  /** Why `url` may not be a long URL here (in words naming `field`), or undefined. `requestHosts`: `host[:port]`s the request came by. */
  refusal(url: URL, requestHosts: Iterable<string>, field = "long_url"): string | undefined {
    const pointsHere = `${field} must not point at this service`;
    const host = canonicalHost(url.hostname);
    const address = parseIp(host);
    if (address) {
      if (inAnyIpRange(address, loopbackOrUnspecified) || this.ownAddresses.some((own) => sameAddress(own, address))) return pointsHere;
      if (this.rules.blockPrivate && inAnyIpRange(address, privateNetworks)) return `${field} must not point at a private network address`;
    } else {
      if (loopbackNames.has(host) || host.endsWith(".localhost")) return pointsHere;
      if (this.rules.blockPrivate && (!host.includes(".") || privateSuffixes.some((suffix) => host.endsWith(suffix)))) {
        return `${field} must not point at a name of a private network`;
      }
      if (this.rules.blockedDomains.some((domain) => host === domain || host.endsWith(`.${domain}`))) return `${field} points at a blocked domain`;
    }
    for (const own of requestHosts) if (hostnameOf(own) === host) return pointsHere;
    return undefined;
  }
}

/**
 * BLOCKED_DOMAINS: a comma list of domain names, normalised as URLs
 * normalise hosts (lower case, punycode, no trailing dot). Throws in words
 * that complete "BLOCKED_DOMAINS …".
 */
export function parseDomainList(raw: string): string[] {
  return raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((entry) => {
      const host = hostnameOf(entry);
      if (host === undefined || parseIp(host) || entry.includes("/") || entry.includes(":")) {
        throw new Error(`has "${entry}", which is not a domain name`);
      }
      return host;
    });
}

/** Lower case, no brackets, no trailing dots; an IP address in its canonical text. */
function canonicalHost(hostname: string): string {
  const bare = hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "")
    .toLowerCase();
  const address = parseIp(bare);
  return address ? formatIp(address) : bare;
}

/** The canonical host name in `host[:port]` (or a bare name), as the URL parser reads it; undefined if it does not parse. */
function hostnameOf(authority: string): string | undefined {
  if (!URL.canParse(`http://${authority}/`)) return undefined;
  const url = new URL(`http://${authority}/`);
  return url.username || url.password || url.pathname !== "/" ? undefined : canonicalHost(url.hostname);
}

function sameAddress(a: IpAddress, b: IpAddress): boolean {
  return a.every((byte, i) => byte === b[i]);
}
