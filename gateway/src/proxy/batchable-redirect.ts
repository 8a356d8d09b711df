import { maxBatchHostLength, shortCodeCharacters, type RedirectBatchItem } from "@linkgeo/shared";
import { forwardedHost } from "./forwarded-headers.ts";

/** One plain path segment, with or without its trailing slash: a link's code as the batch carries it. */
const plainCode = new RegExp(`^/(${shortCodeCharacters})/?$`);

/**
 * The batch item for a redirect the batch may carry, or undefined for one
 * that goes by the per-request proxy: only a GET of one plain segment, with
 * no body, is batched. HEAD, an escaped or dotted segment and anything else
 * unusual take the proxy, whose answer is the shortener's own, byte for byte.
 */
export function batchableRedirect(
  request: Request,
  url: URL,
  client: { requestId: string; address: string; viaTrustedProxy: boolean },
): RedirectBatchItem | undefined {
  if (request.method !== "GET") return undefined;
  const headers = request.headers;
  if (headers.has("transfer-encoding") || (headers.get("content-length") ?? "0") !== "0") return undefined;
  const code = plainCode.exec(url.pathname)?.[1];
  if (code === undefined) return undefined;
  // What the proxy would send as X-Forwarded-Host: the link's domain is the host's. One longer than a batch
  // item may carry goes by the proxy, rather than fail the batch it would join.
  const host = forwardedHost(request, url, client.viaTrustedProxy);
  if (host.length > maxBatchHostLength) return undefined;
  return {
    code,
    path: url.pathname,
    requestId: client.requestId,
    // What the proxy would send as X-Forwarded-For: the client as the gateway worked it out.
    forwardedFor: client.address,
    userAgent: headers.get("user-agent"),
    referer: headers.get("referer"),
    accept: headers.get("accept"),
    acceptLanguage: headers.get("accept-language"),
    query: url.search.slice(1),
    host,
  };
}
