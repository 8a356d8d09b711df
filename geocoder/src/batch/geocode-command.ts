/**
 * `bun run geocode <in.csv> <out.csv>` (at the root or in geocoder/, the
 * files named from there): every row of a CSV file geocoded by a running gateway or geocoder, the input's columns kept
 * and the address fields added (batch/geocode-file.ts): as jobs of 10,000
 * rows (POST /reverse-geocode/jobs, answered at the providers' pace), or
 * with --batch as batches of 1,000 (answered at once, LOCAL standing in
 * where the providers are slower). A progress bar with rate and ETA on a
 * terminal (cli-progress, as the shortener's import), a summary at the end.
 *
 * With --forward, the other way round: a column of names or addresses
 * (q, query, address, place, name or search) to places, as forward jobs
 * (POST /geocode/jobs), or with --batch as batches (POST /geocode/batch).
 *
 *   bun run geocode stores.csv stores-with-addresses.csv
 *   bun run geocode trips.csv out.csv --url http://geo.internal:8080 --platform local --language de --batch
 *   bun run geocode --forward towns.csv towns-with-points.csv
 *
 * Exit 0 when every row was written (rows with an error of their own
 * included), 2 on a usage or file problem, 1 when the service failed.
 */
import { HttpError, maxBatchPoints, uploadText } from "@linkgeo/shared";
import { MultiBar, Presets } from "cli-progress";
import { parseArgs } from "node:util";
import { geocodeFile, MissingColumns, type AskBatch, type FileProgress, type GeocodedFile } from "./geocode-file.ts";

export const geocodeUsage = `usage: bun run geocode <in.csv> <out.csv> [--url <gateway or geocoder>] [--platform <name>] [--language <tag>] [--batch] [--forward]
  The input's header names its latitude and longitude columns (latitude/lat, longitude/lon/lng, any case).
  --url defaults to GEOCODER_URL, else http://localhost:8080 (the gateway).
  Rows go as jobs of 10,000, answered at the providers' pace; --batch sends batches of 1,000, answered at once.
  --forward: names or addresses to places, from a column q, query, address, place, name or search (any case), as jobs or --batch batches.`;

/** A service that keeps answering 429 (its rate limit) or 5xx is given this many tries a request, then the run stops. */
const triesPerRequest = 6;

/** Rows a job of the file holds: its progress shows while the rows wait, and memory holds this many rows at most. */
export const rowsPerJob = 10_000;

/** How often a job's progress is asked for. */
const pollMs = 500;

export class UsageError extends Error {}
export class ServiceFailed extends Error {}

export interface GeocodeArgs {
  input: string;
  output: string;
  url: string;
  platform?: string;
  language?: string;
  /** Batches (answered at once) rather than jobs. */
  batch?: boolean;
  /** Names to places (POST /geocode/batch), always in batches. */
  forward?: boolean;
}

export function parseGeocodeArgs(argv: string[], env: Record<string, string | undefined>): GeocodeArgs {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        url: { type: "string" };
        platform: { type: "string" };
        language: { type: "string" };
        batch: { type: "boolean" };
        forward: { type: "boolean" };
      };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        url: { type: "string" },
        platform: { type: "string" },
        language: { type: "string" },
        batch: { type: "boolean" },
        forward: { type: "boolean" },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [input, output, ...extra] = parsed.positionals;
  if (!input || !output || extra.length > 0) throw new UsageError("give the input file and the output file, and nothing else");
  const url = (parsed.values.url ?? env.GEOCODER_URL ?? "http://localhost:8080").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+/.test(url)) throw new UsageError(`--url must be an http(s) address, not ${url}`);
  const forward = parsed.values.forward ?? false;
  return { input, output, url, platform: parsed.values.platform, language: parsed.values.language, batch: parsed.values.batch ?? false, forward };
}

/**
 * One request to the service: a 429 or 5xx is waited out (its Retry-After,
 * else a growing pause) and tried again, a few times; any other failure
 * stops the run with the service's own message.
 */
async function askService(url: string, init: RequestInit, fetcher: typeof fetch, sleep: (ms: number) => Promise<void>): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetcher(url, init);
    } catch (error) {
      throw new ServiceFailed(`${url} could not be reached (${error instanceof Error ? error.message : error})`);
    }
    if (response.ok) return response;
    const text = await response.text();
    const message = (() => {
      try {
        return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.slice(0, 200);
      } catch {
        return text.slice(0, 200);
      }
    })();
    const retryable = response.status === 429 || response.status >= 500;
    if (!retryable || attempt === triesPerRequest) throw new ServiceFailed(`the service answered ${response.status}: ${message}`);
    const retryAfter = Number(response.headers.get("retry-after"));
    await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 500 * 2 ** attempt);
  }
}

const pointsBody = (args: GeocodeArgs, points: Parameters<AskBatch>[0]) =>
  JSON.stringify({
    [args.forward ? "queries" : "points"]: points,
    ...(args.platform ? { platform: args.platform } : {}),
    ...(args.language ? { language: args.language } : {}),
  });

/** Asks the service for each batch of points (POST /reverse-geocode/batch), or of names (POST /geocode/batch): answered at once. */
export function batchAsker(args: GeocodeArgs, fetcher: typeof fetch = fetch, sleep = (ms: number) => Bun.sleep(ms)): AskBatch {
  return async (points) => {
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: pointsBody(args, points) };
    const response = await askService(`${args.url}/${args.forward ? "geocode" : "reverse-geocode"}/batch`, init, fetcher, sleep);
    return ((await response.json()) as { results: Awaited<ReturnType<AskBatch>> }).results;
  };
}

