/**
 * Typed calls of the API: `call("GET /shorten/{short_url}/stats", { params: { short_url: code } })`
 * checks the path parameters, query and body against the operation and
 * answers with its successful answer's type, all from lib/api-types.ts, the
 * types generated from the services' own schemas (bun run build:api-types).
 * Types only: what runs is a path filler in front of api.ts.
 */
import { apiResponse, type ApiOptions, type ApiResponse } from "./api.ts";
import type { paths } from "./api-types.ts";

type Method = "get" | "put" | "post" | "patch" | "delete";
type Path = keyof paths & string;

/** Every operation the API has, as "METHOD /path" with the path's `{name}` templates, e.g. "PUT /shorten/{short_url}". */
export type Route = { [P in Path]: { [M in Method]: [NonNullable<paths[P][M]>] extends [never] ? never : `${Uppercase<M>} ${P}` }[Method] }[Path];

type MethodOf<R extends Route> = R extends `${infer M} ${string}` ? Lowercase<M> & Method : never;
type PathOf<R extends Route> = R extends `${string} ${infer P}` ? P & Path : never;

/** The operation's generated type: parameters, requestBody, responses. */
export type Operation<R extends Route> = NonNullable<paths[PathOf<R>][MethodOf<R>]>;

type OperationParameters<R extends Route> = Operation<R> extends { parameters: infer P } ? P : never;
type Responses<R extends Route> = Operation<R> extends { responses: infer S } ? S : never;
type Json<Content> = Content extends { content: { "application/json": infer Body } } ? Body : undefined;

/** The successful answer: the 200's body, else the 201's or the 202's; undefined for a 204 (no body). */
export type Answer<R extends Route> =
  Responses<R> extends infer S
    ? 200 extends keyof S
      ? Json<S[200]>
      : 201 extends keyof S
        ? Json<S[201]>
        : 202 extends keyof S
          ? Json<S[202]>
          : undefined
    : never;

/** The JSON request body the operation reads; never when it reads none. */
export type RequestBody<R extends Route> = Operation<R> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

/** The path parameters, by the names of the path's templates; never when the path has none. */
export type PathParams<R extends Route> = OperationParameters<R> extends { path: infer P } ? P : never;

/** The query parameters; never when the operation reads none. */
export type QueryParams<R extends Route> = OperationParameters<R> extends { query?: infer Q } ? NonNullable<Q> : never;

type Given<T, Key extends string> = [T] extends [never] ? { [K in Key]?: never } : { [K in Key]: T };
type Maybe<T, Key extends string> = [T] extends [never] ? { [K in Key]?: never } : { [K in Key]?: T };

/** What a call sends besides its route: `params` when the path has templates, `body` when it reads one, `query` if wanted. */
export type CallOptions<R extends Route> = Omit<ApiOptions, "method" | "body" | "as"> &
  Given<PathParams<R>, "params"> &
  Given<RequestBody<R>, "body"> &
  Maybe<QueryParams<R>, "query">;

/** The options argument may be left out when nothing in it is required. */
type OptionsArgument<R extends Route> = Partial<CallOptions<R>> extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

/** Calls the operation and answers with its successful answer's body; an error answer throws ApiError. */
export async function call<R extends Route>(route: R, ...[options]: OptionsArgument<R>): Promise<Answer<R>> {
  return (await callResponse(route, ...([options] as OptionsArgument<R>))).body;
}

/** As `call`, with the answer's headers (e.g. the geocoder's X-Cache). */
export async function callResponse<R extends Route>(route: R, ...[options]: OptionsArgument<R>): Promise<ApiResponse<Answer<R>>> {
  const { params, query, ...rest } = (options ?? {}) as CallOptions<R> & { params?: Record<string, unknown>; query?: Record<string, unknown> };
  const space = route.indexOf(" ");
  const method = route.slice(0, space) as NonNullable<ApiOptions["method"]>;
  const path = filledPath(route.slice(space + 1), params) + queryString(query);
  return apiResponse<Answer<R>>(path, { ...rest, method });
}

/** The path with each `{name}` replaced by its parameter, encoded as one path segment. */
export function filledPath(template: string, params: Readonly<Record<string, unknown>> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new TypeError(`no value for the path parameter ${name} of ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** `?name=value&…` of the parameters given (undefined and null left out); "" when there are none. */
export function queryString(query: Readonly<Record<string, unknown>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const each of Array.isArray(value) ? value : [value]) search.append(name, String(each));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}
