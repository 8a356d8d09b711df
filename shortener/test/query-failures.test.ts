import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  askQueryParameterCases,
  namelessRefusals,
  neverRefusedParameters,
  type QueryParameterAnswer,
  queryParameterCases,
  readJson,
  refusedParameters,
} from "@linkgeo/testing";
import { startTestShortener, type TestShortener } from "./support/test-shortener.ts";

/**
 * Every query parameter of every route the OpenAPI document describes, sent
 * values no rule takes (queryParameterCases): each 400 names the parameter,
 * so a client can tell which of its parameters to mend.
 */

describe("a query parameter no rule takes", () => {
  let api: TestShortener;
  let answers: QueryParameterAnswer[];

  beforeAll(async () => {
    api = await startTestShortener();
    const auth = { authorization: `Bearer ${api.adminToken()}` };
    expect((await api.request("POST", "/shorten/", { json: { long_url: "https://example.com/", short_url: "query-case" }, headers: auth })).status).toBe(201);
    const spec = await readJson(await api.request("GET", "/docs/json"));
    const bodies: Record<string, { body: string; headers: Record<string, string> }> = {
      "POST /admin/import": { body: '{"long_url":"https://example.com/imported"}\n', headers: { "content-type": "application/x-ndjson" } },
      "PUT /shorten/{short_url}": { body: '{"long_url":"https://example.com/changed"}', headers: { "content-type": "application/json" } },
    };
    // A DELETE whose bad value is taken (an empty ?domain= is the default domain) deletes the link: such cases go last.
    const cases = queryParameterCases(spec, { short_url: "query-case", codes: "query-case", id: "1" }).sort(
      (a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"),
    );
    answers = await askQueryParameterCases(cases, (queryCase, target) => {
      const sent = bodies[queryCase.operation];
      return api.request(queryCase.method, target, { body: sent?.body, headers: { ...auth, ...sent?.headers } });
    });
  });
  afterAll(async () => {
    await api[Symbol.asyncDispose]();
  });

  test("is a 400 whose message names it", () => {
    expect(answers.filter((answer) => answer.status === 400).length).toBeGreaterThan(0);
    expect(namelessRefusals(answers)).toEqual([]);
  });

  test("is refused on each parameter by one of the values sent, so the check above saw every one", () => {
    expect(refusedParameters(answers).size).toBeGreaterThan(30);
    expect(neverRefusedParameters(answers)).toEqual([]);
  });

  test.each([
    ["page_size=101", "page_size must be a whole number from 1 to 100"],
    ["page_size=0", "page_size must be a whole number from 1 to 100"],
    ["page_size=twenty", "page_size must be a whole number from 1 to 100"],
    ["page=0", "page must be a whole number from 1 to 1000000"],
    ["page=1.5", "page must be a whole number from 1 to 1000000"],
  ])("GET /shorten/?%s names the parameter and its range", async (query, message) => {
    const response = await api.request("GET", `/shorten/?${query}`, { headers: { authorization: `Bearer ${api.adminToken()}` } });
    expect([response.status, await readJson(response)]).toEqual([400, { error: { code: "invalid_request", message } }]);
  });
});
