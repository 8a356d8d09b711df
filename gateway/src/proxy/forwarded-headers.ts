import { withoutHopByHop } from "./hop-by-hop.ts";

export interface ForwardingFacts {
  /** The client's address as the gateway determined it (trusted proxies considered). */
  clientAddress: string;
  requestId: string;
}

/**
 * The headers an upstream receives: the client's, minus hop-by-hop ones, plus
 * where the request came from. The services build absolute links from
 * X-Forwarded-Proto and X-Forwarded-Host, and log X-Request-Id, so one id
 * follows a request through the gateway and the service.
 */
export function forwardedRequestHeaders(request: Request, facts: ForwardingFacts): Headers {
  const incoming = request.headers;
  const headers = withoutHopByHop(incoming);

  const chain = incoming.get("x-forwarded-for")?.trim();
  headers.set("x-forwarded-for", chain ? `${chain}, ${facts.clientAddress}` : facts.clientAddress);

  // An incoming value was set by a proxy in front of the gateway (TLS is
  // usually ended there); without one the gateway is the edge.
  const url = new URL(request.url);
  if (!incoming.has("x-forwarded-proto")) headers.set("x-forwarded-proto", url.protocol.slice(0, -1));
  if (!incoming.has("x-forwarded-host")) headers.set("x-forwarded-host", incoming.get("host") ?? url.host);

  headers.set("x-request-id", facts.requestId);

  // The body is sent from a buffer: fetch frames it and sets its own length.
  headers.delete("content-length");

  // Bun's fetch asks for gzip/br/zstd when the caller names no encoding, and
  // the proxy hands bytes to the client undecoded; so a client that asked for
  // nothing must get nothing compressed.
  if (!incoming.has("accept-encoding")) headers.set("accept-encoding", "identity");
  return headers;
}