/**
 * Asks the service for each part of the file as a job (POST
 * /reverse-geocode/jobs, or /geocode/jobs with --forward): waits for it, telling `answered` how many of its
 * points are done as it goes, then reads its results. A job cancelled
 * meanwhile (by someone holding its id) stops the run.
 */
export function jobAsker(args: GeocodeArgs, answered: (done: number) => void, fetcher: typeof fetch = fetch, sleep = (ms: number) => Bun.sleep(ms)): AskBatch {
  return async (points) => {
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: pointsBody(args, points) };
    const jobs = `${args.url}/${args.forward ? "geocode" : "reverse-geocode"}/jobs`;
    const { id } = (await (await askService(jobs, init, fetcher, sleep)).json()) as { id: string };
    const job = `${jobs}/${encodeURIComponent(id)}`;
    for (;;) {
      const progress = (await (await askService(job, {}, fetcher, sleep)).json()) as { status: string; done: number };
      answered(progress.done);
      if (progress.status === "done") break;
      if (progress.status !== "running") throw new ServiceFailed(`the job was ${progress.status}`);
      await sleep(pollMs);
    }
    const text = await (await askService(`${job}/results?format=ndjson`, {}, fetcher, sleep)).text();
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Awaited<ReturnType<AskBatch>>[number]);
  };
}

/** The progress bar on stderr, by bytes of the file read (no second pass to count its rows), on a terminal only; problems are printed above it. */
class BarProgress implements FileProgress {
  private readonly bars = process.stderr.isTTY
    ? new MultiBar(
        {
          format: "{bar} {percentage}% | {rows} rows | {rate} rows/s | {answered} with an address | ETA {eta_formatted}",
          hideCursor: true,
          etaBuffer: 20,
          stream: process.stderr,
        },
        Presets.shades_classic,
      )
    : undefined;
  private readonly bar;
  private readonly startedAt = performance.now();
  private bytes = 0;
  private written = 0;
  private answeredRows = 0;

  constructor(private readonly totalBytes: number) {
    this.bar = this.bars?.create(Math.max(1, totalBytes), 0, { rows: 0, rate: 0, answered: 0 });
  }

  /** The file's bytes read so far. */
  read(bytes: number): void {
    this.bytes = bytes;
  }

  rows(written: number, answered: number): void {
    this.written = written;
    this.answeredRows = answered;
    this.show(written);
  }

  /** A job's points done so far, beyond the rows written. */
  jobDone(done: number): void {
    this.show(this.written + done);
  }

  private show(rows: number): void {
    const seconds = (performance.now() - this.startedAt) / 1000;
    this.bar?.update(this.bytes, { rows, rate: Math.round(rows / Math.max(seconds, 0.001)), answered: this.answeredRows });
  }

  problem(problem: { line: number; problem: string }): void {
    const line = `line ${problem.line}: left out: ${problem.problem}`;
    if (this.bars) this.bars.log(`${line}\n`);
    else process.stderr.write(`${line}\n`);
  }

  stop(): void {
    this.bar?.update(this.totalBytes);
    this.bars?.stop();
  }
}

function summary(args: GeocodeArgs, counts: GeocodedFile, seconds: number): string {
  const rows: Array<[string, string]> = [
    ["input", args.input],
    ["output", args.output],
    ["rows", String(counts.rows)],
    ["with an address", String(counts.answered)],
    ["with an error", String(counts.failed)],
    ["left out (unreadable)", String(counts.problems)],
    ["time", `${seconds.toFixed(1)} s (${Math.round(counts.rows / Math.max(seconds, 0.001))} rows/s)`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`;
}

/** The file's bytes as they stream, counted for the bar. */
function counted(file: Bun.BunFile, progress: BarProgress): ReadableStream<Uint8Array> {
  let bytes = 0;
  return file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        progress.read(bytes);
        controller.enqueue(chunk);
      },
    }),
  );
}

export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let args: GeocodeArgs;
  try {
    args = parseGeocodeArgs(argv, env);
  } catch (error) {
    process.stderr.write(`geocode: ${(error as Error).message}\n${geocodeUsage}\n`);
    return 2;
  }
  if (!(await Bun.file(args.input).exists())) {
    process.stderr.write(`geocode: ${args.input} does not exist\n`);
    return 2;
  }
  const input = Bun.file(args.input);
  const progress = new BarProgress(input.size);
  const writer = Bun.file(args.output).writer();
  const startedAt = performance.now();
  try {
    // Read as the shortener's import reads a file: a binary or non-UTF-8 one is refused, not sent as points.
    const text = await uploadText(counted(input, progress), Number.POSITIVE_INFINITY);
    const ask = args.batch ? batchAsker(args) : jobAsker(args, (done) => progress.jobDone(done));
    const counts = await geocodeFile(text.chunks, (chunk) => void writer.write(chunk), ask, progress, {
      pointsPerAsk: args.batch ? maxBatchPoints : rowsPerJob,
      forward: args.forward,
    });
    progress.stop();
    await writer.end();
    process.stdout.write(summary(args, counts, (performance.now() - startedAt) / 1000));
    return 0;
  } catch (error) {
    progress.stop();
    await writer.end();
    process.stderr.write(`geocode: ${(error as Error).message}\n`);
    // The file's own problems (no coordinate columns, binary, not UTF-8) are a usage mistake; the service's, a failure.
    return error instanceof MissingColumns || error instanceof HttpError ? 2 : 1;
  }
}

if (import.meta.main) process.exit(await main(Bun.argv.slice(2), process.env));
