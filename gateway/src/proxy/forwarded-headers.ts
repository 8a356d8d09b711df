import { forwardedOrigin } from "@linkgeo/shared";
import type { GatewayRoute } from "../routing/route-table.ts";
import { withoutHopByHop } from "./hop-by-hop.ts";
import { withOwnCredentials } from "./upstream-credentials.ts";

export interface ForwardingFacts {
  /** The client's address as the gateway determined it (trusted proxies considered). */
  clientAddress: string;
  /** The socket's peer is a trusted proxy, so its X-Forwarded-Proto and -Host are believed. */
  viaTrustedProxy: boolean;
  /** The request's own URL (origin-form target and Host, checked by requestTarget()). */
  url: URL;
  requestId: string;
  /** Where the request goes: it gets only the credentials it reads (withOwnCredentials). */
  upstream: GatewayRoute["upstream"];
}

// Every header that tells a service where a request came from. The gateway
// writes the ones the services read and drops the rest: a client must not
// put words in the gateway's mouth.
const forwardingHeader = /^(x-forwarded-|x-real-ip$|forwarded$)/;

/**
 * The host a client asked for, as the services are told it (X-Forwarded-Host,
 * a batched redirect's `host`): a trusted proxy's well-formed X-Forwarded-Host,
 * else the request's own. It picks a link's domain, so a client that is not
 * a trusted proxy cannot name another.
 */
export function forwardedHost(request: Request, url: URL, viaTrustedProxy: boolean): string {
  return (viaTrustedProxy ? forwardedOrigin(request.headers).host : undefined) ?? url.host;
}

/**
 * The headers an upstream receives: the client's, minus hop-by-hop ones,
 * minus any forwarding header and minus the credentials it does not read
 * (withOwnCredentials), plus the gateway's own account of where the
 * request came from. The services build absolute links from
 * X-Forwarded-Proto and X-Forwarded-Host and log X-Request-Id, so one id
 * follows a request through the gateway and the service.
 *
 * - X-Forwarded-For is the client's address alone, as the gateway worked it
 *   out (the walk over trusted proxies is done here, once).
 * - X-Forwarded-Proto and -Host come from a trusted proxy in front of the
 *   gateway (TLS is usually ended there) when it sent well-formed ones;
 *   otherwise from the request itself. They are set after hop-by-hop
 *   headers are dropped, so naming them in `Connection` cannot remove them.
 */
export function forwardedRequestHeaders(request: Request, facts: ForwardingFacts): Headers {
  const incoming = request.headers;
  const headers = withOwnCredentials(withoutHopByHop(incoming), facts.upstream);
  for (const name of [...headers.keys()]) if (forwardingHeader.test(name)) headers.delete(name);

  const proxied = facts.viaTrustedProxy ? forwardedOrigin(incoming) : { proto: undefined, host: undefined };
  const proto = proxied.proto ?? facts.url.protocol.slice(0, -1);
  headers.set("x-forwarded-for", facts.clientAddress);
  headers.set("x-forwarded-proto", proto);
  headers.set("x-forwarded-host", forwardedHost(request, facts.url, facts.viaTrustedProxy));
  headers.set("x-request-id", facts.requestId);

  // The body is sent from a buffer: fetch frames it and sets its own length.
  headers.delete("content-length");

  // Bun's fetch asks for gzip/br/zstd when the caller names no encoding, and
  // the proxy hands bytes to the client undecoded; so a client that asked for
  // nothing must get nothing compressed.
  if (!incoming.has("accept-encoding")) headers.set("accept-encoding", "identity");
  return headers;
}
