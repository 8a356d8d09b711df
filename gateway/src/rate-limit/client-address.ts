import type { Server } from "elysia/universal";
import { formatIp, parseIp, type IpAddress } from "./ip-address.ts";
import { ipRangeMatcher } from "./ip-range.ts";

/** The client address when the socket's peer is not known (a request handed to `app.handle` in a test, a Unix socket). */
export const unknownClient = "unknown";

// Parsed once per list: callers pass the configuration's own array on every request.
const matchers = new WeakMap<readonly string[], (address: IpAddress) => boolean>();

/**
 * The address a request came from, in canonical form (`1.2.3.4`, `2001:db8::1`).
 *
 * X-Forwarded-For is believed only as far as trusted proxies vouch for it:
 * starting from the socket's peer, while the current hop is a trusted proxy
 * the entry it appended (the rightmost not yet read) names the hop before
 * it. The first hop that is not trusted is the client; everything left of
 * it was written by the client and may be forged. Running out of entries
 * leaves the leftmost one; an entry that is not an address stops the walk
 * at the last hop that was. Entries may carry a port (`1.2.3.4:5678`,
 * `[2001:db8::1]:443`), as some load balancers add one.
 *
 * `trustedProxies`: addresses and CIDR ranges, IPv4 or IPv6; an IPv4 range
 * also matches the IPv4-mapped IPv6 form a dual-stack socket reports.
 * Throws if an entry is not one (the configuration has checked them).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | null, trustedProxies: string[]): string {
  const socketPeer = socketAddress === undefined ? undefined : parseIp(socketAddress);
  if (!socketPeer) return unknownClient;
  let isTrusted = matchers.get(trustedProxies);
  if (!isTrusted) {
    isTrusted = ipRangeMatcher(trustedProxies);
    matchers.set(trustedProxies, isTrusted);
  }

  let client = socketPeer;
  const entries = forwardedFor?.split(",") ?? [];
  for (let i = entries.length - 1; i >= 0 && isTrusted(client); i--) {
    const previousHop = parseForwardedEntry(entries[i]!.trim());
    if (!previousHop) break;
    client = previousHop;
  }
  return formatIp(client);
}

/**
 * For the rate limit plugin's `clientAddressOf`: the socket's peer from
 * Bun (`server.requestIP`), then `clientAddress`.
 */
export function clientAddressOfRequest(trustedProxies: string[]): (request: Request, server: Server | null) => string {
  return (request, server) => clientAddress(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), trustedProxies);
}

function parseForwardedEntry(entry: string): IpAddress | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return parseIp(bracketed[1]!);
  const withPort = /^([\d.]+):\d{1,5}$/.exec(entry);
  return parseIp(withPort ? withPort[1]! : entry);
}
