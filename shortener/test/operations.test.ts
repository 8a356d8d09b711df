import { describe, expect, test } from "bun:test";
import { createLogger, ErrorBody } from "@linkgeo/shared";
import { inlineRefs, readJson, waitFor } from "@linkgeo/testing";
import { CreateLinkBody, UpdateLinkBody } from "../src/links/link-schemas.ts";
import { startTestShortener, testSecretKey } from "./support/test-shortener.ts";

/** A `t` schema as JSON Schema, the way it travels in an OpenAPI document. */
/**
 * A TypeBox schema as plain JSON Schema, as the API page shows it: the
 * OpenAPI plugin writes a nullable `anyOf [{type: T, …}, {type: "null"}]`
 * as the equivalent `{type: [T, "null"], …}`, and a union of string
 * constants as `{type: "string", enum: […]}` (without the union's description).
 */
const jsonSchemaOf = (schema: unknown): unknown => collapseNullable(JSON.parse(JSON.stringify(schema)));

function collapseNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(collapseNullable);
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, collapseNullable(value)]));
  const anyOf = entries.anyOf as Array<Record<string, unknown>> | undefined;
  if (anyOf?.length === 2 && anyOf[1]!.type === "null" && Object.keys(anyOf[1]!).length === 1 && typeof anyOf[0]!.type === "string") {
    const { anyOf: _, ...rest } = entries;
    return { ...anyOf[0], ...rest, type: [anyOf[0]!.type, "null"] };
  }
  if (anyOf?.every((member) => member.type === "string" && "const" in member && Object.keys(member).length === 2)) {
    const { anyOf: _, description: __, ...rest } = entries;
    return { ...rest, type: "string", enum: anyOf.map((member) => member.const) };
  }
  return entries;
}

describe("operations", () => {
  test("/health answers while the process lives; /ready reports each dependency", async () => {
    await using api = await startTestShortener({
      readiness: { required: { database: async () => {} }, optional: { cache: async () => Promise.reject(new Error("down")) } },
    });
    expect(await readJson(await api.request("GET", "/health"))).toEqual({ status: "ok" });
    const ready = await api.request("GET", "/ready/");
    expect(ready.status).toBe(200);
    expect(await readJson(ready)).toEqual({ status: "degraded", checks: { database: "ok", cache: "failing" } });
  });

  test("/ready answers 503 when the database does not, or once shutdown began", async () => {
    let accepting = true;
    await using api = await startTestShortener({
      readiness: { required: { database: () => new Promise(() => {}) } },
      accepting: () => accepting,
    });
    const response = await api.request("GET", "/ready");
    expect(response.status).toBe(503);
    expect(await readJson(response)).toEqual({ status: "unavailable", checks: { database: "failing" } });

    await using healthy = await startTestShortener({ accepting: () => accepting });
    expect((await healthy.request("GET", "/ready")).status).toBe(200);
    accepting = false;
    expect((await healthy.request("GET", "/ready")).status).toBe(503);
  });

  test("echoes a sane X-Request-Id, on errors too, and replaces an unsafe one", async () => {
    await using api = await startTestShortener();
    const echoed = await api.request("GET", "/shorten/nope-id/", { headers: { "x-request-id": "abc-123" } });
    expect(echoed.status).toBe(404);
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const replaced = await api.request("GET", "/health", { headers: { "x-request-id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("answers 503 service_unavailable, not 500, when Postgres is gone, and leaks nothing", async () => {
    await using api = await startTestShortener({ engine: "postgres" });
    const { short_url } = await api.createLink();
    await api.db.close();
    for (const [method, path] of [
      ["GET", `/${short_url}/`],
      ["GET", `/shorten/${short_url}/`],
    ] as const) {
      const response = await api.request(method, path);
      expect(response.status).toBe(503);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: { code: "service_unavailable", message: "the database is unavailable, try again shortly" } });
      expect(body).not.toMatch(/postgres|5432|127\.0\.0\.1|select/i);
      expect(response.headers.get("retry-after")).toBe("1");
    }
    const created = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/" } });
    expect(created.status).toBe(503);
  });

  test("writes one access-log line per request with the status actually sent", async () => {
    const lines: string[] = [];
    const log = createLogger({ service: "shortener", level: "info", format: "json", write: (line) => lines.push(line) });
    await using api = await startTestShortener({ log, accessLog: true });
    const { short_url } = await api.createLink();
    await api.request("GET", `/${short_url}/`, { headers: { "x-request-id": "trace-1" } });
    await api.request("GET", "/shorten/nope-log/", { headers: { "x-request-id": "trace-2" } });
    // The line is written after the response has gone.
    const traced = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.request_id?.startsWith("trace-"));
    await waitFor("two access-log lines", () => traced().length === 2);
    const entries = traced();
    expect(entries).toEqual([
      expect.objectContaining({
        level: "info",
        service: "shortener",
        msg: "request",
        request_id: "trace-1",
        method: "GET",
        path: `/${short_url}/`,
        status: 302,
      }),
      expect.objectContaining({ request_id: "trace-2", path: "/shorten/nope-log/", status: 404 }),
    ]);
  });

  test("an unexpected error is a bare 500 without details", async () => {
    await using api = await startTestShortener({
      generateCode: () => {
        throw new Error("secret internal detail");
      },
    });
    const response = await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/" } });
    expect(response.status).toBe(500);
    expect(await readJson(response)).toEqual({ error: { code: "internal_error", message: "internal server error" } });
  });
});

