import { describe, expect, test } from "bun:test";
import { check } from "@placemarkio/check-geojson";
import { createLogger, maxJobBodyBytes, maxJobPoints } from "@linkgeo/shared";
import { readJson, reply, startFakeProvider, waitFor } from "@linkgeo/testing";
import { readGeocoderConfig } from "../src/config.ts";
import { pointsRetryAfterSeconds, type JobQuota } from "../src/jobs/job-quota.ts";
import { minJobBytes } from "../src/jobs/job-size.ts";
import { openJobDatabase, SqliteJobStore } from "../src/jobs/sqlite-job-store.ts";
import { inProcessProvider, localVienna } from "./support/in-process-provider.ts";
import type { JobView } from "./support/job-view.ts";
import { startTestGeocoder, type TestGeocoder } from "./support/test-geocoder.ts";

interface ResultLine {
  index: number;
  id: string | number | null;
  latitude: number | null;
  longitude: number | null;
  status: "done" | "waiting" | "cancelled";
  data: Array<Record<string, unknown>>;
  error: { code: string; message: string; index: number } | null;
  provider: string | null;
  cache: string | null;
}

const request = (geocoder: TestGeocoder, method: string, path: string, init: { body?: string | Uint8Array; type?: string; accept?: string } = {}) =>
  geocoder.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...(init.body === undefined ? {} : { "content-type": init.type ?? "application/json" }), ...(init.accept ? { accept: init.accept } : {}) },
      body: init.body,
    }),
  );

const createJob = async (geocoder: TestGeocoder, body: unknown, query = "") => {
  const response = await request(geocoder, "POST", `/reverse-geocode/jobs${query}`, { body: JSON.stringify(body) });
  expect(response.status).toBe(202);
  return { response, job: (await readJson(response)) as JobView };
};

const jobOf = async (geocoder: TestGeocoder, id: string) => (await readJson(await request(geocoder, "GET", `/reverse-geocode/jobs/${id}`))) as JobView;
const finished = (geocoder: TestGeocoder, id: string) => waitFor(`job ${id} finished`, async () => (await jobOf(geocoder, id)).status === "done");
const resultLines = async (geocoder: TestGeocoder, id: string) =>
  (await (await request(geocoder, "GET", `/reverse-geocode/jobs/${id}/results`)).text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ResultLine);

const paris = { latitude: 48.8606, longitude: 2.3508 };

