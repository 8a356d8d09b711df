import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { maxJsonDepth } from "@linkgeo/shared";
import { jsonBodyOperations, nestedJson, readJson, verboseBodySchemas } from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

const tooDeep = { error: { code: "invalid_request", message: `request body nests deeper than ${maxJsonDepth} levels of arrays and objects` } };

// Parsing comes before storage: one engine is enough.
describe("JSON nested too deep, in every body and file the shortener reads", () => {
  let api: TestShortener;
  let operations: ReturnType<typeof jsonBodyOperations>;

  beforeAll(async () => {
    api = await startTestShortener();
    operations = jsonBodyOperations(await readJson(await api.request("GET", "/docs/json")));
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  test("the document lists the routes a client posts JSON to", () => {
    expect(operations.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(["POST /shorten/", "PUT /shorten/abc1234", "POST /shorten/bulk", "POST /shorten/stats", "POST /admin/login"]),
    );
  });

  test("is a 400 naming the bound under each field of each route's body and under a field no schema knows, anonymous or admin", async () => {
    const deep = nestedJson(10_000);
    const answers: Array<{ route: string; field: string; status: number; body: unknown }> = [];
    const expected: typeof answers = [];
    for (const { method, path, fields } of operations) {
      for (const field of [...fields, "no_such_field"]) {
        for (const headers of [{}, { authorization: `Bearer ${api.adminToken()}` }] as Array<Record<string, string>>) {
          const response = await api.request(method, path, { body: `{"${field}":${deep}}`, headers: { "content-type": "application/json", ...headers } });
          answers.push({ route: `${method} ${path}`, field, status: response.status, body: await readJson(response) });
          expected.push({ route: `${method} ${path}`, field, status: 400, body: tooDeep });
        }
      }
    }
    expect(answers).toEqual(expected);
    expect(answers.length).toBeGreaterThan(40);
  });

  test("a bulk item nested 20,000 levels deep among good ones is a 400 naming the bound, and no link is made", async () => {
    const before = await readJson(await api.request("GET", "/shorten/?page_size=1", { headers: { authorization: `Bearer ${api.adminToken()}` } }));
    const links = `[{"long_url":"https://example.com/a"},{"long_url":"https://example.com/b","title":${nestedJson(20_000)}}]`;
    const response = await api.request("POST", "/shorten/bulk/", {
      body: `{"links":${links}}`,
      headers: { "content-type": "application/json", authorization: `Bearer ${api.adminToken()}` },
    });
    expect([response.status, await readJson(response)]).toEqual([400, tooDeep]);
    const after = await readJson(await api.request("GET", "/shorten/?page_size=1", { headers: { authorization: `Bearer ${api.adminToken()}` } }));
    expect(after.count).toBe(before.count);
  });

  test("no route's body schema prints a failing body into Elysia's error message", () => {
    expect(api.app.routes.filter((route) => route.hooks.body).length).toBeGreaterThan(5);
    expect(verboseBodySchemas(api.app)).toEqual([]);
  });

  test("a body at the bound reaches the schema, which answers for the field", async () => {
    const response = await api.request("POST", "/shorten/", {
      body: `{"long_url":"https://example.com/","title":${nestedJson(maxJsonDepth - 1)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).not.toBe(tooDeep.error.message);
  });

  test("an import row nested too deep, as an NDJSON line or a CSV rules cell, is that row's problem; the rows beside it are imported", async () => {
    const ndjson = [
      '{"short_url":"deep-nd-1","long_url":"https://example.com/1"}',
      `{"short_url":"deep-nd-2","long_url":"https://example.com/2","title":${nestedJson(10_000)}}`,
      '{"short_url":"deep-nd-3","long_url":"https://example.com/3"}',
    ].join("\n");
    const csv = [
      "short_url,long_url,rules",
      "deep-csv-1,https://example.com/1,",
      `deep-csv-2,https://example.com/2,"${nestedJson(10_000).replaceAll('"', '""')}"`,
      "deep-csv-3,https://example.com/3,",
    ].join("\n");
    const answers: unknown[] = [];
    for (const [format, file] of [
      ["linkgeo-ndjson", ndjson],
      ["linkgeo-csv", csv],
    ] as const) {
      const response = await api.request("POST", `/admin/import?format=${format}`, {
        body: file,
        headers: { "content-type": format === "linkgeo-csv" ? "text/csv" : "application/x-ndjson", authorization: `Bearer ${api.adminToken()}` },
      });
      answers.push(
        (await response.text())
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line))
          .slice(1),
      );
    }
    expect(answers).toEqual([
      [
        { line: 2, status: "problem", reason: `the line nests deeper than ${maxJsonDepth} levels of arrays and objects` },
        { summary: { lines: 3, imported: 2, skipped: 0, problems: 1, dry_run: false, unknown_domains: [] } },
      ],
      [
        { line: 3, status: "problem", reason: `rules nests deeper than ${maxJsonDepth} levels of arrays and objects` },
        { summary: { lines: 4, imported: 2, skipped: 0, problems: 1, dry_run: false, unknown_domains: [] } },
      ],
    ]);
  });
});
