import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CsvProblem } from "@linkgeo/shared";
import { csvRows, piecesOf } from "@linkgeo/testing";
import { forwardAddedColumns, geocodeFile, MissingColumns } from "../../src/batch/geocode-file.ts";
import { batchAsker, jobAsker, parseGeocodeArgs, ServiceFailed } from "../../src/batch/geocode-command.ts";
import { sharedLocalProvider } from "../support/shared-local-provider.ts";
import { inProcessProvider, localVienna } from "../support/in-process-provider.ts";
import { startTestGeocoder } from "../support/test-geocoder.ts";

describe("geocoding a CSV file through the batch and job endpoints", () => {
  const local = inProcessProvider([localVienna]);
  const geocoder = startTestGeocoder({ providers: {}, local, jobs: { run: { idleMs: 10 } } });
  let url: string;
  const folder = mkdtempSync(join(tmpdir(), "geocode-file-"));

  beforeAll(() => {
    geocoder.app.listen({ port: 0, hostname: "127.0.0.1" });
    url = `http://127.0.0.1:${geocoder.app.server!.port}`;
  });
  afterAll(async () => {
    await geocoder.app.stop(true);
    await geocoder[Symbol.asyncDispose]();
    rmSync(folder, { recursive: true, force: true });
  });

  test("keeps every column and row in order, adds the address fields, says why a row has none, and reports unreadable rows by line", async () => {
    const header = '\uFEFFname,Lat,LNG,"note, quoted"\r\n';
    const stores = Array.from({ length: 2_300 }, (_, i) => `store ${i},48.${i},16.37,"line one\nline two"\r\n`);
    // Row 3 of the file (line 2 + 2 lines of the row before): a coordinate that is none; then a broken quote.
    stores.splice(1, 0, "nowhere,north,16,x\r\n");
    stores.splice(3, 0, 'broken,"48.2,16.3,x\r\n');
    const text = header + stores.join("");
    let written = "";
    const problems: CsvProblem[] = [];
    const progress: number[] = [];
    const counts = await geocodeFile(piecesOf(text, [7, 100, 5_000, 77_777]), (chunk) => void (written += chunk), batchAsker({ input: "", output: "", url }), {
      rows: (rows) => progress.push(rows),
      problem: (problem) => problems.push(problem),
    });

    expect(counts).toEqual({ rows: 2_301, answered: 2_300, failed: 1, problems: 1 });
    expect(problems).toEqual([{ line: 7, problem: expect.stringContaining("quote") }]);
    const rows = csvRows(written);
    expect(rows[0]).toEqual([
      "name",
      "Lat",
      "LNG",
      "note, quoted",
      "formatted_address",
      "postcode",
      "country",
      "country_code",
      "state",
      "district",
      "settlement",
      "street",
      "house",
      "provider",
      "error",
    ]);
    expect(rows).toHaveLength(2_302);
    expect(rows[1]).toEqual([
      "store 0",
      "48.0",
      "16.37",
      "line one\nline two",
      "Vienna, Vienna, Austria",
      "",
      "Austria",
      "AT",
      "Vienna",
      "",
      "Vienna",
      "",
      "",
      "LOCAL",
      "",
    ]);
    expect(rows[2]!.slice(0, 4)).toEqual(["nowhere", "north", "16", "x"]);
    expect(rows[2]!.at(-1)).toBe("invalid_coordinates: latitude must be a decimal number of degrees");
    expect(rows[2]!.at(-2)).toBe("");
    expect(rows.at(-1)![0]).toBe("store 2299");
    // Three batches (1,000 rows each at most), the bar told after each.
    expect(progress).toEqual([1_000, 2_000, 2_301]);
  });

  test("as jobs: the same rows and answers, the file's parts asked as jobs, their progress told while they run", async () => {
    const text = `name,lat,lon\r\n${Array.from({ length: 2_500 }, (_, i) => `store ${i},48.${i},16.37\r\n`).join("")}nowhere,north,16\r\n`;
    let written = "";
    const told: number[] = [];
    const polls: number[] = [];
    const ask = jobAsker(
      { input: "", output: "", url },
      (done) => told.push(done),
      fetch,
      async (ms) => {
        polls.push(ms);
        await Bun.sleep(5);
      },
    );
    const counts = await geocodeFile(
      piecesOf(text, [9, 4_000]),
      (chunk) => void (written += chunk),
      ask,
      { rows: () => {}, problem: () => {} },
      { pointsPerAsk: 1_000 },
    );
    expect(counts).toEqual({ rows: 2_501, answered: 2_500, failed: 1, problems: 0 });
    const rows = csvRows(written);
    expect(rows.slice(1).map((row) => row[0])).toEqual([...Array.from({ length: 2_500 }, (_, i) => `store ${i}`), "nowhere"]);
    expect(rows[1]!.at(-2)).toBe("LOCAL");
    expect(rows.at(-1)!.at(-1)).toBe("invalid_coordinates: latitude must be a decimal number of degrees");
    // Three jobs; each finished part told, the last job's 501 points included.
    expect(told.filter((done) => done === 1_000)).toHaveLength(2);
    expect(told.at(-1)).toBe(501);
    expect(polls.every((ms) => ms === 500)).toBe(true);
  });

  test("a cell marked as text (') is read without the mark and written with it; a formula the file left unmarked comes out marked", async () => {
    const text = "name,lat,lng\r\n\"'=1+2\",'-33.9,151.2\r\n=cmd|' /C calc'!A0,48.2,16.37\r\n'Tis,-1,-2\r\n";
    let written = "";
    const counts = await geocodeFile(piecesOf(text), (chunk) => void (written += chunk), batchAsker({ input: "", output: "", url }), {
      rows: () => {},
      problem: () => {},
    });
    expect(counts).toEqual({ rows: 3, answered: 3, failed: 0, problems: 0 });
    const vienna = '"Vienna, Vienna, Austria",,Austria,AT,Vienna,,Vienna,,,LOCAL,';
    expect(written.split("\r\n")).toEqual([
      "name,lat,lng,formatted_address,postcode,country,country_code,state,district,settlement,street,house,provider,error",
      `"'=1+2",-33.9,151.2,${vienna}`,
      `"'=cmd|' /C calc'!A0",48.2,16.37,${vienna}`,
      `'Tis,-1,-2,${vienna}`,
      "",
    ]);
  });

  test("a file without the coordinate columns, or empty, is refused before anything is asked", async () => {
    const asked: unknown[] = [];
    const ask = async (points: unknown[]) => {
      asked.push(points);
      return [];
    };
    const quiet = { rows: () => {}, problem: () => {} };
    await expect(geocodeFile(piecesOf("name,latitude,x\nA,1,2\n"), () => {}, ask, quiet)).rejects.toThrow(
      new MissingColumns("the header has no longitude column (looked for longitude, lon, lng, long; found name, latitude, x)"),
    );
    await expect(geocodeFile(piecesOf(""), () => {}, ask, quiet)).rejects.toBeInstanceOf(MissingColumns);
    expect(asked).toEqual([]);
  });

  test("a service that asks to wait is waited for, a few times; one that refuses the batch stops the run with its message", async () => {
    const waits: number[] = [];
    const answers = [new Response("{}", { status: 429, headers: { "retry-after": "3" } }), new Response("{}", { status: 503 }), Response.json({ results: [] })];
    const ask = batchAsker({ input: "", output: "", url: "http://service" }, (async () => answers.shift()!) as unknown as typeof fetch, async (ms) => {
      waits.push(ms);
    });
    expect(await ask([{ latitude: "1", longitude: "2" }])).toEqual([]);
    expect(waits).toEqual([3_000, 2_000]);

    const always429 = batchAsker(
      { input: "", output: "", url: "http://service" },
      (async () => new Response("{}", { status: 429 })) as unknown as typeof fetch,
      async () => {},
    );
    await expect(always429([])).rejects.toBeInstanceOf(ServiceFailed);
    const refused = batchAsker({ input: "", output: "", url: "http://service" }, (async () =>
      Response.json(
        { error: { code: "unknown_platform", message: 'platform "x" is not a registered geocoder' } },
        { status: 400 },
      )) as unknown as typeof fetch);
    await expect(refused([])).rejects.toThrow('the service answered 400: platform "x" is not a registered geocoder');
  });

  test("bun run geocode writes the output file and a summary; a usage mistake exits 2 with the usage", async () => {
    const input = join(folder, "in.csv");
    const output = join(folder, "out.csv");
    writeFileSync(input, "id,latitude,longitude\n1,48.2,16.37\n2,48.3,16.4\n");
    // As a job (the default), and as a batch.
    for (const extra of [[], ["--batch"]]) {
      const run = Bun.spawn([process.execPath, "run", "geocode", input, output, "--url", url, ...extra], {
        cwd: join(import.meta.dir, "../.."),
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await run.exited).toBe(0);
      expect(await new Response(run.stdout).text()).toMatch(/^with an address +2$/m);
      expect(csvRows(await Bun.file(output).text()).map((row) => [row[0], row.at(-2)])).toEqual([
        ["id", "provider"],
        ["1", "LOCAL"],
        ["2", "LOCAL"],
      ]);
    }

    // A binary file is refused as the shortener's import refuses one, before any point is asked.
    const binary = join(folder, "photo.csv");
    writeFileSync(binary, new Uint8Array([0x6c, 0x61, 0x74, 0x2c, 0x6c, 0x6f, 0x6e, 0x0a, 0x00, 0xff, 0x31, 0x2c, 0x32, 0x0a]));
    const refused = Bun.spawn([process.execPath, "run", "geocode", binary, output, "--url", url], {
      cwd: join(import.meta.dir, "../.."),
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await refused.exited).toBe(2);
    expect(await new Response(refused.stderr).text()).toContain("the file is binary");

    const wrong = Bun.spawn([process.execPath, "run", "geocode", input], { cwd: join(import.meta.dir, "../.."), stdout: "pipe", stderr: "pipe" });
    expect(await wrong.exited).toBe(2);
    expect(await new Response(wrong.stderr).text()).toContain("usage: bun run geocode <in.csv> <out.csv>");
  });
});

describe("geocoding a CSV file of names to places (--forward)", () => {
  const { provider: local } = sharedLocalProvider();
  const geocoder = startTestGeocoder({ providers: {}, local, jobs: { run: { idleMs: 20 } } });
  let url: string;

  beforeAll(() => {
    geocoder.app.listen({ port: 0, hostname: "127.0.0.1" });
    url = `http://127.0.0.1:${geocoder.app.server!.port}`;
  });
  afterAll(async () => {
    await geocoder.app.stop(true);
    await geocoder[Symbol.asyncDispose]();
  });

  test.each([
    ["a forward job (the default)", [] as string[]],
    ["forward batches (--batch)", ["--batch"]],
  ])("%s: a column of names gets each first place's address, point, confidence and id; an empty name says why", async (_, flags) => {
    const text = `id,Place,note\r\n1,Pairs,"a, b"\r\n2,Springfield IL,x\r\n3,,y\r\n4,${"x".repeat(1_100)},z\r\n`;
    let written = "";
    const args = parseGeocodeArgs(["--forward", "in.csv", "out.csv", "--url", url, ...flags], {});
    expect(args).toMatchObject({ forward: true, batch: flags.length > 0 });
    const ask = args.batch
      ? batchAsker(args)
      : jobAsker(
          args,
          () => {},
          fetch,
          () => Bun.sleep(20),
        );
    const counts = await geocodeFile(piecesOf(text, [5, 17]), (chunk) => void (written += chunk), ask, quietProgress, { forward: true });
    expect(counts).toEqual({ rows: 4, answered: 2, failed: 2, problems: 0 });
    const [header, paris, springfield, empty, long] = csvRows(written);
    expect(header).toEqual(["id", "Place", "note", ...forwardAddedColumns]);
    const cell = (row: string[] | undefined, column: string) => row![header!.indexOf(column)];
    expect([cell(paris, "settlement"), cell(paris, "country_code"), cell(paris, "provider"), cell(paris, "note")]).toEqual(["Paris", "FR", "LOCAL", "a, b"]);
    expect(Number(cell(paris, "latitude"))).toBeCloseTo(48.85, 1);
    expect(cell(paris, "provider_id")).toMatch(/^geonames:\d+$/);
    expect([cell(springfield, "state"), cell(springfield, "confidence")]).toEqual(["Illinois", "1"]);
    expect(cell(empty, "error")).toBe("invalid_request: q is required: the name or address to look for");
    // A cell far too long is its row's error (sent cut short, so the batch's body stays within its bound), not the run's.
    expect(cell(long, "error")).toBe("invalid_request: q must be at most 200 characters");
  });

  test("a header without a column to look for is refused before anything is asked", async () => {
    await expect(
      geocodeFile(
        piecesOf("latitude,longitude\n1,2\n"),
        () => {},
        async () => [],
        quietProgress,
        { forward: true },
      ),
    ).rejects.toThrow("the header names no column to look for (q, query, address, place, name, search, any case;");
  });
});

const quietProgress = { rows: () => {}, problem: () => {} };
