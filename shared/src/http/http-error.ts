import type { ErrorCode } from "../wire/error-codes.ts";

export interface HttpErrorOptions {
  headers?: Record<string, string>;
  /** More fields for the `error` object, e.g. each provider's reason. */
  details?: Record<string, unknown>;
  /** What went wrong underneath (a driver's error): logged, never sent. */
  cause?: unknown;
}

/**
 * An error a client may see: it carries the HTTP status and the API's
 * stable `error.code`, one of `errorCodes`. Each subclass fixes its status
 * and code in a private constructor and is made by named factories
 * (`LinkNotFound.for(code)`); the error renderer turns it into the body.
 */
export abstract class HttpError extends Error {
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  protected constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options: HttpErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

/** 400 `invalid_request`: the request is out of shape; the message says how. */
export class InvalidRequest extends HttpError {
  private constructor(message: string) {
    super(400, "invalid_request", message);
  }

  static because(message: string): InvalidRequest {
    return new InvalidRequest(message);
  }
}

/** 401 `unauthorized`, with `WWW-Authenticate: Bearer`. */
export class Unauthorized extends HttpError {
  private constructor(message: string) {
    super(401, "unauthorized", message, { headers: { "www-authenticate": "Bearer" } });
  }

  static because(message: string): Unauthorized {
    return new Unauthorized(message);
  }
}

/** 403 `forbidden`: the credentials are good but may not do this. */
export class Forbidden extends HttpError {
  private constructor(message: string) {
    super(403, "forbidden", message);
  }

  static because(message: string): Forbidden {
    return new Forbidden(message);
  }
}

/** 405 `method_not_allowed`: a method no route answers, such as CONNECT or TRACE. */
export class MethodNotAllowed extends HttpError {
  private constructor(allowed: readonly string[]) {
    super(405, "method_not_allowed", "this method is not allowed here", { headers: { allow: allowed.join(", ") } });
  }

  static allowing(allowed: readonly string[]): MethodNotAllowed {
    return new MethodNotAllowed(allowed);
  }
}

/** 413 `payload_too_large`. */
export class PayloadTooLarge extends HttpError {
  private constructor(limitBytes: number) {
    super(413, "payload_too_large", `request body is larger than ${limitBytes} bytes`);
  }

  static over(limitBytes: number): PayloadTooLarge {
    return new PayloadTooLarge(limitBytes);
  }
}

/** 415 `unsupported_media_type`. */
export class UnsupportedMediaType extends HttpError {
  private constructor(message: string) {
    super(415, "unsupported_media_type", message);
  }

  static notJson(): UnsupportedMediaType {
    return new UnsupportedMediaType("request body must be application/json");
  }

  /** The body is not what the route reads; `message` says what it must be. */
  static because(message: string): UnsupportedMediaType {
    return new UnsupportedMediaType(message);
  }
}

/** 404 `not_found` for a path no route serves. */
export class RouteNotFound extends HttpError {
  private constructor() {
    super(404, "not_found", "no such resource");
  }

  static here(): RouteNotFound {
    return new RouteNotFound();
  }
}

/** 503 `service_unavailable` with `Retry-After`: a dependency the answer needs (the database) is down. */
export class ServiceUnavailable extends HttpError {
  private constructor(message: string, cause: unknown) {
    super(503, "service_unavailable", message, { headers: { "retry-after": "1" }, cause });
  }

  /** `what` ("the database") failed or is down; `cause` is its own error, for the log. */
  static dependency(what: string, cause?: unknown): ServiceUnavailable {
    return new ServiceUnavailable(`${what} is unavailable, try again shortly`, cause);
  }

  /** So many requests already wait on `what` that one more would only pile up in memory. */
  static backlogFull(what: string): ServiceUnavailable {
    return new ServiceUnavailable(`${what} is unavailable, try again shortly`, new Error(`too many requests are waiting on ${what}`));
  }
}

/**
 * 499 `client_closed_request` (nginx's status for it): the client's connection
 * closed before its answer was ready, so nothing is sent and, for a redirect,
 * nothing is counted. No client reads it; metrics and the access log do.
 */
export class ClientClosedRequest extends HttpError {
  private constructor() {
    super(499, "client_closed_request", "the client closed its connection before the answer was ready");
  }

  static gone(): ClientClosedRequest {
    return new ClientClosedRequest();
  }
}
