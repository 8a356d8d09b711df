import { describe, expect, expectTypeOf, test } from "bun:test";
import { call, filledPath, queryString, type Answer, type CallOptions, type RequestBody, type Route } from "../../src/client/lib/api-call.ts";

describe("filledPath", () => {
  test("puts each parameter in its template, encoded as one path segment", () => {
    expect(filledPath("/shorten/{short_url}/stats", { short_url: "a/b?c#d é" })).toBe("/shorten/a%2Fb%3Fc%23d%20%C3%A9/stats");
    expect(filledPath("/reverse-geocode/jobs/{id}/results", { id: 7 })).toBe("/reverse-geocode/jobs/7/results");
    expect(filledPath("/shorten/")).toBe("/shorten/");
  });

  test("refuses a template with no value rather than ask for a path with {name} in it", () => {
    expect(() => filledPath("/shorten/{short_url}", {})).toThrow("no value for the path parameter short_url of /shorten/{short_url}");
    expect(() => filledPath("/admin/api-keys/{id}", { id: null })).toThrow(TypeError);
  });
});

describe("queryString", () => {
  test("sends the parameters given, encoded, and leaves out the absent ones", () => {
    expect(queryString({ latitude: "48.8566", longitude: -2, platform: undefined, language: null, q: "a&b=c" })).toBe(
      "?latitude=48.8566&longitude=-2&q=a%26b%3Dc",
    );
    expect(queryString({ tag: ["x", "y"] })).toBe("?tag=x&tag=y");
    expect(queryString({})).toBe("");
    expect(queryString()).toBe("");
  });
});

// What the types say of the operations, checked by `bun run typecheck` (expectTypeOf does nothing at run time):
// they come from the services' schemas, so a schema change that breaks a caller breaks the type check.
test("routes, options and answers are the operations' own", () => {
  expectTypeOf<"GET /shorten/{short_url}/stats">().toExtend<Route>();
  expectTypeOf<"DELETE /shorten/{short_url}">().toExtend<Route>();
  expectTypeOf<"PATCH /shorten/{short_url}">().not.toExtend<Route>();
  expectTypeOf<"GET /no/such/path">().not.toExtend<Route>();

  expectTypeOf<Answer<"GET /shorten/{short_url}/stats">>().toEqualTypeOf<{
    short_url: string;
    access_count: number;
    last_accessed_at: string | null;
    state?: "active" | "expired" | "exhausted" | "quarantined" | "disabled";
    password_protected?: boolean;
  }>();
  expectTypeOf<Answer<"GET /geocoders">>().toEqualTypeOf<{ geocoders: { name: string; url: string }[] }>();
  // A 204 has no body; a 201 is the answer of a create.
  expectTypeOf<Answer<"DELETE /shorten/{short_url}">>().toEqualTypeOf<undefined>();
  expectTypeOf<Answer<"POST /shorten/">>().toHaveProperty("manage_token");
  expectTypeOf<RequestBody<"POST /shorten/">["long_url"]>().toEqualTypeOf<string>();

  expectTypeOf<CallOptions<"GET /shorten/{short_url}/stats">["params"]>().toEqualTypeOf<{ short_url: string }>();
  expectTypeOf<{ params: { code: string } }>().not.toExtend<CallOptions<"GET /shorten/{short_url}/stats">>();
  expectTypeOf<{ body: { long_url: number } }>().not.toExtend<CallOptions<"POST /shorten/">>();
  expectTypeOf<{ body: { long_url: string } }>().toExtend<CallOptions<"POST /shorten/">>();
  expectTypeOf<{ body: { points: [] }; query: { format: "geojson" } }>().toExtend<CallOptions<"POST /reverse-geocode/batch">>();
  expectTypeOf<{ body: object }>().not.toExtend<CallOptions<"GET /geocoders">>();
});

// Never run: each line must fail to type-check, or `bun run typecheck` fails on its unused @ts-expect-error.
export function misusesTheTypesRefuse(): void {
  // @ts-expect-error the path has a template: its parameter is required
  void call("GET /shorten/{short_url}/stats");
  // @ts-expect-error no such operation
  void call("GET /shorten/{short_url}/nothing");
  // @ts-expect-error the body must have long_url
  void call("POST /shorten/", { body: {} });
  void call("GET /geocoders").then((answer) => {
    // @ts-expect-error the answer has no such field
    void answer.providers;
  });
}
