import { describe, expect, test } from "bun:test";
import { nameSchemasOnce } from "../src/docs/named-schemas.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const Rule = { title: "Rule", type: "object", properties: { url: { type: "string" } } };
const Link = { title: "Link", type: "object", properties: { code: { type: "string" }, rules: { type: "array", items: Rule } } };
const Problem = { title: "Problem", type: "object", properties: { message: { type: "string" } } };

interface Operation {
  parameters?: unknown;
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

/** Runs the rule on a copy of `paths`, with `declared` as the components a service wrote itself. */
function named(paths: Record<string, unknown>, declared: Record<string, unknown> = {}) {
  const copy = structuredClone(paths);
  const schemas = structuredClone(declared);
  nameSchemasOnce(copy, schemas);
  const operation = (path: string, method: string): Operation => {
    const found = (copy as Record<string, Record<string, Operation>>)[path]?.[method];
    if (!found) throw new Error(`no ${method} ${path}`);
    return found;
  };
  return { operation, schemas };
}

describe("nameSchemasOnce", () => {
  test("writes a named schema once, as a component, and a $ref wherever it was used, its named parts too", () => {
    const { operation, schemas } = named({
      "/links": { post: { requestBody: json(Link), responses: { 201: json(Link), 400: json(Problem) } } },
      "/links/{code}": { get: { parameters: [{ name: "code", in: "path", schema: { type: "string" } }], responses: { 200: json(Link), 404: json(Problem) } } },
    });

    expect(operation("/links", "post")).toEqual({ requestBody: json(ref("Link")), responses: { 201: json(ref("Link")), 400: json(ref("Problem")) } });
    expect(operation("/links/{code}", "get").responses).toEqual({ 200: json(ref("Link")), 404: json(ref("Problem")) });
    expect(operation("/links/{code}", "get").parameters).toEqual([{ name: "code", in: "path", schema: { type: "string" } }]);
    expect(schemas).toEqual({ Link: { ...Link, properties: { ...Link.properties, rules: { type: "array", items: ref("Rule") } } }, Rule, Problem });
  });

  test("finds named schemas under every keyword that holds schemas, and in response headers", () => {
    const { operation } = named({
      "/a": {
        get: {
          responses: {
            200: {
              ...json({ anyOf: [Rule, { type: "null" }], properties: { p: Rule }, additionalProperties: Rule, prefixItems: [Rule], $defs: { d: Rule } }),
              headers: { "X-Rule": { schema: Rule } },
            },
          },
        },
      },
    });

    expect(operation("/a", "get").responses[200]).toEqual({
      ...json({
        anyOf: [ref("Rule"), { type: "null" }],
        properties: { p: ref("Rule") },
        additionalProperties: ref("Rule"),
        prefixItems: [ref("Rule")],
        $defs: { d: ref("Rule") },
      }),
      headers: { "X-Rule": { schema: ref("Rule") } },
    });
  });

  test("of two contents under one title, the one the document writes more often takes the name; the other stays written out", () => {
    const NullableLink = { ...Link, type: ["object", "null"], description: "The link, if it still exists" };
    const Report = { title: "Report", type: "object", properties: { link: NullableLink } };
    const { operation, schemas } = named({
      // Report is written three times, its nullable Link with it, but the document will hold that Link once, in Report.
      "/reports": { get: { responses: { 200: json({ type: "array", items: Report }) } }, post: { responses: { 201: json(Report) } } },
      "/reports/{id}": { get: { responses: { 200: json(Report) } } },
      "/links/{code}": { get: { responses: { 200: json(Link) } }, put: { responses: { 200: json(Link) } } },
    });

    expect(operation("/links/{code}", "get").responses[200]).toEqual(json(ref("Link")));
    expect(operation("/reports", "get").responses[200]).toEqual(json({ type: "array", items: ref("Report") }));
    expect(schemas.Link).toEqual({ ...Link, properties: { ...Link.properties, rules: { type: "array", items: ref("Rule") } } });
    // The other Link keeps its own content, its named parts as $refs.
    expect(schemas.Report).toEqual({
      ...Report,
      properties: { link: { ...NullableLink, properties: { ...Link.properties, rules: { type: "array", items: ref("Rule") } } } },
    });
  });

  test("a component the service declared keeps its name: only schemas equal to it become $refs", () => {
    const declaredProblem = { ...Problem, description: "declared" };
    const { operation, schemas } = named(
      { "/a": { get: { responses: { 400: json(declaredProblem), 404: json(Problem), 409: json(Problem) } } } },
      { Problem: declaredProblem },
    );

    expect(operation("/a", "get").responses).toEqual({ 400: json(ref("Problem")), 404: json(Problem), 409: json(Problem) });
    expect(schemas).toEqual({ Problem: declaredProblem });
  });

  test("leaves values alone (examples, defaults, constants) and titles no component may be named", () => {
    const Page = { title: "Page", type: "object", examples: [{ title: "Rule" }], default: Rule, const: Rule };
    const Spaced = { title: "Error body", type: "object" };
    const { operation, schemas } = named({ "/a": { get: { responses: { 200: json({ anyOf: [Page, Spaced] }) } } } });

    expect(operation("/a", "get").responses[200]).toEqual(json({ anyOf: [ref("Page"), Spaced] }));
    expect(schemas).toEqual({ Page });
  });
});
