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

/** What a route answered one bad value of one of its query parameters. */
export interface QueryParameterAnswer {
  /** `GET /shorten/ page_size`. */
  parameter: string;
  value: string;
  status: number;
  /** The error's message, for a 400. */
  message?: string;
}

/** Sends each bad value of each case (`send` makes the request of the case's method to the target) and keeps what each answer says. */
export async function askQueryParameterCases(
  cases: readonly QueryParameterCase[],
  send: (queryCase: QueryParameterCase, target: string) => Promise<Response>,
): Promise<QueryParameterAnswer[]> {
  const answers: QueryParameterAnswer[] = [];
  for (const queryCase of cases) {
    for (const value of queryCase.badValues) {
      const response = await send(queryCase, queryCase.target(value));
      const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
      answers.push({
        parameter: `${queryCase.operation} ${queryCase.name}`,
        value,
        status: response.status,
        message: response.status === 400 ? body?.error?.message : undefined,
      });
    }
  }
  return answers;
}

/** The 400s whose message does not name the parameter refused. */
export function namelessRefusals(answers: readonly QueryParameterAnswer[]): QueryParameterAnswer[] {
  return refusals(answers).filter(({ parameter, message }) => !new RegExp(`\\b${parameter.split(" ").at(-1)}\\b`).test(message ?? ""));
}

/** The parameters refused by at least one value sent: those whose messages `namelessRefusals` saw. */
export function refusedParameters(answers: readonly QueryParameterAnswer[]): Set<string> {
  return new Set(refusals(answers).map((answer) => answer.parameter));
}

/** The parameters no value sent was refused on, so no message of theirs was seen. */
export function neverRefusedParameters(answers: readonly QueryParameterAnswer[]): string[] {
  const refused = refusedParameters(answers);
  return [...new Set(answers.map((answer) => answer.parameter))].filter((parameter) => !refused.has(parameter));
}

function refusals(answers: readonly QueryParameterAnswer[]): QueryParameterAnswer[] {
  return answers.filter((answer) => answer.status === 400);
}
