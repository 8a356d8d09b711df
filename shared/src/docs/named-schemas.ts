/**
 * The generator writes a route's schemas out in full wherever they are
 * used: the error body once per error status of every route (over two
 * hundred times in the gateway's merged document), a geocoding failure with
 * its address 32 times. Each schema its author named (`{ title }` in
 * Elysia's `t`) is written once instead, as `components.schemas[title]`,
 * and a `$ref` to it everywhere it was written out. Readers and code
 * generators get one named type per name, and the document is less than
 * half its size, which is what the API docs page parses and renders.
 *
 * A title stands for one content. When the same title is written with
 * different content (a nullable variant with its own description, say),
 * the content written most often takes the name and the others stay where
 * they are. A component that already has the name (one the service declares
 * itself) keeps it, and only schemas equal to it become `$ref`s.
 */
export function nameSchemasOnce(paths: Record<string, unknown>, schemas: Record<string, unknown>): void {
  const signatures = new Map<object, string>();
  /** A named schema's content, its named parts each counted by their own signature (as they compare once written as `$ref`s). */
  const signature = (schema: Record<string, unknown>): string => {
    let known = signatures.get(schema);
    if (known === undefined) {
      const shape = (part: Record<string, unknown>): Record<string, unknown> =>
        withSubschemas(part, (child) => (isNamed(child) ? { signature: signature(child) } : shape(child)));
      known = JSON.stringify(shape(schema));
      signatures.set(schema, known);
    }
    return known;
  };

  const uses = new Map<string, Map<string, number>>();
  for (const schema of namedSchemas(paths, signature)) {
    const variants = uses.get(schema.title) ?? new Map<string, number>();
    uses.set(schema.title, variants);
    const content = signature(schema);
    variants.set(content, (variants.get(content) ?? 0) + 1);
  }
  const named = new Map<string, string>();
  for (const [title, variants] of uses) {
    const declared = schemas[title];
    if (declared === undefined) named.set(title, mostWritten(variants));
    else if (isObject(declared)) named.set(title, signature(declared));
  }

  /** Writes the named parts at and under a slot as `$ref`s, innermost first. */
  const rewrite = ([holder, key]: Slot): void => {
    const schema = holder[key];
    if (!isObject(schema)) return;
    const content = isNamed(schema) ? signature(schema) : undefined;
    for (const slot of subschemaSlots(schema)) rewrite(slot);
    if (!isNamed(schema) || named.get(schema.title) !== content) return;
    schemas[schema.title] ??= schema;
    holder[key] = { $ref: `#/components/schemas/${schema.title}` };
  };
  for (const slot of operationSchemaSlots(paths)) rewrite(slot);
}

/** A component name as OpenAPI allows it; a title outside this stays written out. */
const componentName = /^[A-Za-z0-9._-]+$/;

type NamedSchema = Record<string, unknown> & { title: string };

function isNamed(value: unknown): value is NamedSchema {
  return isObject(value) && typeof value.title === "string" && componentName.test(value.title);
}

/** The content written most often; the first written wins a tie. */
function mostWritten(variants: Map<string, number>): string {
  let best: [string, number] = ["", 0];
  for (const [content, count] of variants) if (count > best[1]) best = [content, count];
  return best[0];
}

/**
 * Every named schema the operations write, inner ones included, as often as
 * the document will write it: the parts of a named schema once, however
 * often that schema is used.
 */
function* namedSchemas(paths: Record<string, unknown>, signature: (schema: NamedSchema) => string): Generator<NamedSchema> {
  const seen = new Set<string>();
  const under = function* ([holder, key]: Slot): Generator<NamedSchema> {
    const schema = holder[key];
    if (!isObject(schema)) return;
    if (isNamed(schema)) {
      yield schema;
      if (seen.has(signature(schema))) return;
      seen.add(signature(schema));
    }
    for (const slot of subschemaSlots(schema)) yield* under(slot);
  };
  for (const slot of operationSchemaSlots(paths)) yield* under(slot);
}

/** A place that holds a schema: an object and its key, or a list and its index. */
type Slot = [Record<string | number, unknown>, string | number];

/** Where an operation's schemas are: its parameters', its body's and its responses' (their content and headers). */
function* operationSchemaSlots(paths: Record<string, unknown>): Generator<Slot> {
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const operation of [item, ...Object.values(item)]) {
      if (!isObject(operation)) continue;
      for (const parameter of asArray(operation.parameters)) if (isObject(parameter)) yield [parameter, "schema"];
      if (isObject(operation.requestBody)) yield* contentSlots(operation.requestBody.content);
      for (const response of isObject(operation.responses) ? Object.values(operation.responses) : []) {
        if (!isObject(response)) continue;
        yield* contentSlots(response.content);
        for (const header of isObject(response.headers) ? Object.values(response.headers) : []) if (isObject(header)) yield [header, "schema"];
      }
    }
  }
}

function* contentSlots(content: unknown): Generator<Slot> {
  for (const media of isObject(content) ? Object.values(content) : []) if (isObject(media)) yield [media, "schema"];
}

/** JSON Schema's keywords that hold schemas; examples, defaults and constants are values, never walked. */
const oneSchema = ["items", "additionalProperties", "not", "contains", "if", "then", "else"];
const schemaLists = ["anyOf", "oneOf", "allOf", "prefixItems"];
const schemaMaps = ["properties", "patternProperties", "$defs"];

function* subschemaSlots(schema: Record<string, unknown>): Generator<Slot> {
  for (const keyword of oneSchema) if (isObject(schema[keyword])) yield [schema, keyword];
  for (const keyword of schemaLists) {
    // A list is indexed as an object is keyed.
    const list = asArray(schema[keyword]);
    for (let index = 0; index < list.length; index++) yield [list as unknown as Slot[0], index];
  }
  for (const keyword of schemaMaps) {
    const map = schema[keyword];
    if (isObject(map)) for (const name of Object.keys(map)) yield [map, name];
  }
}

/** A shallow copy of `schema` with each of its subschemas replaced. */
function withSubschemas(schema: Record<string, unknown>, replace: (child: Record<string, unknown>) => unknown): Record<string, unknown> {
  const copy = { ...schema };
  const each = (value: unknown) => (isObject(value) ? replace(value) : value);
  for (const keyword of oneSchema) if (isObject(schema[keyword])) copy[keyword] = replace(schema[keyword]);
  for (const keyword of schemaLists) if (Array.isArray(schema[keyword])) copy[keyword] = schema[keyword].map(each);
  for (const keyword of schemaMaps) {
    const map = schema[keyword];
    if (isObject(map)) copy[keyword] = Object.fromEntries(Object.entries(map).map(([name, child]) => [name, each(child)]));
  }
  return copy;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
