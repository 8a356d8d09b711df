const methods = ["get", "put", "post", "delete", "patch"];

interface ParameterSpec {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; minimum?: number; maximum?: number; maxLength?: number; pattern?: string; anyOf?: Array<{ type?: string }> };
}

interface QuerySpec {
  paths: Record<string, Record<string, { parameters?: ParameterSpec[] }>>;
}

/** One query parameter of one operation, with values to send it that no rule should take. */
export interface QueryParameterCase {
  /** `GET /shorten/`, as the document names it. */
  operation: string;
  method: string;
  name: string;
  /** The operation's path with its path parameters filled in, and its other query parameters that `filled` names set. */
  target: (value: string) => string;
  badValues: string[];
}

/**
 * Every query parameter of every operation an OpenAPI document describes,
 * each with values that ought to be refused: for a number, a word, a
 * fraction and each side of its range; for a string, one past its length,
 * a control character, a word no list holds. `filled` gives, by name, a
 * value to each path parameter and to the query parameters a request needs
 * (each required one, and those a route requires by hand): the others of
 * each request have those.
 */
export function queryParameterCases(spec: QuerySpec, filled: Record<string, string>): QueryParameterCase[] {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.includes(method))
      .flatMap(([method, operation]) => {
        const parameters = operation.parameters ?? [];
        const queries = parameters.filter((parameter) => parameter.in === "query");
        return queries.map((parameter) => ({
          operation: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          name: parameter.name,
          target: (value: string) => {
            const query = new URLSearchParams();
            for (const other of queries) {
              if (other.name === parameter.name) continue;
              const value = filled[other.name];
              if (value !== undefined) query.set(other.name, value);
              else if (other.required) throw new Error(`no value given for the required query parameter ${other.name}`);
            }
            query.set(parameter.name, value);
            return `${path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(filledValue(filled, name)))}?${query}`;
          },
          badValues: badValuesFor(parameter.schema ?? {}),
        }));
      }),
  );
}

function filledValue(filled: Record<string, string>, name: string): string {
  const value = filled[name];
  if (value === undefined) throw new Error(`no value given for the parameter ${name}`);
  return value;
}

function badValuesFor(schema: NonNullable<ParameterSpec["schema"]>): string[] {
  const numeric =
    schema.type === "integer" || schema.type === "number" || schema.anyOf?.some((option) => option.type === "integer" || option.type === "number");
  const values = ["zz-not-valid", "\u0001", ""];
  if (numeric) values.push("1.5", "-1");
  if (schema.minimum !== undefined) values.push(String(schema.minimum - 1));
  if (schema.maximum !== undefined) values.push(String(schema.maximum + 1));
  if (schema.maxLength !== undefined) values.push("a".repeat(schema.maxLength + 1));
  return values;
}
