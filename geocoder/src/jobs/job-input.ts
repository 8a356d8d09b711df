import {
  binaryFile,
  coordinateColumns,
  CsvRowReader,
  InvalidRequest,
  jobFileMediaTypes,
  maxJobBodyBytes,
  maxJobPoints,
  notUtf8,
  readBodyLimited,
  type CsvProblem,
  type CsvRow,
} from "@linkgeo/shared";
import { checkPoint, type PointError, type SentPoint } from "../geocoding/batch-points.ts";
import type { JobPointInput, PointId } from "./job-store.ts";

/** A point as sent, before its coordinates are checked; `refused`: why it has no coordinates at all (a broken row of a file). */
interface RawPoint extends SentPoint {
  id: PointId;
  refused?: string;
}

/** The longest id a point may carry, as in a batch. */
export const maxPointIdLength = 200;

const tooMany = () => InvalidRequest.because(`a job holds 1 to ${maxJobPoints} points`);

/**
 * A job's points from a JSON body (`{"points": […]}`, as a batch's),
 * each checked as a batch checks its points: a bad one becomes its own
 * error, never the job's. The schema has checked the body's shape.
 */
export function pointsOfJson(points: ReadonlyArray<SentPoint & { id?: PointId }>, language: string | undefined): JobPointInput[] {
  if (points.length === 0 || points.length > maxJobPoints) throw tooMany();
  return checked(
    points.map((point) => ({ ...point, id: point.id ?? null })),
    language,
  );
}

/**
 * A job's points from a file (CSV or NDJSON, by media type; text/plain by
 * its first character), read under `maxJobBodyBytes` (413), UTF-8 only
 * (415). CSV: the header names the coordinate columns (as `bun run geocode`
 * reads them: latitude/lat, longitude/lon/lng/long, any case; a file
 * without them is a 400) and an optional `id` column. NDJSON: one JSON
 * object per line, `{"latitude", "longitude", "id"?}`. A row that cannot
 * be read (broken quoting, a line that is not an object) is a point with
 * its own error, so its index still lines up with the file.
 */
export async function pointsOfFile(request: Request, language: string | undefined): Promise<JobPointInput[]> {
  const body = await readBodyLimited(request, maxJobBodyBytes);
  if (body === null || body.byteLength === 0) throw tooMany();
  const bytes = new Uint8Array(body);
  if (bytes.includes(0)) throw binaryFile();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8();
  }
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const ndjson = mediaType === "text/plain" ? text.trimStart().startsWith("{") : mediaType !== "text/csv" && jobFileMediaTypes.includes(mediaType);
  const points = ndjson ? ndjsonPoints(text) : csvPoints(text);
  if (points.length === 0 || points.length > maxJobPoints) throw tooMany();
  return checked(points, language);
}

function csvPoints(text: string): RawPoint[] {
  const reader = new CsvRowReader();
  const rows: Array<CsvRow | CsvProblem> = [...reader.read(text), ...reader.finish()];
  const header = rows.shift();
  if (header === undefined || !("fields" in header)) throw InvalidRequest.because("the file has no header row naming its latitude and longitude columns");
  const columns = coordinateColumns(header.fields);
  if ("missing" in columns) throw InvalidRequest.because(columns.missing);
  const idColumn = header.fields.findIndex((name) => name.trim().toLowerCase() === "id");
  return rows.map((row): RawPoint => {
    if (!("fields" in row)) return { id: null, refused: `line ${row.line}: ${row.problem}` };
    const id = idColumn === -1 ? null : (row.fields[idColumn] ?? null);
    return { latitude: row.fields[columns.latitude], longitude: row.fields[columns.longitude], id };
  });
}

function ndjsonPoints(text: string): RawPoint[] {
  const points: RawPoint[] = [];
  text.split(/\r\n|\n|\r/).forEach((line, index) => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      points.push({ id: null, refused: `line ${index + 1}: not a JSON object with latitude and longitude` });
      return;
    }
    const { latitude, longitude, id } = parsed as Record<string, unknown>;
    if (id !== undefined && id !== null && typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) {
      points.push({ id: null, refused: `line ${index + 1}: id must be a string or a number` });
      return;
    }
    points.push({ latitude, longitude, id: (id as PointId | undefined) ?? null });
  });
  return points;
}

/** Each point checked: its coordinates as a batch checks them, its id's length; a refused one keeps its index with its error. */
function checked(points: readonly RawPoint[], language: string | undefined): JobPointInput[] {
  return points.map((point, index): JobPointInput => {
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
