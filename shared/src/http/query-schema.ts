import { t, type TSchema } from "elysia";

/** TypeBox's mark of an optional property (`t.Optional`), a registered symbol. */
const optionalKind = Symbol.for("TypeBox.Optional");

type Options = Record<string, unknown>;

/**
 * A route's query schema, `t.Object(properties)`, whose numbers and
 * true-or-false parameters each fail naming themselves and what they take:
 * "page_size must be a whole number from 1 to 100". Elysia reads a query's
 * numbers apart from the rest of it, so one out of its range failed naming
 * no parameter ("invalid property: expected integer to be less or equal to
 * 100"), and a word where a number goes failed with "expected union value".
 *
 * The words are the schema's `error`, which Elysia answers with (read by
 * describeValidation); a function, so the OpenAPI document leaves it out.
 * Elysia's `t.Integer`, `t.Number` and `t.Boolean` make, when called, the
 * check that fails apart from the object, from the options they are given:
 * such a parameter is made again here, with its options and the words. A
 * string parameter fails naming itself as it is.
 */
export function querySchema<P extends Record<string, TSchema>>(properties: P) {
  const worded = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, withWords(name, schema)]));
  return t.Object(worded as P);
}

function withWords(name: string, schema: TSchema): TSchema {
  // Elysia's number or boolean for a query: a union of the text and the value, whose own string keys are the options
  // it was made with (its symbols are TypeBox's marks of the union, which the new one must not inherit).
  const { anyOf, ...options } = Object.fromEntries(Object.entries(schema)) as { anyOf?: Array<{ type?: string }> } & Options;
  const type = anyOf?.find((member) => member.type === "integer" || member.type === "number" || member.type === "boolean")?.type;
  if (type === undefined) return schema;
  const error = () => `${name} must be ${whatItTakes(type, options)}`;
  const remade = type === "integer" ? t.Integer({ ...options, error }) : type === "number" ? t.Number({ ...options, error }) : t.Boolean({ ...options, error });
  return optionalKind in schema ? t.Optional(remade) : remade;
}

function whatItTakes(type: string, { minimum, maximum }: Options): string {
  if (type === "boolean") return "true or false";
  const kind = type === "integer" ? "a whole number" : "a number";
  if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `${kind} of at least ${minimum}`;
  if (maximum !== undefined) return `${kind} of at most ${maximum}`;
  return kind;
}