// Side by side: each case makes its own fake providers and geocoder (in-process caches and job
// store) and spends most of its time waiting on their deadlines and pace; the two that read
// megabytes on this thread run alone (test.serial).
describe.concurrent("geocoding jobs", () => {
  test("a JSON job: 202 with its id in Location, answered in the background in the points' order, equal points asked once, bad points their own errors", async () => {
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    await using geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() } },
      jobs: { run: { idleMs: 20 } },
    });
    const points = [
      { id: "first", ...paris },
      { id: 2, latitude: "48.1", longitude: "2.1" },
      { id: "too far north", latitude: 91, longitude: 0 },
      { ...paris },
      { id: "not a number", latitude: "NaN", longitude: 2 },
      { id: "infinite", latitude: "Infinity", longitude: 2 },
      { id: "an object", latitude: { degrees: 48 }, longitude: 2 },
    ];
    const { response, job } = await createJob(geocoder, { points, language: "fr" });
    expect(job).toMatchObject({ status: "running", total: 7, done: 4, failed: 4, platform: null, language: "fr", finished_at: null, expires_at: null });
    expect(job.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(response.headers.get("location")).toBe(`/reverse-geocode/jobs/${job.id}`);

    await finished(geocoder, job.id);
    expect(await jobOf(geocoder, job.id)).toMatchObject({
      status: "done",
      total: 7,
      done: 7,
      failed: 4,
      finished_at: expect.any(String),
      expires_at: expect.any(String),
    });
    const lines = await resultLines(geocoder, job.id);
    expect(lines.map((line) => [line.index, line.id, line.status, line.provider, line.error?.code ?? null])).toEqual([
      [0, "first", "done", "NOMINATIM", null],
      [1, 2, "done", "NOMINATIM", null],
      [2, "too far north", "done", null, "invalid_coordinates"],
      [3, null, "done", "NOMINATIM", null],
      [4, "not a number", "done", null, "invalid_coordinates"],
      [5, "infinite", "done", null, "invalid_coordinates"],
      [6, "an object", "done", null, "invalid_coordinates"],
    ]);
    expect(lines[0]).toMatchObject({ latitude: 48.8606, longitude: 2.3508, data: [expect.objectContaining({ country_code: "FR" })] });
    expect(lines[2]!.error).toEqual({ code: "invalid_coordinates", message: "latitude must be between -90 and 90", index: 2 });
    // Two distinct points asked, each once, in French.
    expect(nominatim.requests).toHaveLength(2);
    expect(nominatim.requests.every((asked) => asked.url.searchParams.get("accept-language") === "fr")).toBe(true);
  });

  test("results as CSV and as GeoJSON (checked against RFC 7946), by format= or by Accept; a bad format is a 400", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), jobs: { run: { idleMs: 20 } } });
    const { job } = await createJob(geocoder, {
      points: [
        { id: "v", latitude: 48.2, longitude: 16.37 },
        { id: "bad", latitude: 100, longitude: 0 },
      ],
    });
    await finished(geocoder, job.id);

    const csv = await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results?format=csv`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const rows = (await csv.text()).trim().split("\r\n");
    expect(rows[0]).toStartWith("index,id,latitude,longitude,status,formatted_address,");
    expect(rows[1]).toStartWith('0,v,48.2,16.37,done,"Vienna, Vienna, Austria",');
    expect(rows[1]).toContain(",LOCAL,MISS,");
    expect(rows[2]).toEndWith(",invalid_coordinates: latitude must be between -90 and 90");

    for (const [query, accept] of [
      ["?format=geojson", undefined],
      ["", "application/geo+json"],
    ] as const) {
      const response = await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results${query}`, { accept });
      expect(response.headers.get("content-type")).toBe("application/geo+json");
      const collection = check(await response.text());
      expect(
        collection.features.map((feature: { geometry: { type: string } | null; properties: Record<string, unknown> | null }) => [
          feature.geometry?.type ?? null,
          feature.properties?.id,
          feature.properties?.status,
        ]),
      ).toEqual([
        ["Point", "v", "done"],
        [null, "bad", "done"],
      ]);
      expect(collection.features[0]!.geometry).toEqual({ type: "Point", coordinates: [16.37, 48.2] });
    }
    expect((await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results?format=xml`)).status).toBe(400);
  });

  test("a CSV file: columns by name, an id column, a platform in the query; a broken row is its own error; without the columns it is a 400", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), jobs: { run: { idleMs: 20 } } });
    const file = 'Name,ID,Lat,Lng\r\nOpera,op-1,48.2031,16.3691\r\n"broken,op-2,48.2,16.3\r\nStation,op-3,48.18,16.37\r\n';
    const response = await request(geocoder, "POST", "/reverse-geocode/jobs?platform=local&language=de", { body: file, type: "text/csv" });
    expect(response.status).toBe(202);
    const job = (await readJson(response)) as JobView;
    expect(job).toMatchObject({ platform: "local", language: "de" });
    await finished(geocoder, job.id);
    const lines = await resultLines(geocoder, job.id);
    // The broken quote swallows the rest of its line only: the row after it is read on its own.
    expect(lines.map((line) => [line.id, line.provider, line.error?.code ?? null])).toEqual([
      ["op-1", "LOCAL", null],
      [null, null, "invalid_request"],
      ["op-3", "LOCAL", null],
    ]);
    expect(lines[1]!.error!.message).toStartWith("line 3: ");

    const noColumns = await request(geocoder, "POST", "/reverse-geocode/jobs", { body: "name,x,y\r\na,1,2\r\n", type: "text/csv" });
    expect(noColumns.status).toBe(400);
    expect(((await readJson(noColumns)) as { error: { message: string } }).error.message).toContain("no latitude column");
  });

  test("a CSV file's text marks (') are taken off; the results CSV writes ids and addresses a spreadsheet would run as text, negative coordinates as numbers", async () => {
    const hostile = { ...localVienna, formatted_address: "@SUM(A1:A9)", street: '=HYPERLINK("https://evil.example","click")' };
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([hostile]), jobs: { run: { idleMs: 20 } } });
    // A results CSV of ours sent again (its id marked), and a negative latitude a spreadsheet tool marked as text.
    const file = "id,latitude,longitude\r\n\"'=1+2\",-33.8688,151.2093\r\n-2-3,'-33.9,151.2\r\n'Tis,-1,-2\r\n";
    const response = await request(geocoder, "POST", "/reverse-geocode/jobs", { body: file, type: "text/csv" });
    expect(response.status).toBe(202);
    const job = (await readJson(response)) as JobView;
    await finished(geocoder, job.id);
    expect((await resultLines(geocoder, job.id)).map((line) => [line.id, line.latitude, line.longitude, line.error])).toEqual([
      ["=1+2", -33.8688, 151.2093, null],
      ["-2-3", -33.9, 151.2, null],
      ["'Tis", -1, -2, null],
    ]);

    const csv = await (await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results?format=csv`)).text();
    const address = `"'@SUM(A1:A9)",,Austria,AT,Vienna,,Vienna,"'=HYPERLINK(""https://evil.example"",""click"")",`;
    expect(csv.split("\r\n")).toEqual([
      "index,id,latitude,longitude,status,formatted_address,postcode,country,country_code,state,district,settlement,street,house,provider,cache,error",
      `0,"'=1+2",-33.8688,151.2093,done,${address},LOCAL,MISS,`,
      `1,"'-2-3",-33.9,151.2,done,${address},LOCAL,MISS,`,
      `2,'Tis,-1,-2,done,${address},LOCAL,MISS,`,
      "",
    ]);
  });

  test("an NDJSON file: one point per line, a line that is not a point is its own error", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), jobs: { run: { idleMs: 20 } } });
    const file = [
      '{"latitude":48.2,"longitude":16.37,"id":1}',
      "",
      "not json",
      '{"latitude":48.2,"longitude":16.37,"id":{"x":1}}',
      '["list"]',
      '{"latitude":"48.3","longitude":"16.4"}',
    ].join("\n");
    const response = await request(geocoder, "POST", "/reverse-geocode/jobs", { body: file, type: "application/x-ndjson" });
    expect(response.status).toBe(202);
    const job = (await readJson(response)) as JobView;
    expect(job.total).toBe(5);
    await finished(geocoder, job.id);
    expect((await resultLines(geocoder, job.id)).map((line) => [line.id, line.error?.message ?? line.provider])).toEqual([
      [1, "LOCAL"],
      [null, "line 3: not a JSON object with latitude and longitude"],
      [null, "line 4: id must be a string or a number"],
      [null, "line 5: not a JSON object with latitude and longitude"],
      [null, "LOCAL"],
    ]);
  });

  test("text/plain is NDJSON when it starts with {, else CSV", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), jobs: { run: { idleMs: 20 } } });
    for (const body of ['{"latitude":48.2,"longitude":16.37,"id":"n"}\n', "id,lat,lon\nc,48.2,16.37\n"]) {
      const response = await request(geocoder, "POST", "/reverse-geocode/jobs", { body, type: "text/plain; charset=utf-8" });
      expect(response.status).toBe(202);
      const job = (await readJson(response)) as JobView;
      await finished(geocoder, job.id);
      expect((await resultLines(geocoder, job.id)).map((line) => [line.id, line.provider])).toEqual([[body.startsWith("{") ? "n" : "c", "LOCAL"]]);
    }
  });

  // Alone (test.serial): answering 20,000 points keeps this thread busy.
  test.serial("a job answered offline leaves the process free to serve requests between its claims", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), jobs: { run: { idleMs: 20 } } });
    const server = geocoder.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      // Distinct points, so each is asked: a few seconds of work at LOCAL's pace, settled without any I/O.
      const points = Array.from({ length: 20_000 }, (_, i) => ({ latitude: 48 + i / 100_000, longitude: 16 }));
      const { job } = await createJob(geocoder, { points });
      const health = await fetch(`http://127.0.0.1:${server.server!.port}/health`);
      expect(health.status).toBe(200);
      // Answered while the job runs, not once it is done.
      const progress = await jobOf(geocoder, job.id);
      expect({ status: progress.status, doneBeforeAll: progress.done < progress.total }).toEqual({ status: "running", doneBeforeAll: true });
    } finally {
      await server.stop(true);
    }
  });

  // Alone (test.serial): its 16 MiB are read on this thread, which would hold up the timers of the cases beside it.
  test.serial("16 MiB of tiny items is refused as more points than a job holds, before they are made into points", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const limit = maxJobBodyBytes - 1024;
    const bodies: Array<[string, string]> = [
      ["application/json", `{"points":[${"{},".repeat(Math.floor(limit / 3) - 1)}{}]}`],
      ["application/x-ndjson", "x\n".repeat(Math.floor(limit / 2))],
      ["text/csv", `latitude,longitude\n${"1\n".repeat(Math.floor(limit / 2) - 20)}`],
    ];
    for (const [type, body] of bodies) {
      const response = await request(geocoder, "POST", "/reverse-geocode/jobs", { body, type });
      expect({ type, status: response.status, error: ((await readJson(response)) as { error: { message: string } }).error.message }).toEqual({
        type,
        status: 400,
        error: `a job holds 1 to ${maxJobPoints} points`,
      });
    }
    // Braces inside strings are no objects: points whose ids are full of them are fine.
    const braces = JSON.stringify({ points: Array.from({ length: 1_000 }, (_, i) => ({ id: `{{${i}}}`.padEnd(100, "{"), latitude: 48.2, longitude: 16.37 })) });
    expect((await request(geocoder, "POST", "/reverse-geocode/jobs", { body: braces })).status).toBe(202);
  });

  test.each([
    ["no points", { points: [] }, 400, "invalid_request"],
    ["points not a list", { points: "48,2" }, 400, "invalid_request"],
    ["a point that is a list", { points: [[48, 2]] }, 400, "invalid_request"],
    ["an id over 200 characters", { points: [{ ...paris, id: "x".repeat(201) }] }, 400, "invalid_request"],
    ["an unknown platform", { points: [paris], platform: "atlantis" }, 400, "unknown_platform"],
    ["a bad language", { points: [paris], language: "fr_FR!" }, 400, "invalid_request"],
    ["one point too many", { points: Array.from({ length: maxJobPoints + 1 }, () => paris) }, 400, "invalid_request"],
  ])("%s is refused whole", async (_, body, status, code) => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const response = await request(geocoder, "POST", "/reverse-geocode/jobs", { body: JSON.stringify(body) });
    expect(response.status).toBe(status);
    expect(((await readJson(response)) as { error: { code: string } }).error.code).toBe(code);
  });

  // Alone, as the one above: a file past the limit is read on this thread.
  test.serial("files that are not text, too big, empty, or JSON that is not an object are refused with 415, 413 and 400", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const post = (body: string | Uint8Array, type: string) => request(geocoder, "POST", "/reverse-geocode/jobs", { body, type });
    expect((await post(new Uint8Array([0x6c, 0x61, 0x74, 0x00, 0x0a]), "text/csv")).status).toBe(415);
    expect((await post(new Uint8Array([0x6c, 0x61, 0xff, 0xfe, 0x0a]), "text/csv")).status).toBe(415);
    expect((await post("latitude,longitude\r\n", "text/csv")).status).toBe(400);
    expect((await post("", "text/csv")).status).toBe(400);
    expect((await post("[1,2]", "application/json")).status).toBe(400);
    expect((await post("<points/>", "application/xml")).status).toBe(415);
    const huge = `latitude,longitude\n${"48.1,2.1\n".repeat(Math.ceil(maxJobBodyBytes / 9) + 1)}`;
    expect((await post(huge, "text/csv")).status).toBe(413);
  });

  test("an unknown id is a 404 on every route; a job is found only by its own id", async () => {
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]) });
    const { job } = await createJob(geocoder, { points: [paris] });
    const guesses = [
      "AAAAAAAAAAAAAAAAAAAAAAAA",
      job.id.slice(0, -1),
      `${job.id}x`,
      job.id.toLowerCase() === job.id ? job.id.toUpperCase() : job.id.toLowerCase(),
      "%00",
      "..%2F..",
    ];
    for (const guess of guesses) {
      for (const [method, suffix] of [
        ["GET", ""],
        ["GET", "/results"],
        ["DELETE", ""],
      ] as const) {
        const response = await request(geocoder, method, `/reverse-geocode/jobs/${guess}${suffix}`);
        expect({ guess, method, suffix, status: response.status }).toEqual({ guess, method, suffix, status: 404 });
      }
    }
    expect((await jobOf(geocoder, job.id)).status).toBe("running");
  });

  test("DELETE cancels: the points left are never asked, the results so far stay; a finished job expires and is gone", async () => {
    let now = Date.parse("2026-11-27T10:00:00Z");
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    const geocoder = startTestGeocoder({
      // 20 a second: a claim of 40 points would take 2 s.
      providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() }, rateLimits: { NOMINATIM: 20 } },
      clock: () => new Date(now),
      jobs: { run: { idleMs: 20, claimSize: 40, pruneEveryMs: 0, watchMs: 10 }, ttlMs: 60_000 },
    });
    const points = Array.from({ length: 40 }, (_, i) => ({ id: i, latitude: 48 + i / 100, longitude: 2 }));
    const { job } = await createJob(geocoder, { points });
    // A claim's results are written together at its end: the provider's requests say it is under way.
    await waitFor("a few points asked", () => nominatim.requests.length >= 3);
    expect(new Set((await resultLines(geocoder, job.id)).map((line) => line.status))).toEqual(new Set(["waiting"]));
    const cancelled = (await readJson(await request(geocoder, "DELETE", `/reverse-geocode/jobs/${job.id}`))) as JobView;
    expect(cancelled).toMatchObject({ status: "cancelled", finished_at: new Date(now).toISOString(), expires_at: new Date(now + 60_000).toISOString() });
    const asked = nominatim.requests.length;
    const lines = await resultLines(geocoder, job.id);
    expect(lines).toHaveLength(40);
    // The claim's few answers came after the cancellation: none is written. No point is left waiting: none ever will be asked.
    expect(new Set(lines.map((line) => line.status))).toEqual(new Set(["cancelled"]));
    const csv = (await (await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results?format=csv`)).text()).trim().split("\n");
    expect(new Set(csv.slice(1).map((row) => row.split(",")[4]))).toEqual(new Set(["cancelled"]));
    const geojson = await readJson(await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results?format=geojson`));
    expect(new Set(geojson.features.map((feature: { properties: { status: string } }) => feature.properties.status))).toEqual(new Set(["cancelled"]));
    expect((await jobOf(geocoder, job.id)).status).toBe("cancelled");

    now += 60_000;
    await waitFor("the job expired", async () => (await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}`)).status === 404);
    expect((await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results`)).status).toBe(404);
    // Once the runner has stopped: the claim was stopped within a watch (10 ms) of the cancellation, so at most the
    // points then in flight (4) and the one whose slot came meanwhile were asked after it, not the claim's 40.
    await geocoder[Symbol.asyncDispose]();
    expect(nominatim.requests.length).toBeLessThanOrEqual(asked + 5);
  });

  test("a claim stopped because the spacing can no longer be shared gives its points back unanswered, never to LOCAL", async () => {
    let shared = true;
    await using nominatim = startFakeProvider({ otherwise: reply.fixture("nominatim-01-paris-rue-quincampoix-fr-jsonv2.json") });
    await using geocoder = startTestGeocoder({
      providers: { nominatim: { userAgent: "test/1.0", url: nominatim.url().toString() }, rateLimits: { NOMINATIM: 20 } },
      local: inProcessProvider([localVienna]),
      jobs: { run: { idleMs: 10, claimSize: 40, watchMs: 10, spacingShared: () => shared } },
    });
    const { job } = await createJob(geocoder, { points: Array.from({ length: 40 }, (_, i) => ({ id: i, latitude: 48 + i / 100, longitude: 2 })) });
    await waitFor("a few points answered", () => nominatim.requests.length >= 3);
    shared = false;
    const asked = nominatim.requests.length;
    await waitFor("the claim given back", async () => {
      const lines = await resultLines(geocoder, job.id);
      return lines.filter((line) => line.status === "done").length <= asked + 5 && (await geocoder.jobStore.claim("probe", 1, Date.now(), 1)).length === 1;
    });
    expect((await resultLines(geocoder, job.id)).filter((line) => line.provider === "LOCAL")).toEqual([]);
    shared = true;
    await finished(geocoder, job.id);
    expect((await resultLines(geocoder, job.id)).every((line) => line.provider === "NOMINATIM")).toBe(true);
  });

  test("while the providers' spacing cannot be shared (Redis down), a replica answers no job's points; once it can, it does", async () => {
    let shared = false;
    let turns = 0;
    await using geocoder = startTestGeocoder({
      providers: {},
      local: inProcessProvider([localVienna]),
      jobs: {
        run: {
          idleMs: 10,
          spacingShared: () => {
            turns++;
            return shared;
          },
        },
      },
    });
    const { job } = await createJob(geocoder, { points: [paris, { latitude: 48.2, longitude: 16.37 }] });
    // Ten turns of the runner after the job was made, each of which found it may not claim.
    const before = turns;
    await waitFor("ten turns", () => turns >= before + 10);
    expect((await jobOf(geocoder, job.id)).done).toBe(0);
    shared = true;
    await finished(geocoder, job.id);
  });

  test("a jobs' store that fails or hangs is a 503 with Retry-After, within its deadline; the runner lives and goes on once it is back", async () => {
    const real = new SqliteJobStore(openJobDatabase(":memory:"));
    let state: "up" | "failing" | "hanging" = "up";
    const flaky = new Proxy(real, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== "function" || name === "close") return value;
        return (...args: unknown[]) => {
          if (state === "failing") return Promise.reject(new Error("SQLITE_IOERR: disk I/O error"));
          if (state === "hanging") return new Promise(() => {});
          return value.apply(target, args);
        };
      },
    });
    await using geocoder = startTestGeocoder({
      providers: {},
      local: inProcessProvider([localVienna]),
      jobs: { store: flaky, timeoutMs: 100, run: { idleMs: 10 } },
    });
    const { job } = await createJob(geocoder, { points: [paris] });
    await finished(geocoder, job.id);
    for (const broken of ["failing", "hanging"] as const) {
      state = broken;
      const started = performance.now();
      for (const [method, path, body] of [
        ["POST", "/reverse-geocode/jobs", JSON.stringify({ points: [paris] })],
        ["GET", `/reverse-geocode/jobs/${job.id}`, undefined],
        ["GET", `/reverse-geocode/jobs/${job.id}/results`, undefined],
        ["DELETE", `/reverse-geocode/jobs/${job.id}`, undefined],
      ] as const) {
        const response = await request(geocoder, method, path, { body });
        expect({ broken, method, path, status: response.status, retryAfter: response.headers.get("retry-after") }).toEqual({
          broken,
          method,
          path,
          status: 503,
          retryAfter: "1",
        });
        expect(((await readJson(response)) as { error: { code: string; message: string } }).error).toEqual({
          code: "service_unavailable",
          message: "the jobs' store is unavailable, try again shortly",
        });
      }
      // Four calls, each bounded by its 100 ms (a job's creation by six times that).
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    state = "up";
    const again = await createJob(geocoder, { points: [paris] });
    await finished(geocoder, again.job.id);
  });

  test("the access log never shows a job's id", async () => {
    const written: string[] = [];
    const log = createLogger({ service: "geocoder", level: "info", format: "json", write: (line) => void written.push(line) });
    await using geocoder = startTestGeocoder({ providers: {}, local: inProcessProvider([localVienna]), log, accessLog: true });
    const { job } = await createJob(geocoder, { points: [paris] });
    await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}`);
    await request(geocoder, "GET", `/reverse-geocode/jobs/${job.id}/results`);
    const paths = () => written.map((line) => (JSON.parse(line) as { path?: string }).path).filter((path) => path !== undefined);
    // Written once each answer has gone.
    await waitFor("three access lines", () => paths().length === 3);
    expect(paths()).toEqual(["/reverse-geocode/jobs", "/reverse-geocode/jobs/:id", "/reverse-geocode/jobs/:id/results"]);
    expect(written.join("\n")).not.toContain(job.id);
  });
});

/** A request from `peer` (the socket's address as the test names it), with the X-Forwarded-For it sends, if any. */
const fromClient = (geocoder: TestGeocoder, client: { peer: string; forwardedFor?: string }, method: string, path: string, body?: string) =>
  geocoder.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        "x-test-peer": client.peer,
        ...(client.forwardedFor === undefined ? {} : { "x-forwarded-for": client.forwardedFor }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body,
    }),
  );

/** Through the gateway (this machine, trusted by default): the client is what it forwarded for. */
const viaGateway = (address: string) => ({ peer: "127.0.0.1", forwardedFor: address });
const jobOfPoints = (count: number) => JSON.stringify({ points: Array.from({ length: count }, (_, i) => ({ id: i, latitude: 48, longitude: 2 + i / 100 })) });
const quotaGeocoder = (quota: Partial<JobQuota>, clock?: () => Date) =>
  startTestGeocoder({
    clock,
    providers: {},
    local: inProcessProvider([localVienna]),
    // Nothing answers the points: a job's points wait until it is cancelled.
    jobs: { quota: { ...readGeocoderConfig({}).jobQuota, ...quota } },
    peerOf: (request) => request.headers.get("x-test-peer") ?? undefined,
  });
const errorOf = async (response: Response) => ((await readJson(response)) as { success: false; data: []; error: Record<string, unknown> }).error;

describe.concurrent("geocoding jobs' quotas", () => {
  test("a client over its points waiting is refused 429 quota_exceeded with Retry-After, before its body is read, while another is served; a cancelled job frees them", async () => {
    await using geocoder = quotaGeocoder({ clientPoints: 3 });
    const alice = viaGateway("203.0.113.7");
    const first = await fromClient(geocoder, alice, "POST", "/reverse-geocode/jobs", jobOfPoints(3));
    expect(first.status).toBe(202);
    const refused = await fromClient(geocoder, alice, "POST", "/reverse-geocode/jobs", jobOfPoints(1));
    expect({ status: refused.status, retryAfter: refused.headers.get("retry-after") }).toEqual({ status: 429, retryAfter: String(pointsRetryAfterSeconds) });
    expect(await readJson(refused)).toEqual({
      success: false,
      data: [],
      error: {
        code: "quota_exceeded",
        message:
          "your jobs have 3 points waiting and this one would add 1, over the 3 a client may have waiting: " +
          "send it once they are answered (their progress says when), or cancel one",
        quota: "points_waiting",
        limit: 3,
        in_use: 3,
        requested: 1,
      },
    });
    // A body that is not even JSON: refused for the quota, so never read.
    const unread = await fromClient(geocoder, alice, "POST", "/reverse-geocode/jobs", "{not json");
    expect({ status: unread.status, code: (await errorOf(unread)).code }).toEqual({ status: 429, code: "quota_exceeded" });

    expect((await fromClient(geocoder, viaGateway("198.51.100.4"), "POST", "/reverse-geocode/jobs", jobOfPoints(3))).status).toBe(202);

    const { id } = (await readJson(first)) as JobView;
    expect((await fromClient(geocoder, alice, "DELETE", `/reverse-geocode/jobs/${id}`)).status).toBe(200);
    expect((await fromClient(geocoder, alice, "POST", "/reverse-geocode/jobs", jobOfPoints(3))).status).toBe(202);
  });

  test("a client is the address a trusted proxy forwarded for, else the socket's peer, never a header it wrote itself; an IPv6 one by its /64", async () => {
    await using geocoder = quotaGeocoder({ clientPoints: 2 });
    const post = (client: { peer: string; forwardedFor?: string }) => fromClient(geocoder, client, "POST", "/reverse-geocode/jobs", jobOfPoints(2));
    // Straight from 192.0.2.10 (not a proxy of ours): whatever it says it forwarded for, it is 192.0.2.10.
    expect((await post({ peer: "192.0.2.10" })).status).toBe(202);
    expect((await post({ peer: "192.0.2.10", forwardedFor: "198.51.100.99" })).status).toBe(429);
    expect((await post({ peer: "192.0.2.10", forwardedFor: "10.1.2.3, 198.51.100.100" })).status).toBe(429);
    // The gateway forwarding for 192.0.2.10 speaks for the same client; for another address, for another.
    expect((await post(viaGateway("192.0.2.10"))).status).toBe(429);
    expect((await post(viaGateway("192.0.2.11"))).status).toBe(202);

    expect((await post(viaGateway("2001:db8:1:2::1"))).status).toBe(202);
    expect((await post(viaGateway("2001:db8:1:2:ffff:ffff:ffff:ffff"))).status).toBe(429);
    expect((await post(viaGateway("2001:db8:1:3::1"))).status).toBe(202);
  });

  test("a full store is 507 insufficient_storage for every client, a job too big for any client's quota 413", async () => {
    await using geocoder = quotaGeocoder({ storeBytes: 2 * minJobBytes, clientBytes: minJobBytes });
    expect((await fromClient(geocoder, viaGateway("192.0.2.1"), "POST", "/reverse-geocode/jobs", jobOfPoints(1))).status).toBe(202);
    const tooBig = await fromClient(geocoder, viaGateway("192.0.2.2"), "POST", "/reverse-geocode/jobs", jobOfPoints(100));
    expect({ status: tooBig.status, error: await errorOf(tooBig) }).toEqual({
      status: 413,
      error: { code: "payload_too_large", message: "this job would keep 126 KiB, more than the 64 KiB a client may keep: send it as smaller jobs" },
    });
    expect((await fromClient(geocoder, viaGateway("192.0.2.2"), "POST", "/reverse-geocode/jobs", jobOfPoints(1))).status).toBe(202);
    const full = await fromClient(geocoder, viaGateway("192.0.2.3"), "POST", "/reverse-geocode/jobs", jobOfPoints(1));
    expect({ status: full.status, error: await errorOf(full) }).toEqual({
      status: 507,
      error: {
        code: "insufficient_storage",
        message: "the geocoding jobs' store is full: no new job can be kept until older ones expire; send it later, or as batches",
      },
    });
  });

  test("a client over the bytes its jobs may keep is refused 429 until its first job expires", async () => {
    // A clock that stands still: the job cancelled and the refusal at the same instant.
    const now = new Date("2026-12-01T10:00:00Z");
    await using geocoder = quotaGeocoder({ clientBytes: 2 * minJobBytes }, () => now);
    const bob = viaGateway("198.51.100.20");
    const first = (await readJson(await fromClient(geocoder, bob, "POST", "/reverse-geocode/jobs", jobOfPoints(1)))) as JobView;
    expect((await fromClient(geocoder, bob, "POST", "/reverse-geocode/jobs", jobOfPoints(1))).status).toBe(202);
    await fromClient(geocoder, bob, "DELETE", `/reverse-geocode/jobs/${first.id}`);
    const refused = await fromClient(geocoder, bob, "POST", "/reverse-geocode/jobs", jobOfPoints(1));
    // The test geocoder keeps a job an hour after it ends: the cancelled one expires then.
    expect({ status: refused.status, retryAfter: refused.headers.get("retry-after"), error: await errorOf(refused) }).toEqual({
      status: 429,
      retryAfter: "3600",
      error: {
        code: "quota_exceeded",
        message:
          "your jobs keep 128 KiB and this one would add 64 KiB, over the 128 KiB a client may keep: " +
          "a job's share is freed when it expires (Retry-After: when your first one does)",
        quota: "bytes_kept",
        limit: 2 * minJobBytes,
        in_use: 2 * minJobBytes,
        requested: minJobBytes,
      },
    });
  });

  test("jobs one client sends at once never pass its quota together", async () => {
    await using geocoder = quotaGeocoder({ clientPoints: 5 });
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => fromClient(geocoder, viaGateway("203.0.113.50"), "POST", "/reverse-geocode/jobs", jobOfPoints(2)).then((r) => r.status)),
    );
    expect(statuses.sort()).toEqual([202, 202, 429, 429, 429, 429]);
  });
});
