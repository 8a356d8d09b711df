import type { AnyElysia, ValidationError } from "elysia";

type ValueError = NonNullable<ValidationError["valueError"]>;

/** What marks an object as a TypeBox schema (TypeBox's `Kind`, a registered symbol). */
const typeBoxKind = Symbol.for("TypeBox.Kind");

/** A compiled schema (TypeCompiler.Compile) as far as wording its failure goes. */
export interface CompiledCheck {
  Errors(value: unknown): { First(): ValueError | undefined };
}

/**
 * What a schema failure is answered with (400 invalid_request): "field
 * long_url is required", "query parameter page: expected integer", from the
 * first error alone, or "page_size must be a whole number from 1 to 100"
 * for a query parameter with words of its own (querySchema).
 */
export function describeValidation(error: ValidationError): string {
  // A query parameter's own words (querySchema): a number of the query is checked apart from the rest ("property"), naming nothing.
  if ((error.type === "query" || error.type === "property") && typeof error.customError === "string") return error.customError;
  return describeValueError(error.type, error.valueError, error.value);
}

/**
 * Why a body fails a schema its route checks itself (a bulk create's item,
 * a geocoding job), worded as describeValidation words it. Never through
 * Elysia's ValidationError, whose message prints the whole value (see
 * `terseBodyFailures`): this costs one pass to the first error.
 */
export function describeBodyFailure(check: CompiledCheck, value: unknown): string {
  return describeValueError("body", check.Errors(value).First(), value);
}

function describeValueError(type: string, failure: ValueError | undefined, value: unknown): string {
  const detail = failure && unionFailure(failure);
  if (!detail) return `invalid ${type}`;
  const where = type === "query" ? "query parameter" : type === "params" ? "path parameter" : "field";
  const segments = detail.path.split("/").filter(Boolean);
  const field = segments.join(".");
  if (!field) return `invalid ${type}: ${detail.message.toLowerCase()}`;
  const found = segments.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
  return found === undefined ? `${where} ${field} is required` : `${where} ${field}: ${detail.message.toLowerCase()}`;
}

interface MemberSchema {
  type?: string;
  const?: unknown;
}

/**
 * A union's failure as the member the value was meant for words it: a
 * title of 300 characters fails `string | null` as "expected string length
 * less or equal to 200", not TypeBox's "expected union value". The member
 * is the one of the value's JSON type, when one alone is; a value of none
 * of their types is told the types (`expected string or null`), and a
 * union of constants says which it takes. Any other failure is as it came.
 */
function unionFailure(failure: ValueError): ValueError {
  const members = (failure.schema as { anyOf?: MemberSchema[] }).anyOf;
  if (!members || failure.errors.length !== members.length) return failure;
  if (members.every((member) => "const" in member || member.type === "null")) {
    const taken = members.map((member) => ("const" in member ? JSON.stringify(member.const) : "null")).join(", ");
    return { ...failure, message: `expected one of ${taken}` };
  }
  const meant = members.flatMap((member, index) => (member.type !== undefined && takesJsonType(member.type, failure.value) ? [index] : []));
  const first = meant.length === 1 ? failure.errors[meant[0]!]!.First() : undefined;
  if (first) return unionFailure(first);
  if (meant.length > 0 || members.some((member) => member.type === undefined)) return failure;
  return { ...failure, message: `expected ${[...new Set(members.map((member) => member.type))].join(" or ")}` };
}

/** Whether a schema's `type` is the JSON type of `value` (an integer's schema takes any number: its own check says which). */
function takesJsonType(schemaType: string, value: unknown): boolean {
  if (value === null) return schemaType === "null";
  if (Array.isArray(value)) return schemaType === "array";
  if (typeof value === "number") return schemaType === "number" || schemaType === "integer";
  return schemaType === typeof value;
}

/**
 * Keeps a body that fails its route's schema as cheap to refuse as to read.
 * Elysia's ValidationError puts the whole value into its message, which we
 * never send (describeValidation words the answer from the first error):
 * pretty-printed, with two spaces a level, outside production, and once on
 * one line in it. A 60 KB title of arrays nested 30 deep printed as 4 MB;
 * a failing bulk body of 4 MiB would print as hundreds of MB (seconds of a
 * blocked replica, once Out of memory). A schema node with an `error` of its
 * own is worded with that instead (Elysia's custom validation error), so
 * every node of every route's body schema is given one, not enumerable, so
 * the OpenAPI document does not show it. Called by each service's createApp
 * once its routes are all added; query, path and header schemas are
 * bounded by the URL and header limits, and left as they are.
 */
export function terseBodyFailures<App extends AnyElysia>(app: App): App {
  for (const route of app.routes) {
    for (const node of schemaNodes(route.hooks.body)) {
      if (!Object.hasOwn(node, "error")) Object.defineProperty(node, "error", { value: "the body does not match its schema", enumerable: false });
    }
  }
  return app;
}

/**
 * Every TypeBox schema within `schema` (itself included), each once: the
 * schemas only, not the maps that hold them (a map of properties is read by
 * its names, and "error" would be one).
 */
export function* schemaNodes(schema: unknown, seen = new WeakSet<object>()): Generator<object> {
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return;
  seen.add(schema);
  if (typeBoxKind in schema) yield schema;
  for (const child of Object.values(schema)) yield* schemaNodes(child, seen);
}
