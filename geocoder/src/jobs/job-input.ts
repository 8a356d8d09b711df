import {
  binaryFile,
  coordinateColumns,
  CsvRowReader,
  describeBodyFailure,
  InvalidRequest,
  isJsonMediaType,
  jobFileMediaTypes,
  jsonShapeOf,
  JsonTooDeep,
  maxJobBodyBytes,
  maxJobPoints,
  mediaTypeOf,
  notUtf8,
  parseJson,
  parseJsonBody,
  readBodyLimited,
  restoredCell,
  UnsupportedMediaType,
} from "@linkgeo/shared";
import { t } from "elysia";
import { TypeCompiler } from "elysia/type-system";
import { checkPoint, type PointError, type SentPoint } from "../geocoding/batch-points.ts";
import type { JobPointInput, PointId } from "./job-store.ts";

/** The longest id a point may carry, as in a batch. */
const maxPointIdLength = 200;

/** A job's JSON body: a batch's, with up to 100,000 points. */
export const JobRequest = t.Object(
  {
    points: t.Array(
      t.Object({
        // Checked per point (a bad one is its own error, never the job's): so any JSON value is let through here.
        latitude: t.Unknown({ description: "Decimal degrees, -90 to 90, as a number or a string", examples: [48.8584] }),
        longitude: t.Unknown({ description: "Decimal degrees, -180 to 180, as a number or a string", examples: [2.2945] }),
        id: t.Optional(t.Union([t.String({ maxLength: maxPointIdLength }), t.Number()], { description: "Yours, echoed in the point's result" })),
      }),
      { minItems: 1, maxItems: maxJobPoints },
    ),
    platform: t.Optional(t.String({ description: "A registered geocoder for every point, any case; default: the default chain" })),
    language: t.Optional(t.String({ description: "Preferred language of the answers, e.g. en, de, pt-BR" })),
  },
  { title: "GeocodeJobRequest" },
);

const jobRequest = TypeCompiler.Compile(JobRequest);

/** A point as sent, before its coordinates are checked; `refused`: why it has no coordinates at all (a broken row of a file). */
interface RawPoint extends SentPoint {
  id: PointId;
  refused?: string;
}

/** What a job's body says: its points as sent, and the platform and language (a file's come from the query). */
export interface JobInput {
  points: RawPoint[];
  platform?: string;
  language?: string;
}

const tooMany = () => InvalidRequest.because(`a job holds 1 to ${maxJobPoints} points`);

/**
 * A job's body, read by its route (the JSON parser leaves it alone) under
 * `maxJobBodyBytes` (413), UTF-8 only (415): JSON (a batch's body), CSV or
 * NDJSON (by media type; text/plain by its first character). Nothing
 * grows past what 100,000 points take: a JSON body holding more objects
 * than that, or a file with more rows, is refused before it is turned
 * into points (16 MiB of `{}` would otherwise be millions of objects).
 *
 * CSV: the header names the coordinate columns (as `bun run geocode`
 * reads them: latitude/lat, longitude/lon/lng/long, any case; a file
 * without them is a 400) and an optional `id` column; a cell's `'` before
 * a formula is the text mark our CSV writer and spreadsheets put there
 * (formula-cells.ts), taken off, so a results CSV can be sent again and a
 * `'-33.9` is -33.9. NDJSON: one JSON
 * object per line, `{"latitude", "longitude", "id"?}`. A row that cannot
 * be read (broken quoting, a line that is not an object) is a point with
 * its own error, so its index still lines up with the file.
 */
export async function readJobInput(request: Request, query: { platform?: string; language?: string }): Promise<JobInput> {
  const mediaType = mediaTypeOf(request) ?? "";
  const json = isJsonMediaType(mediaType);
  if (!json && !jobFileMediaTypes.includes(mediaType)) {
    throw UnsupportedMediaType.because(`send the points as application/json, or a file as ${jobFileMediaTypes.join(", ")}`);
  }
  const text = await bodyText(request);
  if (json) return jsonInput(text);
  const ndjson = mediaType === "text/plain" ? text.trimStart().startsWith("{") : mediaType !== "text/csv";
  return { points: ndjson ? ndjsonPoints(text) : csvPoints(text), platform: query.platform, language: query.language };
}

async function bodyText(request: Request): Promise<string> {
  const body = await readBodyLimited(request, maxJobBodyBytes);
  if (body === null || body.byteLength === 0) throw tooMany();
  const bytes = new Uint8Array(body);
  if (bytes.includes(0)) throw binaryFile();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8();
  }
}

