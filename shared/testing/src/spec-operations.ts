const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation an OpenAPI document describes, as "GET /path", sorted: what its API page should list. */
export function specOperations(spec: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(spec.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => methods.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

interface JsonBodySpec {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: SchemaOrRef }> } }>>;
  components?: { schemas?: Record<string, SchemaOrRef> };
}
type SchemaOrRef = { $ref?: string; properties?: Record<string, unknown> };

/**
 * Every operation of an OpenAPI document that takes a JSON body: its method,
 * its path with each parameter filled in with `parameter`, and the top-level
 * fields of its body's schema (a `$ref` to the document's own schemas followed).
 */
export function jsonBodyOperations(spec: JsonBodySpec, parameter = "abc1234"): Array<{ method: string; path: string; fields: string[] }> {
  const resolved = (schema: SchemaOrRef | undefined) => (schema?.$ref ? spec.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")] : schema);
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, operation]) => methods.includes(method) && operation.requestBody?.content?.["application/json"])
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, parameter),
        fields: Object.keys(resolved(operation.requestBody!.content!["application/json"]!.schema)?.properties ?? {}),
      })),
  );
}

/**
 * `value` with every `$ref` to the document's own schemas replaced by the
 * schema it names, all the way down: a part of an OpenAPI document as if
 * each schema were written out where it is used.
 */
export function inlineRefs(spec: { components?: { schemas?: Record<string, unknown> } }, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(spec, item));
  if (typeof value !== "object" || value === null) return value;
  const { $ref } = value as { $ref?: unknown };
  if (typeof $ref === "string" && $ref.startsWith("#/components/schemas/")) {
    const name = $ref.slice("#/components/schemas/".length);
    if (!spec.components?.schemas || !Object.hasOwn(spec.components.schemas, name)) throw new Error(`${$ref} names no schema of the document`);
    return inlineRefs(spec, spec.components.schemas[name]);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlineRefs(spec, item)]));
}

/** JSON text of arrays and objects nested `levels` deep, in turns: `{"a":[{"a":[…1…]}]}`. */
export function nestedJson(levels: number): string {
  const opening = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? '{"a":' : "[")).join("");
  const closing = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? "}" : "]"))
    .reverse()
    .join("");
  return `${opening}1${closing}`;
}
