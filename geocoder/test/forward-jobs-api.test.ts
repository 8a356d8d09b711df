import { describe, expect, test } from "bun:test";
import { check } from "@placemarkio/check-geojson";
import { csvRows, readJson, reply, startFakeProvider, waitFor } from "@linkgeo/testing";
import { sharedLocalProvider } from "./support/shared-local-provider.ts";
import { resultCsvColumns } from "../src/jobs/job-results.ts";
import type { JobView } from "./support/job-view.ts";
import { startTestGeocoder, type TestGeocoder } from "./support/test-geocoder.ts";

/** LOCAL, loaded once for the test process (2 s or more of a core): shared-local-provider.ts. */
const { provider: local } = sharedLocalProvider();

interface ResultLine {
  index: number;
  id: string | number | null;
  q: string | null;
  status: "done" | "waiting" | "cancelled";
  data: Array<Record<string, unknown>>;
  error: { code: string; message: string; index: number } | null;
  provider: string | null;
  cache: string | null;
}

const send = (geocoder: TestGeocoder, method: string, path: string, body?: string, type = "application/json") =>
  geocoder.app.handle(new Request(`http://localhost${path}`, { method, headers: body === undefined ? {} : { "content-type": type }, body }));

const startJob = async (geocoder: TestGeocoder, body: string, type = "application/json", query = "") => {
  const response = await send(geocoder, "POST", `/geocode/jobs${query}`, body, type);
  expect(response.status).toBe(202);
  const job = (await readJson(response)) as JobView;
  expect(response.headers.get("location")).toBe(`/geocode/jobs/${job.id}`);
  return job;
};

const jobOf = async (geocoder: TestGeocoder, id: string) => (await readJson(await send(geocoder, "GET", `/geocode/jobs/${id}`))) as JobView;
const finished = (geocoder: TestGeocoder, id: string) => waitFor(`forward job ${id} finished`, async () => (await jobOf(geocoder, id)).status === "done");
const resultsOf = async (geocoder: TestGeocoder, id: string, format = "ndjson") =>
  (await send(geocoder, "GET", `/geocode/jobs/${id}/results?format=${format}`)).text();
const lines = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ResultLine);

