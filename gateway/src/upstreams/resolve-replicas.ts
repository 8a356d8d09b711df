import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** The addresses a host name resolves to right now; rejects when it does not resolve. */
export type Resolver = (hostname: string) => Promise<string[]>;

/**
 * getaddrinfo through node:dns, as any other program on the host would
 * resolve the name (Docker's embedded DNS, /etc/hosts). Bun's 30-second DNS
 * cache serves fetch and sockets, not this call, so a refresh sees a
 * `compose --scale` as soon as the DNS server does.
 */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true });
  return answers.map((answer) => answer.address);
};

/** How one configured base URL becomes replicas. */
export type UpstreamTarget =
  /** An IP literal, `localhost`, or an https name: one replica, used as given. */
  | { kind: "fixed"; origin: string }
  /** A name whose every address is a replica on the same scheme and port. */
  | { kind: "name"; protocol: string; hostname: string; port: string };

export function upstreamTarget(baseUrl: string): UpstreamTarget {
  const url = new URL(baseUrl);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // An https replica reached by address would fail certificate checks for
  // the name, so a TLS upstream is one replica and its DNS balances it.
  if (isIP(hostname) !== 0 || hostname === "localhost" || url.protocol === "https:") {
    return { kind: "fixed", origin: url.origin };
  }
  return { kind: "name", protocol: url.protocol, hostname, port: url.port || "80" };
}

/** `http://10.0.0.7:3001`, or `http://[fd00::7]:3001` for IPv6. */
export function replicaOrigin(target: { protocol: string; port: string }, address: string): string {
  const host = isIP(address) === 6 ? `[${address}]` : address;
  return `${target.protocol}//${host}:${target.port}`;
}
