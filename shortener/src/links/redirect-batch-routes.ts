import {
  answersBody,
  errorResponder,
  internalSecretHeader,
  isRedirectBatch,
  maxBatchBytes,
  parseBatchItems,
  readBodyLimited,
  redirectBatchPath,
  secretsMatch,
  Unauthorized,
  UnsupportedMediaType,
  writeAccessLine,
  type HttpError,
  type Logger,
  type RedirectBatchItem,
} from "@linkgeo/shared";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { RedirectAnswer, RedirectRequest } from "./redirect-responder.ts";
import { requestHostName } from "../domains/domain-host.ts";

export interface RedirectBatchRoutesDeps {
  /** The one redirect answer (redirectResponder): a batched redirect is the same bytes as a lone one. */
  respond: (request: RedirectRequest) => Promise<RedirectAnswer>;
  /** INTERNAL_SECRET: only a caller that sends it may use the route. */
  secret: string;
  /** The socket's peer address: the gateway, trusted (TRUSTED_PROXIES) for the items' X-Forwarded-For as for a lone redirect. */
  peerOf: (request: Request, server: Server | null) => string | undefined;
  log: Logger;
  /** ACCESS_LOG: each item gets its own line, as if it had come alone, with the client's request id. */
  accessLog: boolean;
  /** As the service's error renderer: a failed item is rendered as it would be alone. */
  translate?: (error: unknown) => HttpError | undefined;
}

/**
 * `POST /internal/redirects`: the gateway's batch of redirects (see
 * shared/src/protocol/redirect-batch.ts). Every item is counted through the same
 * VisitCounter as a lone redirect, so the whole batch joins one group commit,
 * and each answer is what that redirect alone would have received: the
 * redirect, the not-found page or JSON, or the error (503 when the database
 * is down). Hidden from /docs: it is not part of the public API.
 */
export function redirectBatchRoutes(deps: RedirectBatchRoutesDeps) {
  const renderError = errorResponder({ log: deps.log, translate: deps.translate });

  // `gateway` is the batch's connection: the gateway closes it when it gives up (its timeout), and the items not yet written are not counted.
  const answerItem = async (item: RedirectBatchItem, peer: string | undefined, startedAt: number, gateway: AbortSignal): Promise<RedirectAnswer> => {
    const visitor = { peer, forwardedFor: item.forwardedFor, userAgent: item.userAgent, referer: item.referer };
    let answer: RedirectAnswer;
    try {
      answer = await deps.respond({
        code: item.code,
        // The gateway's account of the host asked, as it sends X-Forwarded-Host: the caller showed the secret.
        host: item.host,
        counted: true,
        visitor,
        accept: item.accept,
        acceptLanguage: item.acceptLanguage ?? null,
        query: item.query ?? "",
        client: gateway,
      });
    } catch (error) {
      const response = renderError(error, { requestId: item.requestId });
      answer = { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
    }
    answer.headers["x-request-id"] = item.requestId;
    if (deps.accessLog) {
      const host = requestHostName(item.host);
      writeAccessLine(deps.log, { requestId: item.requestId, method: "GET", path: item.path, status: answer.status, startedAt, host });
    }
    return answer;
  };

  const refuseOutsiders = (request: Request) => {
    if (!secretsMatch(request.headers.get(internalSecretHeader), deps.secret)) throw Unauthorized.because("this route is for the gateway");
  };

  return new Elysia().post(
    redirectBatchPath,
    async ({ request, server, body }) => {
      refuseOutsiders(request);
      // A body of another type was read (or refused) by the services' JSON parser instead.
      if (!isRedirectBatch(request) || typeof body !== "string") throw UnsupportedMediaType.notJson();
      const items = parseBatchItems(body);
      const peer = deps.peerOf(request, server);
      const startedAt = performance.now();
      const answers = await Promise.all(items.map((item) => answerItem(item, peer, startedAt, request.signal)));
      return new Response(answersBody(answers), { headers: { "content-type": "application/json; charset=utf-8" } });
    },
    {
      // The services' JSON parser leaves a batch alone (isRedirectBatch): it is read here, under
      // its own limit, and only once the caller has shown the secret.
      parse: async ({ request }) => {
        refuseOutsiders(request);
        const bytes = await readBodyLimited(request, maxBatchBytes);
        return bytes ? new TextDecoder().decode(bytes) : "";
      },
      detail: { hide: true },
    },
  );
}
