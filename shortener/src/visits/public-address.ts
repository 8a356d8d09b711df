import { inAnyIpRange, inIpRange, isIpv4, parseIpRange, type IpAddress } from "@linkgeo/shared";

// IANA's special-purpose registries (RFC 6890 and later): private, loopback,
// link-local, shared (CGNAT), documentation, benchmarking, multicast and
// reserved space. A visit from one of them came through a local network or a
// proxy we were not told about; no database can say where its person is.
const specialIpv4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
].map(parseIpRange);

// Outside 2000::/3 nothing is global unicast (loopback, ULA fc00::/7,
// link-local, multicast, NAT64's 64:ff9b::/96 all are); inside it, the IETF
// protocol block (Teredo among them), documentation and 6to4 are not a
// place either: DB-IP still gives Teredo a country.
const globalUnicast = parseIpRange("2000::/3");
const specialIpv6 = ["2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20"].map(parseIpRange);

/** True for an address a client on the public internet can have. */
export function isPublicAddress(address: IpAddress): boolean {
  if (isIpv4(address)) return !inAnyIpRange(address, specialIpv4);
  return inIpRange(address, globalUnicast) && !inAnyIpRange(address, specialIpv6);
}
