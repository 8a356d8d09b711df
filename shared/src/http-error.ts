/**
 * An error a client may see: it carries the HTTP status and the API's
 * stable `error.code`. Domain errors extend it with named constructors
 * (`LinkNotFound.for(code)`); the error renderer turns it into the body.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields for the `error` object, e.g. each provider's reason. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidRequest extends HttpError {
  constructor(message: string) {
    super(400, "invalid_request", message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = "missing or invalid credentials") {
    super(401, "unauthorized", message, { "www-authenticate": "Bearer" });
  }
}

export class Forbidden extends HttpError {
  constructor(message = "these credentials may not do this") {
    super(403, "forbidden", message);
  }
}

/** A method no route answers, such as CONNECT or TRACE. */
export class MethodNotAllowed extends HttpError {
  constructor(allowed: readonly string[]) {
    super(405, "method_not_allowed", "this method is not allowed here", { allow: allowed.join(", ") });
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(limitBytes: number) {
    super(413, "payload_too_large", `request body is larger than ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor() {
    super(415, "unsupported_media_type", "request body must be application/json");
  }
}

export class RouteNotFound extends HttpError {
  constructor() {
    super(404, "not_found", "no such resource");
  }
}

/** A dependency the answer needs (the database) is down: retry later. */
export class ServiceUnavailable extends HttpError {
  constructor(what: string) {
    super(503, "service_unavailable", `${what} is unavailable, try again shortly`, { "retry-after": "1" });
  }
}
