import { describe, expect, test } from "bun:test";
import { maxJsonDepth } from "@linkgeo/shared";
import { jsonBodyOperations, nestedJson, readJson, verboseBodySchemas, waitFor } from "@linkgeo/testing";
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import { startTestGeocoder, type TestGeocoder } from "./support/test-geocoder.ts";

const tooDeep = `request body nests deeper than ${maxJsonDepth} levels of arrays and objects`;

const post = (geocoder: TestGeocoder, path: string, body: string, type = "application/json") =>
  geocoder.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": type }, body }));

describe("a JSON body nested too deep, on every JSON route of the geocoder", () => {
  test("is a 400 naming the bound, in the envelope, under each field of each route's body and under one no schema knows", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const operations = jsonBodyOperations(await readJson(await geocoder.get("/docs/json")));
    expect(operations.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(["POST /reverse-geocode/batch", "POST /reverse-geocode/jobs"]),
    );
    const deep = nestedJson(10_000);
    const answers: Array<{ route: string; field: string; status: number; body: unknown }> = [];
    for (const { method, path, fields } of operations) {
      for (const field of [...fields, "no_such_field"]) {
        const response = await post(geocoder, path, `{"points":[{"latitude":1,"longitude":2}],"${field}":${deep}}`);
        answers.push({ route: `${method} ${path}`, field, status: response.status, body: await readJson(response) });
      }
    }
    expect(answers).toEqual(
      answers.map(({ route, field }) => ({
        route,
        field,
        status: 400,
        body: { success: false, data: [], error: { code: "invalid_request", message: tooDeep } },
      })),
    );
    expect(answers.map(({ field }) => field)).toEqual(expect.arrayContaining(["points", "language", "platform", "no_such_field"]));
  });

  test("no route's body schema prints a failing body into Elysia's error message", async () => {
    await using geocoder = startTestGeocoder({ providers: {} });
    expect(geocoder.app.routes.filter((route) => route.hooks.body).length).toBeGreaterThan(0);
    expect(verboseBodySchemas(geocoder.app)).toEqual([]);
  });

  test("a line of a job's NDJSON file nested too deep is that point's error; the points beside it are answered", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), jobs: { run: { idleMs: 20 } } });
    const file = [
      '{"latitude":48.2,"longitude":16.37,"id":1}',
      `{"latitude":48.2,"longitude":16.37,"id":${nestedJson(10_000)}}`,
      '{"latitude":48.2,"longitude":16.37,"id":3}',
    ];
    const created = await post(geocoder, "/reverse-geocode/jobs", file.join("\n"), "application/x-ndjson");
    expect(created.status).toBe(202);
    const { id } = (await readJson(created)) as { id: string };
    await waitFor(
      "the job finished",
      async () => ((await readJson(await geocoder.get(`/reverse-geocode/jobs/${id}`))) as { status: string }).status === "done",
    );
    const lines = (await (await geocoder.get(`/reverse-geocode/jobs/${id}/results`)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: unknown; provider: string | null; error: { message: string } | null });
    expect(lines.map((line) => [line.id, line.error?.message ?? line.provider])).toEqual([
      [1, "LOCAL"],
      [null, `line 2: nests deeper than ${maxJsonDepth} levels of arrays and objects`],
      [3, "LOCAL"],
    ]);
  });
});
