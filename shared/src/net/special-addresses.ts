import { isIpv4, type IpAddress } from "./ip-address.ts";
import { inAnyIpRange, inIpRange, parseIpRange } from "./ip-range.ts";

/** Loopback and "this host": whatever is sent there comes back to the machine itself. */
export const loopbackOrUnspecified = ["127.0.0.0/8", "0.0.0.0/8", "::1/128", "::/128"].map(parseIpRange);

/** Private networks: RFC 1918, shared address space (RFC 6598), link-local, IPv6 unique local and link-local. */
export const privateNetworks = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "fc00::/7", "fe80::/10"].map(parseIpRange);

// The rest of IANA's IPv4 special-purpose registry (RFC 6890 and later):
// IETF protocol assignments, documentation, 6to4 relay, benchmarking,
// multicast and reserved space.
const otherSpecialIpv4 = [
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
].map(parseIpRange);

// Outside 2000::/3 nothing is global unicast (loopback, ULA, link-local,
// multicast, NAT64's 64:ff9b::/96 all are); inside it, the IETF protocol
// block (Teredo among them), documentation and 6to4 are not a place either.
const globalUnicast = parseIpRange("2000::/3");
const otherSpecialIpv6 = ["2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20"].map(parseIpRange);

/** True for an address a client on the public internet can have. */
export function isPublicAddress(address: IpAddress): boolean {
  if (inAnyIpRange(address, loopbackOrUnspecified) || inAnyIpRange(address, privateNetworks)) return false;
  if (isIpv4(address)) return !inAnyIpRange(address, otherSpecialIpv4);
  return inIpRange(address, globalUnicast) && !inAnyIpRange(address, otherSpecialIpv6);
}
