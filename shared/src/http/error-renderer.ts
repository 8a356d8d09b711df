import { Elysia, ValidationError } from "elysia";
import { errorBody, type ErrorBody } from "./error-body.ts";
import { ClientClosedRequest, HttpError } from "./http-error.ts";
import { describeError, type Logger } from "../core/logger.ts";
import { requestIdOf } from "./request-context.ts";
import { describeValidation } from "./schema-failure.ts";

export interface ErrorRendererOptions {
  log: Logger;
  /** The geocoder wraps errors in its envelope; the other services send the body as is. */
  wrap?: (body: ErrorBody) => unknown;
  /** Turns a dependency's own error (a refused database connection) into one clients may see. */
  translate?: (error: unknown) => HttpError | undefined;
  /**
   * Given the request and the JSON answer, the answer to send instead: the
   * gateway's pages for a person's browser (webapp/src/people-pages.ts).
   * Absent: the JSON answer.
   */
  present?: (request: Request, answer: Response) => Response;
}

/**
 * The one place that turns a thrown error into the API's error body (docs/api.md: "Errors").
 * HttpError keeps its status and code; schema and parse failures are 400
 * `invalid_request`; an unknown route is 404 `not_found`; anything else is
 * logged once with the request id and answered with a bare 500.
 */
export function errorRenderer(options: ErrorRendererOptions) {
  const respond = errorResponder(options);
  return new Elysia({ name: "error-renderer" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    // A client that hung up while its request was being read or answered is no failure of ours: 499, never an
    // "unhandled error" (Bun closes the connection itself, a 413 for a body it will not read, say, and our reading then aborts).
    const seen = request.signal.aborted && isAbort(error, request.signal) ? ClientClosedRequest.gone() : error;
    const json = respond(seen, { requestId: requestIdOf(request), kind: code, headers: set.headers as Record<string, string> });
    const response = options.present ? options.present(request, json) : json;
    // After an error, the metrics and the access log (onAfterResponse) see `set`, not this Response:
    // without this they reported Elysia's own status (200 for an unmatched route, 422 for a 400).
    set.status = response.status;
    return response;
  });
}

/** What the error renderer knows of a failed request besides the error itself. */
/** Whether `error` is the abort of `signal` (its reason, or a DOM AbortError it caused). */
function isAbort(error: unknown, signal: AbortSignal): boolean {
  return error === signal.reason || (error instanceof Error && error.name === "AbortError");
}

export interface FailedRequest {
  requestId: string;
  /** Elysia's name for the failure ("VALIDATION", "PARSE", "NOT_FOUND", …); absent outside Elysia. */
  kind?: string | number;
  /** Headers already set for the answer (Retry-After, say). */
  headers?: Record<string, string>;
}

/**
 * The renderer as a function, for a route that answers several requests in
 * one (the shortener's redirect batch): each item's error becomes exactly the
 * Response the plugin would have sent for it alone.
 */
export function errorResponder(options: ErrorRendererOptions) {
  const wrap = options.wrap ?? ((body: ErrorBody) => body);

  const respond = (failed: FailedRequest, status: number, body: ErrorBody, headers: Record<string, unknown> = {}) =>
    new Response(JSON.stringify(wrap(body)), {
      status,
      headers: { ...(headers as Record<string, string>), "content-type": "application/json; charset=utf-8", "x-request-id": failed.requestId },
    });

  return (thrown: unknown, failed: FailedRequest): Response => {
    const { kind } = failed;
    // Elysia wraps whatever a body parser throws in a ParseError; ours are HttpErrors.
    const unwrapped = kind === "PARSE" && thrown instanceof Error && thrown.cause instanceof HttpError ? thrown.cause : thrown;
    const error = unwrapped instanceof HttpError ? unwrapped : (options.translate?.(unwrapped) ?? unwrapped);
    if (error !== unwrapped) options.log.warn("dependency failed", { request_id: failed.requestId, error: describeError(unwrapped) });
    if (error instanceof HttpError) {
      return respond(failed, error.status, errorBody(error.code, error.message, error.details), { ...failed.headers, ...error.headers });
    }
    if (kind === "VALIDATION" && error instanceof ValidationError) {
      return respond(failed, 400, errorBody("invalid_request", describeValidation(error)), failed.headers);
    }
    if (kind === "PARSE") {
      return respond(failed, 400, errorBody("invalid_request", "request body could not be parsed"), failed.headers);
    }
    if (kind === "NOT_FOUND") {
      return respond(failed, 404, errorBody("not_found", "no such resource"), failed.headers);
    }
    options.log.error("unhandled error", { request_id: failed.requestId, error: describeError(error) });
    return respond(failed, 500, errorBody("internal_error", "internal server error"), failed.headers);
  };
}
