import { defaultImportMaxBytes, errorBody, HttpError, maxBodyBytes, requestIdOf } from "@linkgeo/shared";
import { proxyRequest } from "../../src/proxy/proxy-request.ts";
import { requestBody } from "../../src/admission/request-body.ts";
import type { UpstreamPool } from "../../src/upstreams/upstream-pool.ts";

export interface TestGateway extends AsyncDisposable {
  url: (path: string) => string;
  stop(): Promise<void>;
}

/**
 * The proxy behind a real socket, as the app will use it (body read within
 * the limit or, an import's, streamed; errors rendered as the API's error body), without the app's
 * routing or rate limits, so client-side effects (streaming, compression,
 * redirects) are seen as a client sees them.
 */
export function startTestGateway(pool: UpstreamPool, options: { timeoutMs?: number; importMaxBytes?: number } = {}): TestGateway {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request, server) {
      try {
        return await proxyRequest(request, {
          pool,
          upstream: "shortener",
          body: await requestBody(request, { limitBytes: maxBodyBytes, importMaxBytes: options.importMaxBytes ?? defaultImportMaxBytes }),
          clientAddress: server.requestIP(request)?.address ?? "unknown",
          viaTrustedProxy: false,
          requestId: requestIdOf(request),
          timeoutMs: options.timeoutMs ?? 5_000,
        });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return Response.json(errorBody(error.code, error.message), { status: error.status });
      }
    },
  });
  const stop = () => server.stop(true);
  return { url: (path) => `http://127.0.0.1:${server.port}${path}`, stop, [Symbol.asyncDispose]: stop };
}
