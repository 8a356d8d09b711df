import { describe, expect, test } from "bun:test";
import { ErrorBody, jsonBody, serviceSpec } from "@linkgeo/shared";
import { Elysia, t, type AnyElysia } from "elysia";

const info = { title: "Example API", description: "An example", components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } } };
const Thing = t.Object({ name: t.String({ maxLength: 20 }), note: t.Union([t.String(), t.Null()]) });
/** As /docs/json sends it: JSON, without TypeBox's symbol keys. */
const json = (value: unknown) => JSON.parse(JSON.stringify(value));
const served = (app: AnyElysia) => json(serviceSpec(app, info)());

describe("serviceSpec", () => {
  test("documents the routes added after it was made, with info, components and OpenAPI 3.1", () => {
    const app = new Elysia();
    const spec = serviceSpec(app, info);
    app.get("/things", () => [], { detail: { summary: "List things", tags: ["things"] } });

    expect(json(spec())).toEqual({
      openapi: "3.1.0",
      info: { title: "Example API", version: "1.0.0", description: "An example" },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } }, schemas: {} },
      paths: { "/things": { get: { summary: "List things", tags: ["things"], operationId: "getThings" } } },
    });
  });

  test("is made again when a route is added, not on every call", () => {
    const app = new Elysia().get("/a", () => "a");
    const spec = serviceSpec(app, info);
    const first = spec();

    expect(spec()).toBe(first);
    app.get("/b", () => "b");
    expect(Object.keys(spec().paths)).toEqual(["/a", "/b"]);
  });

  test("documents a body read by the shared JSON parser as JSON alone, with its schema", () => {
    const app = new Elysia().use(jsonBody()).post("/things", ({ body }) => body, { body: Thing });

    const operation = served(app).paths["/things"].post;

    // Nullable the 3.1 way: a list of types, as JSON Schema writes it.
    const schema = { type: "object", required: ["name", "note"], properties: { name: { type: "string", maxLength: 20 }, note: { type: ["string", "null"] } } };
    expect(operation.requestBody).toEqual({ required: true, content: { "application/json": { schema } } });
  });

  test("keeps the statuses a route declares beside its response schemas, in the route's words", () => {
    const app = new Elysia().get("/:code", () => new Response(null, { status: 302 }), {
      params: t.Object({ code: t.String() }),
      detail: { responses: { 302: { description: "Redirect" }, 404: { description: "No such code" } } },
      response: { 404: ErrorBody },
    });

    const spec = served(app);

    expect(spec.paths["/{code}"].get.responses).toEqual({
      "302": { description: "Redirect" },
      "404": { description: "No such code", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    });
    expect(spec.components.schemas).toEqual({ Error: json(ErrorBody) });
  });

  test("writes each named schema once, as a component, and leaves the routes' own schemas as they were", async () => {
    const Rule = t.Object({ url: t.String() }, { title: "Rule" });
    const Link = t.Object({ code: t.String(), rules: t.Array(Rule) }, { title: "Link" });
    const app = new Elysia().use(jsonBody()).post("/links", ({ body }) => body, { body: Link, response: { 200: Link } });
    const written = json(Link);

    const spec = served(app);

    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(spec.paths["/links"].post.requestBody.content["application/json"].schema).toEqual(ref("Link"));
    expect(spec.paths["/links"].post.responses["200"].content["application/json"].schema).toEqual(ref("Link"));
    expect(spec.components.schemas).toEqual({
      Link: { ...written, properties: { ...written.properties, rules: { type: "array", items: ref("Rule") } } },
      Rule: json(Rule),
    });
    // The route still checks bodies against the whole schema.
    expect(json(Link)).toEqual(written);
    const post = (body: unknown) =>
      app.handle(new Request("http://localhost/links", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect((await post({ code: "a", rules: [{ url: "https://example.com" }] })).status).toBe(200);
    expect((await post({ code: "a", rules: [{ url: 1 }] })).status).toBe(422);
  });

  test("leaves the schemas a route declares in its detail as they were, for its checks and for the next document", async () => {
    const Rule = t.Object({ url: t.String() }, { title: "Rule" });
    const Job = t.Object({ rules: t.Array(Rule) }, { title: "Job" });
    const written = json(Job);
    const app = new Elysia().use(jsonBody()).post("/jobs", ({ body }) => body, {
      body: Job,
      response: { 200: Job },
      detail: { responses: { 200: { description: "Queued", content: { "application/json": { schema: Job } } } } },
    });
    const spec = serviceSpec(app, info);

    const first = json(spec());
    app.get("/later", () => "later");
    const second = json(spec());

    expect(json(Job)).toEqual(written);
    for (const document of [first, second]) {
      expect(document.paths["/jobs"].post.responses["200"]).toEqual({
        description: "Queued",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Job" } } },
      });
      expect(Object.keys(document.components.schemas).sort()).toEqual(["Job", "Rule"]);
    }
    const post = await app.handle(
      new Request("http://localhost/jobs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rules: [{ url: "u" }] }),
      }),
    );
    expect(post.status).toBe(200);
  });

  test("gives a query parameter the description its schema has, where Swagger UI shows it", () => {
    const app = new Elysia().get("/search", () => [], { query: t.Object({ q: t.Optional(t.String({ description: "What to look for" })) }) });

    const operation = served(app).paths["/search"].get;

    expect(operation.parameters).toEqual([
      { name: "q", in: "query", required: false, description: "What to look for", schema: { type: "string", description: "What to look for" } },
    ]);
  });
});