// Side by side: each case makes its own geocoder (in-process caches and job store) over the file's LOCAL.
describe.concurrent("forward geocoding jobs", () => {
  test("a JSON job: names to places in the queries' order, each with its text; a bad query is its own error; CSV and GeoJSON results", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local, jobs: { run: { idleMs: 20 } } });
    const queries = [
      { id: "office", q: "Zürich", limit: 2 },
      { q: "Pairs" },
      { id: 3, q: "" },
      { q: "Paris", country: "xx" },
      { q: "Springfield", near: "39.8,-89.6", limit: 1 },
      { q: ["not", "text"] },
    ];
    const job = await startJob(geocoder, JSON.stringify({ queries, language: "en" }));
    expect(job).toMatchObject({ status: "running", total: 6, done: 3, failed: 3 });
    await finished(geocoder, job.id);
    expect(await jobOf(geocoder, job.id)).toMatchObject({ status: "done", total: 6, done: 6, failed: 3 });

    const [zurich, paris, empty, badCountry, springfield, notText] = lines(await resultsOf(geocoder, job.id));
    expect(zurich).toMatchObject({ index: 0, id: "office", q: "Zürich", status: "done", error: null, provider: "LOCAL", cache: "MISS" });
    expect(zurich!.data.length).toBeLessThanOrEqual(2);
    expect(zurich!.data[0]).toMatchObject({ settlement: "Zürich", country_code: "CH", provider_id: expect.stringMatching(/^geonames:\d+$/) });
    expect(zurich!.data[0]!.confidence as number).toBeGreaterThan(0);
    expect(paris).toMatchObject({ index: 1, id: null, q: "Pairs" });
    expect(paris!.data[0]).toMatchObject({ settlement: "Paris", country_code: "FR" });
    expect(empty).toMatchObject({ index: 2, id: 3, q: null, status: "done", data: [], provider: null });
    expect(empty!.error).toEqual({ code: "invalid_request", message: "q is required: the name or address to look for", index: 2 });
    expect(badCountry!.error).toMatchObject({ code: "invalid_request", index: 3, message: expect.stringContaining("country must be") });
    expect(springfield!.data).toEqual([expect.objectContaining({ settlement: "Springfield", state: "Illinois" })]);
    expect(notText!.error).toEqual({ code: "invalid_request", message: "q must be text", index: 5 });

    const [header, ...rows] = csvRows(await resultsOf(geocoder, job.id, "csv"));
    expect(header).toEqual([...resultCsvColumns.forward]);
    expect(rows).toHaveLength(6);
    const cell = (row: number, column: string) => rows[row]![header!.indexOf(column)];
    expect([cell(0, "id"), cell(0, "q"), cell(0, "status"), cell(0, "settlement"), cell(0, "provider")]).toEqual([
      "office",
      "Zürich",
      "done",
      "Zürich",
      "LOCAL",
    ]);
    expect(Number(cell(0, "latitude"))).toBeCloseTo(47.37, 1);
    expect(cell(2, "error")).toBe("invalid_request: q is required: the name or address to look for");

    const geojson = await resultsOf(geocoder, job.id, "geojson");
    const collection = check(geojson) as unknown as { features: Array<{ geometry: { coordinates: number[] } | null; properties: Record<string, unknown> }> };
    // A feature per place at the place's own point; a query with none (an error) one feature without a point.
    const zurichFeatures = collection.features.filter((feature) => feature.properties.index === 0);
    expect(zurichFeatures.length).toBe(zurich!.data.length);
    expect(zurichFeatures[0]!.geometry!.coordinates.map(Math.round)).toEqual([9, 47]);
    expect(zurichFeatures[0]!.properties).toMatchObject({ q: "Zürich", id: "office", settlement: "Zürich", provider: "LOCAL" });
    expect(collection.features.filter((feature) => feature.properties.index === 2)).toEqual([
      expect.objectContaining({ geometry: null, properties: expect.objectContaining({ settlement: null, error: expect.objectContaining({ index: 2 }) }) }),
    ]);
  });

  test("a CSV file: the question's column by name, an id column, country and limit for every row from the query; an NDJSON file's lines their own", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local, jobs: { run: { idleMs: 20 } } });
    const csv = 'id,Address,note\r\nshop-1,London,"a, b"\r\nshop-2,Paris,x\r\n';
    const fromCsv = await startJob(geocoder, csv, "text/csv", "?country=ca,us&limit=1");
    await finished(geocoder, fromCsv.id);
    const [london, paris] = lines(await resultsOf(geocoder, fromCsv.id));
    expect(london).toMatchObject({
      id: "shop-1",
      q: "London",
      data: [expect.objectContaining({ settlement: "London", state: "Ontario", country_code: "CA" })],
    });
    expect(paris!.data).toHaveLength(1);
    expect(paris!.data[0]).toMatchObject({ settlement: "Paris", country_code: "US" });

    const ndjson = ['{"id":1,"q":"Springfield IL"}', "not json", '{"q":"London","limit":3}', '{"q":"London","country":"gb","limit":"1"}', "[1]"].join("\n");
    const fromNdjson = await startJob(geocoder, ndjson, "application/x-ndjson", "?limit=2");
    await finished(geocoder, fromNdjson.id);
    const [springfield, broken, londons, english, list] = lines(await resultsOf(geocoder, fromNdjson.id));
    expect(springfield).toMatchObject({ id: 1, q: "Springfield IL" });
    expect(springfield!.data).toHaveLength(2);
    expect(springfield!.data[0]).toMatchObject({ state: "Illinois" });
    expect(broken!.error).toEqual({ code: "invalid_request", message: "line 2: not a JSON object with q", index: 1 });
    expect(londons!.data).toHaveLength(3);
    expect(english!.data).toEqual([expect.objectContaining({ settlement: "London", country_code: "GB" })]);
    expect(list!.error).toMatchObject({ index: 4, message: "line 5: not a JSON object with q" });

    // text/plain is NDJSON when it starts with {, else CSV.
    const plain = await startJob(geocoder, "q\nZurich\n", "text/plain");
    await finished(geocoder, plain.id);
    expect(lines(await resultsOf(geocoder, plain.id))[0]!.data[0]).toMatchObject({ settlement: "Zürich" });
  });

  test("a body out of shape, a file without the question's column, or a platform with no forward search is a 400", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const refusals = [
      [JSON.stringify({ queries: "Paris" }), "application/json", "", "queries must be a list of 1 to 100000 objects with q"],
      [JSON.stringify({ points: [{ latitude: 1, longitude: 2 }] }), "application/json", "", "queries must be a list of 1 to 100000 objects with q"],
      [JSON.stringify({ queries: [] }), "application/json", "", undefined],
      ["latitude,longitude\n1,2\n", "text/csv", "", "the header names no column to look for"],
      ["q\nParis\n", "text/csv", "?platform=nominatim", "nominatim"],
      ["q\nParis\n", "text/csv", "?limit=0", "limit must be a whole number from 1 to 20"],
      ["q\nParis\n", "text/csv", "?country=France", "country must be"],
    ] as const;
    for (const [body, type, query, message] of refusals) {
      const response = await send(geocoder, "POST", `/geocode/jobs${query}`, body, type);
      const answer = (await readJson(response)) as { error: { message: string } };
      expect({ body, query, status: response.status }).toEqual({ body, query, status: 400 });
      if (message) expect(answer.error.message).toContain(message);
    }
  });

  test("an item's fields beyond its question are not kept; a file's country and limit fill a line's null, and with a JSON body are a 400", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local, jobs: { run: { idleMs: 20 } } });
    // `refused` is what a broken row of a file is stored with: sent in JSON, it is nobody's business.
    const smuggled = await startJob(geocoder, JSON.stringify({ queries: [{ q: "Zurich", refused: { toString: 1 }, result: "x" }] }));
    await finished(geocoder, smuggled.id);
    const [line] = lines(await resultsOf(geocoder, smuggled.id));
    expect(line).toMatchObject({ q: "Zurich", error: null });
    expect(line!.data[0]).toMatchObject({ settlement: "Zürich" });
    expect((await resultsOf(geocoder, smuggled.id, "csv")).split("\r\n")).toHaveLength(3);

    const ndjson = await startJob(geocoder, '{"q":"London","country":null,"limit":null}\n', "application/x-ndjson", "?country=ca&limit=1");
    await finished(geocoder, ndjson.id);
    expect(lines(await resultsOf(geocoder, ndjson.id))[0]!.data).toEqual([expect.objectContaining({ settlement: "London", country_code: "CA" })]);

    const json = await send(geocoder, "POST", "/geocode/jobs?country=ca", JSON.stringify({ queries: [{ q: "London" }] }));
    expect(json.status).toBe(400);
    expect(((await readJson(json)) as { error: { message: string } }).error.message).toBe(
      "country and limit in the query string are for a file; a JSON body gives them per query",
    );
  });

  test("the kinds are apart: a reverse job's id is no forward job's (404 on every route, nothing cancelled), and the other way round", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const reverse = (await readJson(
      await send(geocoder, "POST", "/reverse-geocode/jobs", JSON.stringify({ points: [{ latitude: 48.86, longitude: 2.35 }] })),
    )) as JobView;
    const forward = await startJob(geocoder, JSON.stringify({ queries: [{ q: "Paris" }] }));
    for (const [id, wrong] of [
      [reverse.id, "/geocode/jobs"],
      [forward.id, "/reverse-geocode/jobs"],
    ] as const) {
      for (const [method, suffix] of [
        ["GET", ""],
        ["GET", "/results"],
        ["DELETE", ""],
      ] as const) {
        expect({ wrong, method, suffix, status: (await send(geocoder, method, `${wrong}/${id}${suffix}`)).status }).toEqual({
          wrong,
          method,
          suffix,
          status: 404,
        });
      }
    }
    expect(((await readJson(await send(geocoder, "GET", `/reverse-geocode/jobs/${reverse.id}`))) as JobView).status).toBe("running");
    expect((await jobOf(geocoder, forward.id)).status).toBe("running");
  });

  test("DELETE cancels a forward job: its queries left are never asked and say so", async () => {
    // No runner: nothing is answered, so every query is still waiting when the job is cancelled.
    await using geocoder = startTestGeocoder({ providers: {}, local });
    const job = await startJob(geocoder, JSON.stringify({ queries: [{ q: "Paris" }, { q: "" }] }));
    const cancelled = (await readJson(await send(geocoder, "DELETE", `/geocode/jobs/${job.id}`))) as JobView;
    expect(cancelled).toMatchObject({ status: "cancelled", total: 2, done: 1, failed: 1 });
    expect(lines(await resultsOf(geocoder, job.id)).map((line) => [line.q, line.status])).toEqual([
      ["Paris", "cancelled"],
      [null, "done"],
    ]);
  });

  test("down the provider chain at the providers' pace: a network provider's answer, equal queries asked once, each place with the provider's id", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-fwd-01-paris-fr-us-jsonv2.json") });
    await using geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "linkgeo-test", url: nominatim.url().toString() } },
      local,
      jobs: { run: { idleMs: 20 } },
    });
    const job = await startJob(
      geocoder,
      JSON.stringify({
        queries: [
          { q: "Paris", country: "fr,us" },
          { id: "again", q: "paris", country: ["US", "FR"] },
        ],
        language: "fr",
      }),
    );
    await finished(geocoder, job.id);
    const [first, again] = lines(await resultsOf(geocoder, job.id));
    expect(first).toMatchObject({ provider: "NOMINATIM", cache: "MISS" });
    expect(first!.data.map((place) => [place.settlement, place.country_code, place.provider_id])).toEqual([
      ["Paris", "FR", "relation/7444"],
      ["Paris", "US", "relation/115357"],
    ]);
    expect(again!.data).toEqual(first!.data);
    expect(nominatim.requests).toHaveLength(1);
    // Asked as one of the two equal queries says it (the same key: case, spacing and the countries' order aside).
    expect(Object.fromEntries(nominatim.requests[0]!.url.searchParams)).toMatchObject({ q: expect.stringMatching(/^paris$/i), "accept-language": "fr" });
  });
});
