import { InvalidRequest } from "@linkgeo/shared";

/** A `t.Object` schema that declares `additionalProperties: false`: the OpenAPI document then says what the check below does. */
export interface ClosedObject {
  properties: object;
  additionalProperties?: unknown;
}

/** How many unknown names one answer quotes, and how much of each: the answer stays short whatever the body holds. */
const namesQuoted = 10;
const nameChars = 40;

/**
 * The 400 naming every field of `body` that `schema` does not declare (the
 * first few, each cut short, and how many more), or undefined when there is
 * none or `body` is not an object (the schema refuses that itself). One pass
 * over the body's keys, a lookup each: thousands of them cost as many.
 *
 * Elysia's normalising drops such a field before the schema is checked, so
 * `additionalProperties: false` alone refuses nothing: a misspelled option
 * (`max_visit`) was a silent no-op. The schema declares it; this enforces it.
 */
export function unknownFields(body: unknown, schema: ClosedObject): InvalidRequest | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const named: string[] = [];
  let count = 0;
  for (const key of Object.keys(body)) {
    if (Object.hasOwn(schema.properties, key)) continue;
    count++;
    if (named.length < namesQuoted) named.push(JSON.stringify(key.length > nameChars ? `${key.slice(0, nameChars)}…` : key));
  }
  if (count === 0) return undefined;
  const more = count > named.length ? ` and ${count - named.length} more` : "";
  return InvalidRequest.because(`unknown field${count === 1 ? "" : "s"} ${named.join(", ")}${more}: not among the fields this request takes`);
}

/**
 * A route's `transform` hook refusing unknown fields with unknownFields:
 * it runs before validation, so before Elysia's normalising drops them.
 * Throws at once for a schema that does not declare them refused.
 */
export function refuseUnknownFields(schema: ClosedObject): (context: { body: unknown }) => void {
  if (schema.additionalProperties !== false) throw new Error("refuseUnknownFields needs a schema with additionalProperties: false");
  return ({ body }) => {
    const refusal = unknownFields(body, schema);
    if (refusal) throw refusal;
  };
}
