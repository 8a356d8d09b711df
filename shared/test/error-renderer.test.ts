import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { errorRenderer, InvalidRequest, jsonBody, ServiceUnavailable, silentLogger } from "../src/index.ts";
import { readJson } from "@linkgeo/testing";

/** An app with a body, a query and a path schema, behind the one error renderer. */
function app(log = silentLogger) {
  return new Elysia()
    .use(errorRenderer({ log, translate: (error) => (error instanceof RangeError ? InvalidRequest.because("translated") : undefined) }))
    .use(jsonBody())
    .post("/things", () => "ok", { body: t.Object({ name: t.String({ minLength: 1 }), size: t.Integer({ minimum: 1 }) }) })
    .get("/pages", () => "ok", { query: t.Object({ page: t.Integer({ minimum: 1 }) }) })
    .get("/things/:id", () => "ok", { params: t.Object({ id: t.Integer() }) })
    .get("/boom", () => {
      throw new Error("secret detail");
    })
    .get("/range", () => {
      throw new RangeError("a dependency's own error");
    });
}

async function errorOf(response: Response) {
  return { status: response.status, ...(await readJson(response)).error };
}

const post = (body: string) => app().handle(new Request("http://localhost/things", { method: "POST", headers: { "content-type": "application/json" }, body }));

describe("the error renderer's messages", () => {
  test("a missing body field names it", async () => {
    expect(await errorOf(await post('{"size": 2}'))).toEqual({ status: 400, code: "invalid_request", message: "field name is required" });
  });

  test("a body field of the wrong kind names it and what was expected", async () => {
    const error = await errorOf(await post('{"name": "a", "size": "big"}'));
    expect(error).toMatchObject({ status: 400, code: "invalid_request" });
    expect(error.message).toStartWith("field size: ");
  });

  test("a query or path parameter out of its rule is a 400 that says what was expected", async () => {
    // Elysia reports a coerced number's failure without its path, so the message cannot name the parameter (yet).
    const query = await errorOf(await app().handle(new Request("http://localhost/pages?page=0")));
    expect(query).toMatchObject({ status: 400, code: "invalid_request" });
    expect(query.message).toContain("greater or equal to 1");
    const params = await errorOf(await app().handle(new Request("http://localhost/things/abc")));
    expect(params).toMatchObject({ status: 400, code: "invalid_request" });
  });

  test("a body that is not JSON, or not an object, is a 400 in words; an unknown route a 404", async () => {
    expect(await errorOf(await post("{nope"))).toEqual({ status: 400, code: "invalid_request", message: "request body is not valid JSON" });
    expect(await errorOf(await post("[1]"))).toEqual({ status: 400, code: "invalid_request", message: "request body must be a JSON object" });
    expect(await errorOf(await app().handle(new Request("http://localhost/nowhere")))).toEqual({ status: 404, code: "not_found", message: "no such resource" });
  });

  test("an unknown error is a bare 500 that says nothing of it, logged once with the request id; a translated one is the translation", async () => {
    const logged: unknown[] = [];
    const log = { ...silentLogger, error: (message: string, fields?: unknown) => void logged.push({ message, fields }) };
    const response = await app(log).handle(new Request("http://localhost/boom", { headers: { "x-request-id": "req-42" } }));
    expect(await errorOf(response)).toEqual({ status: 500, code: "internal_error", message: "internal server error" });
    expect(response.headers.get("x-request-id")).toBe("req-42");
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).toContain("req-42");
    expect(await errorOf(await app().handle(new Request("http://localhost/range")))).toEqual({ status: 400, code: "invalid_request", message: "translated" });
  });

  test("a request whose client hung up while it was read fails as 499, not as an unhandled error", async () => {
    const logged: unknown[] = [];
    const log = { ...silentLogger, error: (message: string, fields?: unknown) => void logged.push({ message, fields }) };
    const gone = new AbortController();
    const response = await new Elysia()
      .use(errorRenderer({ log }))
      .post("/read", async ({ request }) => {
        // What a body read does when Bun closes the connection under it.
        gone.abort(new DOMException("The connection was closed.", "AbortError"));
        throw request.signal.reason;
      })
      .handle(new Request("http://localhost/read", { method: "POST", signal: gone.signal }));
    expect(await errorOf(response)).toMatchObject({ status: 499, code: "client_closed_request" });
    expect(logged).toEqual([]);
  });

  test("a dependency's failure keeps its cause for the log, and the body says nothing of it", async () => {
    const driverError = Object.assign(new Error("could not write block 42 of relation base/16384/2619"), { code: "53100" });
    const unavailable = ServiceUnavailable.dependency("the database", driverError);
    expect(unavailable.cause).toBe(driverError);
    const response = await new Elysia()
      .use(errorRenderer({ log: silentLogger }))
      .get("/write", () => {
        throw unavailable;
      })
      .handle(new Request("http://localhost/write"));
    expect(await errorOf(response)).toEqual({ status: 503, code: "service_unavailable", message: "the database is unavailable, try again shortly" });
    expect(response.headers.get("retry-after")).toBe("1");
  });
});
