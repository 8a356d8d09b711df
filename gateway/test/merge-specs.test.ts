import { describe, expect, test } from "bun:test";
import { mergeSpecs } from "../src/docs/merge-specs.ts";
import { asOpenApiDocument, type OpenApiDocument } from "../src/docs/openapi-document.ts";

const spec = (title: string, parts: Partial<OpenApiDocument> = {}): OpenApiDocument => ({
  openapi: "3.0.3",
  info: { title, version: "1.0.0", description: `${title} description` },
  paths: {},
  ...parts,
});

const ok = (description = "ok") => ({ responses: { "200": { description } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonOf = (schema: unknown) => ({ responses: { "200": { description: "ok", content: { "application/json": { schema } } } } });

const own = spec("gateway", {
  paths: { "/health": { get: ok("gateway alive") }, "/ready": { get: ok("gateway ready") }, "/docs": { get: ok("page") } },
  components: { schemas: { Error: { type: "object", properties: { error: { type: "object" } } } } },
  tags: [{ name: "operations", description: "the gateway's" }],
});

describe("mergeSpecs", () => {
  test("unions paths, components and tags, the gateway's first, without the services' /health, /ready and /docs", () => {
    const shortener = spec("Shortener API", {
      paths: {
        "/health": { get: ok("shortener alive") },
        "/ready/": { get: ok() },
        "/docs": { get: ok() },
        "/docs/json": { get: ok() },
        "/shorten/": { post: jsonOf(ref("Link")) },
        "/{short_url}": { get: ok("redirect") },
      },
      components: { schemas: { Link: { type: "object" } }, securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      tags: [{ name: "operations", description: "the shortener's" }, { name: "short URLs" }],
    });
    const geocoder = spec("Geocoder API", {
      paths: { "/health": { get: ok() }, "/reverse-geocode": { get: ok("addresses") } },
      tags: null,
    });

    expect(
      mergeSpecs(own, [
        { name: "shortener", spec: shortener },
        { name: "geocoder", spec: geocoder },
      ]),
    ).toEqual({
      openapi: "3.0.3",
      info: {
        title: "linkgeo API",
        version: "1.0.0",
        description: [
          "gateway description",
          "",
          "Services:",
          "",
          "- **shortener**: Shortener API description",
          "- **geocoder**: Geocoder API description",
        ].join("\n"),
      },
      paths: {
        "/health": { get: ok("gateway alive") },
        "/ready": { get: ok("gateway ready") },
        "/docs": { get: ok("page") },
        "/shorten/": { post: jsonOf(ref("Link")) },
        "/{short_url}": { get: ok("redirect") },
        "/reverse-geocode": { get: ok("addresses") },
      },
      components: {
        schemas: { Error: { type: "object", properties: { error: { type: "object" } } }, Link: { type: "object" } },
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      },
      tags: [{ name: "operations", description: "the gateway's" }, { name: "short URLs" }],
      "x-linkgeo-merge": {
        sources: [
          { name: "gateway", status: "own" },
          { name: "shortener", status: "available" },
          { name: "geocoder", status: "available" },
        ],
        conflicts: [],
      },
    });
  });

  test("keeps the first description of a path two sources define, template names ignored, and notes the conflict", () => {
    const a = spec("A", { paths: { "/items/{id}": { get: ok("from a") } } });
    const b = spec("B", { paths: { "/items/{item_id}": { get: ok("from b") }, "/b-only": { get: ok() } } });

    const merged = mergeSpecs(spec("own"), [
      { name: "a", spec: a },
      { name: "b", spec: b },
    ]);

    expect(merged.paths).toEqual({ "/items/{id}": { get: ok("from a") }, "/b-only": { get: ok() } });
    expect(merged["x-linkgeo-merge"]).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "a", status: "available" },
        { name: "b", status: "available" },
      ],
      conflicts: [{ kind: "path", path: "/items/{item_id}", kept: "a", dropped: "b" }],
    });
    expect(merged.info.description).toEndWith("Conflicts:\n\n- `/items/{item_id}` is described by a and b; a's description is shown.");
  });

  test("shares a component both define alike; of two different namesakes the later is renamed, with its source's $refs, and reported", () => {
    const shared = { type: "object", properties: { code: { type: "string" } } };
    // Alike as written, but each names its own source's Place: b's is renamed too.
    const near = { type: "object", properties: { near: ref("Place") } };
    const a = spec("A", {
      paths: { "/a": { get: jsonOf(ref("Place")) } },
      components: { schemas: { Code: shared, Near: near, Place: { type: "object", properties: { lat: { type: "number" } } } } },
    });
    const b = spec("B", {
      paths: { "/b": { get: jsonOf({ oneOf: [ref("Place"), ref("Code"), ref("Near")] }) } },
      components: { schemas: { Code: shared, Near: near, Place: { type: "object", properties: { x: { type: "number" } } } } },
    });

    const merged = mergeSpecs(spec("own"), [
      { name: "a", spec: a },
      { name: "b", spec: b },
    ]);

    expect(merged.components).toEqual({
      schemas: {
        Code: shared,
        Near: near,
        Place: { type: "object", properties: { lat: { type: "number" } } },
        b_Near: { type: "object", properties: { near: ref("b_Place") } },
        b_Place: { type: "object", properties: { x: { type: "number" } } },
      },
    });
    expect(merged.paths).toEqual({ "/a": { get: jsonOf(ref("Place")) }, "/b": { get: jsonOf({ oneOf: [ref("b_Place"), ref("Code"), ref("b_Near")] }) } });
    expect(merged["x-linkgeo-merge"]).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "a", status: "available" },
        { name: "b", status: "available" },
      ],
      conflicts: [
        { kind: "component", section: "schemas", name: "Near", kept: "a", dropped: "b", renamed_to: "b_Near" },
        { kind: "component", section: "schemas", name: "Place", kept: "a", dropped: "b", renamed_to: "b_Place" },
      ],
    });
    expect(merged.info.description).toEndWith(
      "Conflicts:\n\n- `schemas/Near` is described by a and b; b's is `schemas/b_Near` here.\n- `schemas/Place` is described by a and b; b's is `schemas/b_Place` here.",
    );
  });

  test("a document-wide security requirement moves onto that source's operations; a different scheme of the same name is a conflict", () => {
    const a = spec("A", {
      paths: { "/a": { get: { ...ok(), security: [{ bearer: [] }] } } },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    });
    const b = spec("B", {
      security: [{ bearer: [] }],
      paths: { "/b": { get: ok(), post: { ...ok(), security: [] } } },
      components: { securitySchemes: { bearer: { type: "apiKey", in: "header", name: "X-Key" } } },
    });

    const merged = mergeSpecs(spec("own"), [
      { name: "a", spec: a },
      { name: "b", spec: b },
    ]);

    expect(merged.components).toEqual({ securitySchemes: { bearer: { type: "http", scheme: "bearer" } } });
    expect(merged.paths).toEqual({
      "/a": { get: { ...ok(), security: [{ bearer: [] }] } },
      "/b": { get: { ...ok(), security: [{ bearer: [] }] }, post: { ...ok(), security: [] } },
    });
    expect(merged.security).toBeUndefined();
    expect((merged["x-linkgeo-merge"] as { conflicts: unknown[] }).conflicts).toEqual([
      { kind: "component", section: "securitySchemes", name: "bearer", kept: "a", dropped: "b" },
    ]);
  });

  test("prefixes an operationId another source already uses", () => {
    const a = spec("A", { paths: { "/a": { get: { ...ok(), operationId: "getThing" } } } });
    const b = spec("B", { paths: { "/b": { get: { ...ok(), operationId: "getThing" } } } });

    const merged = mergeSpecs(spec("own"), [
      { name: "a", spec: a },
      { name: "b", spec: b },
    ]);

    expect(merged.paths).toEqual({
      "/a": { get: { ...ok(), operationId: "getThing" } },
      "/b": { get: { ...ok(), operationId: "b_getThing" } },
    });
    expect((merged["x-linkgeo-merge"] as { conflicts: unknown[] }).conflicts).toEqual([
      { kind: "operationId", operation_id: "getThing", source: "b", renamed_to: "b_getThing" },
    ]);
  });

  test("lists a service without a spec as unavailable and one from an earlier answer as stale", () => {
    const geocoder = spec("Geocoder API", { paths: { "/geocoders": { get: ok() } } });
    const asOf = new Date("2026-11-22T07:00:00.000Z");

    const merged = mergeSpecs(own, [
      { name: "shortener", spec: undefined },
      { name: "geocoder", spec: geocoder, asOf },
    ]);

    expect(Object.keys(merged.paths)).toEqual(["/health", "/ready", "/docs", "/geocoders"]);
    expect(merged.info).toEqual({
      title: "linkgeo API",
      version: "1.0.0",
      description: [
        "gateway description",
        "",
        "Services:",
        "",
        "- **shortener**: unavailable; its operations are missing here until it answers.",
        "- **geocoder**: Geocoder API description (not answering now; as it described itself at 2026-11-22T07:00:00.000Z)",
      ].join("\n"),
    });
    expect(merged["x-linkgeo-merge"]).toEqual({
      sources: [
        { name: "gateway", status: "own" },
        { name: "shortener", status: "unavailable" },
        { name: "geocoder", status: "stale", as_of: "2026-11-22T07:00:00.000Z" },
      ],
      conflicts: [],
    });
  });

  test("leaves its inputs as they were", () => {
    const b = spec("B", {
      security: [{ bearer: [] }],
      paths: { "/b": { get: { ...jsonOf(ref("Error")), operationId: "x" } }, "/health": { get: ok() } },
      components: { schemas: { Error: { type: "string" } }, securitySchemes: { bearer: { type: "apiKey", in: "header", name: "K" } } },
      tags: [{ name: "b" }],
    });
    const before = structuredClone([own, b]);

    mergeSpecs(own, [
      { name: "b", spec: b },
      { name: "b2", spec: b },
    ]);

    expect([own, b]).toEqual(before);
  });
});

describe("asOpenApiDocument", () => {
  test.each([
    ["null", null],
    ["an error body", { error: { code: "not_found", message: "no such resource" } }],
    ["OpenAPI 2", { swagger: "2.0", info: { title: "x" }, paths: {} }],
    ["paths that are not objects", { openapi: "3.0.3", info: { title: "x" }, paths: { "/a": 1 } }],
    ["tags without names", { openapi: "3.0.3", info: { title: "x" }, paths: {}, tags: [{}] }],
  ])("rejects %s", (_, value) => {
    expect(asOpenApiDocument(value)).toBeUndefined();
  });

  test("accepts what Elysia writes, tags: null included", () => {
    const value = { openapi: "3.0.3", info: { title: "x", version: "1" }, paths: { "/a": { get: {} } }, components: { schemas: {} }, tags: null };
    expect(asOpenApiDocument(value)).toBe(value as never);
  });
});