function jsonInput(text: string): JobInput {
  // Each point is one object: more objects than points a job may hold is refused before JSON.parse makes them.
  if (jsonShapeOf(text).objects > maxJobPoints + 1) throw tooMany();
  const body = parseJsonBody(text);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw InvalidRequest.because("request body must be a JSON object");
  const points = (body as { points?: unknown }).points;
  if (!Array.isArray(points) || points.some((point) => typeof point !== "object" || point === null || Array.isArray(point))) {
    throw InvalidRequest.because(`points must be a list of 1 to ${maxJobPoints} objects with latitude and longitude`);
  }
  if (!jobRequest.Check(body)) throw InvalidRequest.because(describeBodyFailure(jobRequest, body));
  return { points: body.points.map((point) => ({ ...point, id: point.id ?? null })), platform: body.platform, language: body.language };
}

/** A file's text in pieces, so rows are counted as they are read and reading stops past the limit. */
function* piecesOf(text: string, size = 64 * 1024): Generator<string> {
  for (let from = 0; from < text.length; from += size) yield text.slice(from, from + size);
}

function csvPoints(text: string): RawPoint[] {
  const reader = new CsvRowReader();
  let columns: { latitude: number; longitude: number; id: number } | undefined;
  const points: RawPoint[] = [];
  const take = (rows: ReturnType<CsvRowReader["read"]>) => {
    for (const row of rows) {
      if (!columns) {
        if (!("fields" in row)) throw InvalidRequest.because("the file has no header row naming its latitude and longitude columns");
        const found = coordinateColumns(row.fields);
        if ("missing" in found) throw InvalidRequest.because(found.missing);
        columns = { ...found, id: row.fields.findIndex((name) => name.trim().toLowerCase() === "id") };
        continue;
      }
      if (points.length === maxJobPoints) throw tooMany();
      if (!("fields" in row)) points.push({ id: null, refused: `line ${row.line}: ${row.problem}` });
      else {
        const fields = row.fields.map(restoredCell);
        points.push({ latitude: fields[columns.latitude], longitude: fields[columns.longitude], id: columns.id === -1 ? null : (fields[columns.id] ?? null) });
      }
    }
  };
  for (const piece of piecesOf(text)) take(reader.read(piece));
  take(reader.finish());
  if (!columns) throw InvalidRequest.because("the file has no header row naming its latitude and longitude columns");
  return points;
}

function ndjsonPoints(text: string): RawPoint[] {
  const points: RawPoint[] = [];
  const lineBreak = /\r\n|\n|\r/g;
  for (let start = 0, line = 1; start <= text.length; line++) {
    const found = lineBreak.exec(text);
    const end = found ? found.index : text.length;
    const content = text.slice(start, end);
    start = found ? end + found[0].length : text.length + 1;
    if (content.trim() === "") continue;
    if (points.length === maxJobPoints) throw tooMany();
    points.push(ndjsonPoint(content, line));
  }
  return points;
}

function ndjsonPoint(content: string, line: number): RawPoint {
  let parsed: unknown;
  try {
    parsed = parseJson(content);
  } catch (error) {
    if (error instanceof JsonTooDeep) return { id: null, refused: `line ${line}: ${error.message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return { id: null, refused: `line ${line}: not a JSON object with latitude and longitude` };
  const { latitude, longitude, id } = parsed as Record<string, unknown>;
  if (id !== undefined && id !== null && typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) {
    return { id: null, refused: `line ${line}: id must be a string or a number` };
  }
  return { latitude, longitude, id: (id as PointId | undefined) ?? null };
}

/**
 * A job's points, each checked as a batch checks its points: its
 * coordinates, its id's length; a refused one keeps its index with its
 * error, never the job's.
 */
export function checkedPoints(input: JobInput, language: string | undefined): JobPointInput[] {
  if (input.points.length === 0 || input.points.length > maxJobPoints) throw tooMany();
  return input.points.map((point, index): JobPointInput => {
    const refuse = (error: PointError): JobPointInput => ({
      id: shortId(point.id),
      latitude: null,
      longitude: null,
      result: { data: [], error, provider: null, cache: null },
    });
    if (point.refused !== undefined) return refuse({ code: "invalid_request", message: point.refused, index });
    if (typeof point.id === "string" && point.id.length > maxPointIdLength) {
      return refuse({ code: "invalid_request", message: `id must be at most ${maxPointIdLength} characters`, index });
    }
    const check = checkPoint(point, language, index);
    if ("error" in check) return refuse(check.error);
    return { id: point.id, latitude: check.query.latitude, longitude: check.query.longitude };
  });
}

/** An id kept with a refused point: cut to the bound, so an over-long one is still recognisable and never stored whole. */
function shortId(id: PointId): PointId {
  return typeof id === "string" && id.length > maxPointIdLength ? id.slice(0, maxPointIdLength) : id;
}
