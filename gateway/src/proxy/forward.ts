import { requestIdOf, requestUrl, type Client } from "@linkgeo/shared";
import type { RequestBody } from "../admission/request-body.ts";
import type { GatewayObserver } from "../metrics/gateway-metrics.ts";
import type { GatewayRoute } from "../routing/route-table.ts";
import type { UpstreamPool } from "../upstreams/upstream-pool.ts";
import { batchableRedirect } from "./batchable-redirect.ts";
import { clientStillThere } from "./client-still-there.ts";
import { proxyRequest } from "./proxy-request.ts";
import type { RedirectBatcher } from "./redirect-batcher.ts";

export interface ForwardingOptions {
  upstreams: Record<GatewayRoute["upstream"], UpstreamPool>;
  /** Redirects to the shortener in batches (INTERNAL_SECRET set); absent: each is proxied on its own. */
  redirectBatches?: RedirectBatcher;
  /** Until the upstream's answer head arrives, retries included. */
  timeoutMs: number;
  fetch?: typeof fetch;
  observer?: GatewayObserver;
}

/**
 * Forwarding, the second step of a request with a route (app.ts): an
 * admitted request to its upstream, and the upstream's answer back as it
 * is. A redirect a batch may carry goes in the shortener's next batch when
 * the gateway batches; every other request, and a redirect whose shortener
 * takes no batches, goes by the per-request proxy. Errors are thrown: 502
 * and 504 when no replica answers in time, 499 when the client left.
 */
export function forwarding(options: ForwardingOptions) {
  return async function forward(request: Request, route: GatewayRoute, client: Client, body: RequestBody): Promise<Response> {
    const requestId = requestIdOf(request);
    const url = requestUrl(request);
    const redirect = route.limit === "redirect";
    const batcher = redirect ? options.redirectBatches : undefined;
    const batched =
      batcher && url ? batchableRedirect(request, url, { requestId, address: client.address, viaTrustedProxy: client.viaTrustedProxy }) : undefined;
    // A shortener that does not take batches leaves the redirect to the proxy (undefined).
    const batchAnswer = batcher && batched ? await batcher.redirect(batched, request.signal) : undefined;
    if (batchAnswer) return batchAnswer;
    // A counted redirect leaves only once Bun has had its turn to close a pipelined connection.
    if (redirect && request.method === "GET") await clientStillThere(request.signal);
    return proxyRequest(request, {
      pool: options.upstreams[route.upstream],
      upstream: route.upstream,
      body,
      clientAddress: client.address,
      viaTrustedProxy: client.viaTrustedProxy,
      requestId,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      observer: options.observer,
    });
  };
}
