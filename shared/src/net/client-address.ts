import type { Server } from "elysia/universal";
import { formatIp, parseIp, type IpAddress } from "./ip-address.ts";
import { inAnyIpRange, type IpRange } from "./ip-range.ts";

/** TRUSTED_PROXIES when unset, in every service: the machine itself (a proxy on the same host, `bun run start`'s own gateway). */
export const defaultTrustedProxies = "127.0.0.1/8,::1/128";

/** The client address when the socket's peer is not known (a request handed to `app.handle` in a test, a Unix socket). */
export const unknownClient = "unknown";

/** Who sent a request, as far as it can be known. */
export interface Client {
  /** Canonical form: `1.2.3.4`, `2001:db8::1`, or `unknown`. */
  address: string;
  /**
   * The socket's peer is a trusted proxy: the X-Forwarded-* headers it sent
   * describe the original request. False for everyone else, whose such
   * headers are their own inventions.
   */
  viaTrustedProxy: boolean;
}

/**
 * The client behind a request.
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
 * `trustedProxies`: parsed by `parseIpRangeList` at start; an IPv4 range also
 * matches the IPv4-mapped IPv6 form a dual-stack socket reports.
 */
export function clientOf(socketAddress: string | undefined, forwardedFor: string | null, trustedProxies: readonly IpRange[]): Client {
  const socketPeer = socketAddress === undefined ? undefined : parseIp(socketAddress);
  if (!socketPeer) return { address: unknownClient, viaTrustedProxy: false };
  const viaTrustedProxy = inAnyIpRange(socketPeer, trustedProxies);

  let client = socketPeer;
  const entries = forwardedFor?.split(",") ?? [];
  for (let i = entries.length - 1; i >= 0 && inAnyIpRange(client, trustedProxies); i--) {
    const previousHop = parseForwardedEntry(entries[i]!.trim());
    if (!previousHop) break;
    client = previousHop;
  }
  return { address: formatIp(client), viaTrustedProxy };
}

/** The client's address alone; see `clientOf`. */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | null, trustedProxies: readonly IpRange[]): string {
  return clientOf(socketAddress, forwardedFor, trustedProxies).address;
}

/** `clientOf` for a request Bun serves: the socket's peer from `server.requestIP`. */
export function clientOfRequest(trustedProxies: readonly IpRange[]): (request: Request, server: Server | null) => Client {
  return (request, server) => clientOf(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), trustedProxies);
}

function parseForwardedEntry(entry: string): IpAddress | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return parseIp(bracketed[1]!);
  const withPort = /^([\d.]+):\d{1,5}$/.exec(entry);
  return parseIp(withPort ? withPort[1]! : entry);
}
