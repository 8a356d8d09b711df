import { BoundedMap, parseIp } from "@linkgeo/shared";

const maxHostLength = 253;
const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain's host as a person or a file gives it (`Go.Brand.example`,
 * `bücher.example.`), in the one form it is stored and matched in: lower
 * case, punycode, no trailing dot. Only a DNS name of two labels or more:
 * no port, path, user, IP address or wildcard. Returns the reason in words
 * that complete "host …" when it is none.
 */
export function parseDomainHost(raw: string): { host: string } | { problem: string } {
  if (raw.length === 0 || raw.length > maxHostLength) return { problem: `must be 1 to ${maxHostLength} characters` };
  if (/[\s/\\?#@:[\]%]/.test(raw) || /[\u0000-\u001f\u007f]/.test(raw)) return { problem: "must be a host name alone (no scheme, port, path or spaces)" };
  if (!URL.canParse(`http://${raw}/`)) return { problem: "is not a host name" };
  const host = new URL(`http://${raw}/`).hostname.replace(/\.$/, "");
  if (parseIp(host)) return { problem: "must be a name, not an IP address" };
  const labels = host.split(".");
  if (labels.length < 2 || !labels.every((part) => label.test(part)))
    return { problem: "must be a name of two labels or more, each of letters, digits and inner hyphens" };
  if (host.length > maxHostLength) return { problem: `must be 1 to ${maxHostLength} characters` };
  return { host };
}

/**
 * The host name a request came by, from its `Host` (or a trusted proxy's
 * `X-Forwarded-Host`): `host[:port]` in any case, read as the URL parser
 * reads it, port and trailing dot left out; undefined when it is no name.
 * This is what a domain's host is matched against.
 */
export function requestHostName(authority: string | null | undefined): string | undefined {
  if (!authority || authority.length > maxHostLength + 6 || /[\s/\\?#@%]/.test(authority)) return undefined;
  if (!URL.canParse(`http://${authority}/`)) return undefined;
  return new URL(`http://${authority}/`).hostname.replace(/\.$/, "") || undefined;
}

/**
 * `requestHostName` for the redirect's path, remembered: a deployment is
 * asked on a few hosts, over and over. At most `capacity` are kept (the
 * oldest goes first), so made-up hosts cost a parse each and no memory.
 */
export class RequestHostNames {
  private readonly known: BoundedMap<string, string | null>;

  constructor(capacity = 256) {
    this.known = new BoundedMap(capacity);
  }

  of(authority: string | null | undefined): string | undefined {
    if (!authority) return undefined;
    const known = this.known.get(authority);
    if (known !== undefined) return known ?? undefined;
    const name = requestHostName(authority);
    this.known.set(authority, name ?? null);
    return name;
  }
}
