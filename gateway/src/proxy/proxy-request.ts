import { InvalidRequest, requestUrl } from "@linkgeo/shared";
import type { GatewayRoute } from "../routing/route-table.ts";
import type { UpstreamPool } from "../upstreams/upstream-pool.ts";
import { forwardedRequestHeaders } from "./forwarded-headers.ts";
import { withoutHopByHop } from "./hop-by-hop.ts";
import { onReplicas } from "./replica-attempts.ts";
import type { GatewayObserver } from "../metrics/gateway-metrics.ts";

export interface ProxyOptions {
  pool: UpstreamPool;
  /** Which service `pool` is: it gets only the credentials it reads. */
  upstream: GatewayRoute["upstream"];
  /** The request body, already read within the size limit, or an import's, streamed (see requestBody). */
  body: ArrayBuffer | ReadableStream<Uint8Array> | null;
  clientAddress: string;
  /** The socket's peer is a trusted proxy (its X-Forwarded-Proto and -Host are believed). */
  viaTrustedProxy: boolean;
  requestId: string;
  /** Until the upstream's response head arrives, retries included. */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Told of each attempt and retry (the metrics). */
  observer?: Pick<GatewayObserver, "upstreamAnswered" | "upstreamFailed" | "retried">;
}

/** Methods whose repetition is harmless (the rule), so a dropped attempt may be retried. */
const retriableAfterReaching = new Set(["GET", "HEAD", "PUT", "DELETE"]);

/**
 * Sends `request` to a replica of `options.pool` and streams its answer back.
 * A replica that refuses or drops the connection is ejected and the request
 * retried once on another, when that cannot run it twice: a refused
 * connection never reached the service, and GET/HEAD/PUT/DELETE are
 * idempotent; a POST that an upstream may have received is never sent again.
 *
 * The upstream request ends when the client's connection does: a redirect
 * whose client has gone is then not counted unless its visit was already
 * being written (the shortener's VisitCounter), and no upstream keeps
 * working for nobody.
 */
export async function proxyRequest(request: Request, options: ProxyOptions): Promise<Response> {
  const send = options.fetch ?? fetch;
  const { pool } = options;
  const target = requestUrl(request);
  // The app's requestTarget() has refused these already; a direct caller gets the same answer.
  if (!target) throw InvalidRequest.because("the request needs a path and a valid Host header");
  const method = request.method.toUpperCase();
  const headers = forwardedRequestHeaders(request, { ...options, url: target });
  const body = method === "GET" || method === "HEAD" ? null : options.body;

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const clientOrDeadline = AbortSignal.any([request.signal, deadline.signal]);
  // A streamed body can be sent once: its bytes are gone after the first try.
  const attempts = body instanceof ReadableStream ? 1 : 2;
  try {
    return await onReplicas(
      {
        pool,
        attempts,
        deadline: deadline.signal,
        timeoutMs: options.timeoutMs,
        client: request.signal,
        // A refused connection never reached the service; after reaching it, only an idempotent method goes again.
        retriable: (failure) => failure === "refused" || retriableAfterReaching.has(method),
        observer: options.observer,
      },
      async (replica) => {
        const startedAt = performance.now();
        const upstream = await send(upstreamUrl(replica, target), {
          method,
          headers,
          body,
          // The shortener's 302 is the answer the client wants, not a hop to follow.
          redirect: "manual",
          // In Bun this means "reuse a pooled connection" (its default; false
          // opens one per request), not the browser's "outlive the page".
          keepalive: true,
          // The client gets the upstream's bytes and Content-Encoding/Length as
          // sent; decoding here would leave those headers describing other bytes.
          decompress: false,
          // A streamed body goes out as it arrives (the fetch standard's name for it).
          ...(body instanceof ReadableStream ? { duplex: "half" as const } : {}),
          signal: clientOrDeadline,
        });
        options.observer?.upstreamAnswered(pool.name, replica, upstream.status, (performance.now() - startedAt) / 1000);
        return relay(upstream, options.requestId);
      },
    );
  } finally {
    // Only the wait for the response head is bounded: a large body streams
    // for as long as the client keeps reading it.
    clearTimeout(timer);
  }
}

/**
 * The replica's URL with the client's path and query. Built with the URL
 * API, never by joining strings: a joined `replica + path` whose path starts
 * with `@host` or `//host` names another server. The origin is checked all
 * the same, so no client can ever steer the gateway elsewhere.
 */
export function upstreamUrl(replica: string, target: URL): URL {
  const url = new URL(replica);
  const origin = url.origin;
  url.pathname = target.pathname;
  url.search = target.search;
  if (url.origin !== origin) throw InvalidRequest.because("the request target is not a path");
  return url;
}

function relay(upstream: Response, requestId: string): Response {
  const headers = withoutHopByHop(upstream.headers);
  headers.set("x-request-id", requestId);
  // The upstream's body stream is handed on, not read: bytes reach the client as they arrive.
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers });
}