describe("OpenAPI", () => {
  test("/docs/json describes every route with its bodies and error responses", async () => {
    await using api = await startTestShortener();
    const spec = await readJson(await api.request("GET", "/docs/json"));
    const operations = Object.entries(spec.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const expected of [
      "POST /shorten/",
      "GET /shorten/",
      "GET /shorten/{short_url}",
      "GET /shorten/{short_url}/stats",
      "PUT /shorten/{short_url}",
      "DELETE /shorten/{short_url}",
      "POST /admin/login",
      "POST /admin/session",
      "GET /admin/session",
      "DELETE /admin/session",
      "GET /admin/visits/daily",
      "GET /{short_url}",
      "HEAD /{short_url}",
      "GET /health",
      "GET /ready",
    ]) {
      expect(operations).toContain(expected);
    }
    const create = spec.paths["/shorten/"].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "409", "413", "415"]));
    expect(JSON.stringify(create.requestBody)).toContain("long_url");
    expect(Object.keys(spec.paths["/shorten/{short_url}"].put.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404"]));
  });

  test("/docs/json is OpenAPI 3.1 with each body as the JSON schema its route checks, and every status a redirect answers", async () => {
    await using api = await startTestShortener();

    const spec = await readJson(await api.request("GET", "/docs/json"));

    expect(spec.openapi).toBe("3.1.0");
    // The services parse JSON alone (415 otherwise), so no other media type is offered.
    expect(inlineRefs(spec, spec.paths["/shorten/"].post.requestBody.content)).toEqual({ "application/json": { schema: jsonSchemaOf(CreateLinkBody) } });
    expect(inlineRefs(spec, spec.paths["/shorten/{short_url}"].put.requestBody.content)).toEqual({
      "application/json": { schema: jsonSchemaOf(UpdateLinkBody) },
    });
    const error = (description: string) => ({ description, content: { "application/json": { schema: jsonSchemaOf(ErrorBody) } } });
    expect(inlineRefs(spec, spec.paths["/{short_url}"].get.responses)).toEqual({
      "302": { description: "Redirect to the destination" },
      "401": error("The link has a password: POST it here"),
      "404": error("No such short URL"),
      "410": error("The link has expired or used up its visits"),
    });
    expect(spec.paths["/{short_url}"].head.responses).toEqual({
      "302": { description: "Location: the destination, not counted" },
      "404": { description: "No such short URL" },
    });
    expect(spec.components.securitySchemes).toEqual({
      bearer: {
        type: "http",
        scheme: "bearer",
        description:
          "A manage token, an admin token from POST /admin/login, an API key (lgk_…) from POST /admin/api-keys, or a person's sign-in token (lgs_…) from POST /login",
      },
      adminSession: {
        type: "apiKey",
        in: "cookie",
        name: "linkgeo_admin",
        description: "The web app's admin session, set by POST /admin/session (HttpOnly: a browser sends it by itself)",
      },
      csrfToken: {
        type: "apiKey",
        in: "header",
        name: "X-CSRF-Token",
        description: "The csrf_token of the admin session; every change made with the session cookie needs it",
      },
    });
  });

  test("/docs/json says the link bodies take no field they do not declare, and which are read-only", async () => {
    await using api = await startTestShortener();
    const spec = await readJson(await api.request("GET", "/docs/json"));
    const bodyOf = (operation: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } }) =>
      operation.requestBody.content["application/json"]!.schema;
    for (const schema of [bodyOf(spec.paths["/shorten/"].post), bodyOf(spec.paths["/shorten/{short_url}"].put), bodyOf(spec.paths["/shorten/bulk"].post)]) {
      expect(schema.additionalProperties).toBe(false);
    }
    const create = bodyOf(spec.paths["/shorten/"].post).properties as Record<string, { description?: string }>;
    expect(create.access_count?.description).toStartWith("Read-only: accepted and ignored");
  });

  test("/docs/json describes the session endpoints and who may call what, and shows no token value", async () => {
    await using api = await startTestShortener();
    await api.db.admins.insert({
      username: "alice",
      passwordHash: await Bun.password.hash("a password", { algorithm: "bcrypt", cost: 4 }),
      createdAt: new Date(),
    });
    const signIn = await api.request("POST", "/admin/session", { json: { username: "alice", password: "a password" } });
    const sessionId = /^linkgeo_admin=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")![1]!;
    const csrfToken = (await readJson(signIn)).csrf_token;

    const text = await (await api.request("GET", "/docs/json", { headers: { cookie: `linkgeo_admin=${sessionId}` } })).text();

    const spec = JSON.parse(text);
    const session = spec.paths["/admin/session"];
    expect(Object.keys(session).sort()).toEqual(["delete", "get", "post"]);
    for (const method of ["post", "get", "delete"]) expect(session[method].summary).toBeString();
    expect(Object.keys(session.post.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
    expect(session.get.security).toEqual([{ adminSession: [] }]);
    expect(session.delete.security).toEqual([{ adminSession: [], csrfToken: [] }]);
    expect(spec.paths["/shorten/{short_url}"].put.security).toEqual([{ bearer: [] }, { adminSession: [], csrfToken: [] }]);
    expect(spec.paths["/shorten/"].get.security).toEqual([{ bearer: [] }, { adminSession: [] }]);
    for (const secret of [sessionId, csrfToken, testSecretKey]) expect(text).not.toContain(secret);
  });

  test("/docs serves the interactive page", async () => {
    await using api = await startTestShortener();
    const response = await api.request("GET", "/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
  });
});
