/**
 * The part of the API document the browser's types are made from: for each
 * operation its parameters, its request body and its successful (2xx)
 * answers. An error answer is read by api.ts into an ApiError whatever its
 * status, so typing each one would only make the file five times longer.
 *
 * Two quirks of the document Elysia writes are put right here, for the
 * types only (the served document keeps them):
 * - `t.Integer` and `t.Numeric` are written as "a string in integer format,
 *   or an integer", since they also read query strings; in JSON the services
 *   answer numbers and a client sends numbers, so the types say `number`.
 * - a 204's `t.Void()` is written as `content: { type: "void" }`, which is no
 *   media type: a 204 has no body.
 */
import { httpMethods, isRecord, type OpenApiDocument, type PathItem } from "../../gateway/src/docs/openapi-document.ts";

export function browserDocument(document: OpenApiDocument): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const kept: PathItem = {};
    for (const method of httpMethods) {
      const operation = item[method];
      if (isRecord(operation)) kept[method] = browserOperation(operation);
    }
    paths[path] = kept;
  }
  return {
    openapi: document.openapi,
    info: { title: document.info.title, version: document.info.version },
    paths: withPlainIntegers(paths) as Record<string, PathItem>,
    components: withPlainIntegers(document.components ?? {}) as OpenApiDocument["components"],
  };
}

/** The fields openapi-typescript reads for types and doc comments; tags, security and the like are left out. */
const keptFields = ["operationId", "summary", "description", "parameters", "requestBody"] as const;

function browserOperation(operation: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of keptFields) if (operation[field] !== undefined && operation[field] !== null) kept[field] = operation[field];
  const responses = isRecord(operation.responses) ? operation.responses : {};
  kept.responses = Object.fromEntries(
    Object.entries(responses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .map(([status, response]) => [status, status === "204" && isRecord(response) ? { description: response.description ?? "No content" } : response]),
  );
  return kept;
}

/** Elysia's integer: `anyOf: [{type: "string", format: "integer"}, {type: "integer"}]`, with its other keywords beside. */
function isElysiaInteger(schema: Record<string, unknown>): boolean {
  const choices = schema.anyOf;
  if (!Array.isArray(choices) || choices.length !== 2) return false;
  const [text, number] = choices;
  return isRecord(text) && isRecord(number) && text.type === "string" && text.format === "integer" && number.type === "integer";
}

/** A deep copy with every Elysia integer a plain `{type: "integer"}` (keeping its description, bounds and the like). */
function withPlainIntegers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPlainIntegers);
  if (!isRecord(value)) return value;
  if (isElysiaInteger(value)) {
    const { anyOf, ...rest } = value;
    return withPlainIntegers({ ...rest, ...(anyOf as [unknown, Record<string, unknown>])[1], type: "integer" });
  }
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withPlainIntegers(entry)]));
}
