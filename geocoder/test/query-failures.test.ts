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
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import { startTestGeocoder, type TestGeocoder } from "./support/test-geocoder.ts";

/**
 * Every query parameter of every route the OpenAPI document describes, sent
 * values no rule takes (queryParameterCases): each 400 names the parameter,
 * so a client can tell which of its parameters to mend.
 */
describe("a query parameter no rule takes", () => {
  let geocoder: TestGeocoder;
  let answers: QueryParameterAnswer[];

  const request = (method: string, path: string, sent?: { body: string; type: string }) =>
    geocoder.app.handle(new Request(`http://localhost${path}`, { method, headers: sent ? { "content-type": sent.type } : {}, body: sent?.body }));

  beforeAll(async () => {
    geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const points = { type: "application/json", body: JSON.stringify({ points: [{ latitude: 48.2, longitude: 16.37 }] }) };
    const created = await request("POST", "/reverse-geocode/jobs", points);
    expect(created.status).toBe(202);
    const job = (await readJson(created)) as { id: string };
    const spec = await readJson(await request("GET", "/docs/json"));
    // A job's platform and language are read from the query when the body is a file.
    const bodies: Record<string, { body: string; type: string }> = {
      "POST /reverse-geocode/batch": points,
      "POST /geocode/batch": { type: "application/json", body: JSON.stringify({ queries: [{ q: "Vienna" }] }) },
      "POST /reverse-geocode/jobs": { type: "text/csv", body: "latitude,longitude\n48.2,16.37\n" },
      "POST /geocode/jobs": { type: "text/csv", body: "q\nVienna\n" },
    };
    const cases = queryParameterCases(spec, { id: job.id, latitude: "48.2", longitude: "16.37", q: "Vienna" });
    answers = await askQueryParameterCases(cases, (queryCase, target) => request(queryCase.method, target, bodies[queryCase.operation]));
  });
  afterAll(async () => {
    await geocoder[Symbol.asyncDispose]();
  });

  test("is a 400 whose message names it", () => {
    expect(namelessRefusals(answers)).toEqual([]);
  });

  test("is refused on each parameter by one of the values sent, so the check above saw every one", () => {
    expect(refusedParameters(answers).size).toBeGreaterThan(5);
    expect(neverRefusedParameters(answers)).toEqual([]);
  });
});
