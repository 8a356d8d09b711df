import { t, type Static } from "elysia";
import { TypeCompiler } from "elysia/type-system";
import { acceptableRequestIdPattern } from "../http/request-context.ts";

/**
 * The shapes of the internal redirect batch (redirect-batch.ts), as
 * schemas: both ends hold each other to them, the shortener the items a
 * gateway sends, the gateway the answers a shortener sends back.
 */

const optionalText = t.Union([t.String(), t.Null()]);

/** The longest `host` an item carries: a name (253) and a port, with room; a longer one goes by the proxy. */
export const maxBatchHostLength = 300;

/** One redirect request, as much of it as its answer and its visit depend on. */
export const RedirectBatchItemSchema = t.Object({
  /** The path segment, as the client sent it (the gateway batches only plain ones). */
  code: t.String(),
  /** The client's path (`/<code>` or `/<code>/`), for the shortener's access log. */
  path: t.String(),
  /** The gateway's id for the client request: the shortener logs it and echoes it; a CR LF in it would fail the whole batch's Response. */
  requestId: t.String({ pattern: acceptableRequestIdPattern }),
  /** The client's address as the gateway worked it out: what it sends as X-Forwarded-For. */
  forwardedFor: t.String(),
  userAgent: optionalText,
  referer: optionalText,
  /** Decides between the JSON and the HTML not-found answer. */
  accept: optionalText,
  /** For a link's rules by language. Absent (an older gateway): none sent. */
  acceptLanguage: t.Optional(optionalText),
  /** The client's query string without `?`, for a link with forward_query. Absent (an older gateway): none. */
  query: t.Optional(t.String()),
  /** The host the client asked (what the proxy sends as X-Forwarded-Host): it picks the link's domain. Absent (an older gateway): the default domain. */
  host: t.Optional(t.String({ maxLength: maxBatchHostLength })),
});
export type RedirectBatchItem = Static<typeof RedirectBatchItemSchema>;

/** What to send the client: exactly what the shortener would have sent. */
export const RedirectBatchAnswerSchema = t.Object({
  // t.Number, not t.Integer: Elysia's Integer also takes a string of digits, and an answer's status must be a number.
  status: t.Number({ minimum: 200, maximum: 599, multipleOf: 1 }),
  headers: t.Record(t.String(), t.String()),
  /** The body as text; null when the response had none (a redirect). */
  body: optionalText,
});
export type RedirectBatchAnswer = Static<typeof RedirectBatchAnswerSchema>;

export const redirectBatchItem = TypeCompiler.Compile(RedirectBatchItemSchema);
export const redirectBatchAnswer = TypeCompiler.Compile(RedirectBatchAnswerSchema);
