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
  queryColumn,
  readBodyLimited,
  restoredCell,
  UnsupportedMediaType,
} from "@linkgeo/shared";
import { t } from "elysia";
import { TypeCompiler } from "elysia/type-system";
import { checkPoint, pointError, type PointError, type SentPoint } from "../geocoding/batch-points.ts";
import { parseForwardQuery, parseSentForwardQuery, type SentForwardQuery } from "../geocoding/forward-params.ts";
import { maxItemIdLength, SentPointItem, SentQueryItem, sentSettings } from "../geocoding/sent-items.ts";
import type { JobPointInput, PointId } from "./job-store.ts";

/** A job's JSON body: a batch's, with up to 100,000 points. */
export const JobRequest = t.Object(
  { points: t.Array(SentPointItem, { minItems: 1, maxItems: maxJobPoints }), ...sentSettings(false) },
  { title: "GeocodeJobRequest" },
);

const jobRequest = TypeCompiler.Compile(JobRequest);

/** A forward job's JSON body: a forward batch's, with up to 100,000 queries. */
export const ForwardJobRequest = t.Object(
  { queries: t.Array(SentQueryItem, { minItems: 1, maxItems: maxJobPoints }), ...sentSettings(true) },
  { title: "ForwardGeocodeJobRequest" },
);

const forwardJobRequest = TypeCompiler.Compile(ForwardJobRequest);

/** An item as sent (a point's coordinates, or a query's fields), before it is checked; `refused`: why it has nothing to check (a broken row of a file). */
interface RawItem extends SentPoint, SentForwardQuery {
  id: PointId;
  refused?: string;
}

/** What a job's body says: its items as sent, and the platform and language (a file's come from the query). */
export interface JobInput {
  points: RawItem[];
  platform?: string;
  language?: string;
}

/** A job's query string: a file's platform and language; a forward file's country and limit too, for every query. */
export interface JobQueryString {
  platform?: string;
  language?: string;
  country?: string;
  limit?: string;
}

/** How one kind's items are read from each format: JSON's list, a CSV row, an NDJSON object. */
interface ItemFormat {
  /** A JSON body's list under `field`, checked by `request`'s schema. */
  field: "points" | "queries";
  request: typeof jobRequest | typeof forwardJobRequest;
  /** "with latitude and longitude" or "with q", for the 400 of a list out of shape. */
  holding: string;
  /** The CSV header's columns of a question, or why the header has none. */
  csvColumns(header: string[]): ((fields: string[]) => Omit<RawItem, "id">) | { missing: string };
  /** An NDJSON object's question. */
  ndjsonItem(object: Record<string, unknown>): Omit<RawItem, "id">;
}

const pointFormat: ItemFormat = {
  field: "points",
  request: jobRequest,
  holding: "with latitude and longitude",
  csvColumns: (header) => {
    const found = coordinateColumns(header);
    if ("missing" in found) return found;
    return (fields) => ({ latitude: fields[found.latitude], longitude: fields[found.longitude] });
  },
  ndjsonItem: ({ latitude, longitude }) => ({ latitude, longitude }),
};

const queryFormat: ItemFormat = {
  field: "queries",
  request: forwardJobRequest,
  holding: "with q",
  csvColumns: (header) => {
    const found = queryColumn(header);
    if ("missing" in found) return found;
    return (fields) => ({ q: fields[found.column] ?? "" });
  },
  ndjsonItem: ({ q, limit, country, near, bbox }) => ({ q, limit, country, near, bbox }),
};

const tooMany = () => InvalidRequest.because(`a job holds 1 to ${maxJobPoints} points`);
const noHeader = (format: ItemFormat) =>
  InvalidRequest.because(`the file has no header row naming its ${format === pointFormat ? "latitude and longitude columns" : "column to look for"}`);

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
export function readJobInput(request: Request, query: JobQueryString): Promise<JobInput> {
  return readItems(request, query, pointFormat);
}

/**
 * A forward job's body, read as a reverse job's is (the same limits,
 * formats and per-row errors): JSON (a forward batch's body), CSV (the
 * question in a column named q, query, address, place, name or search,
 * any case, as `bun run geocode --forward` reads it, and an optional `id`)
 * or NDJSON (`{"q", "id"?, "limit"?, "country"?, "near"?, "bbox"?}` per
 * line). A file's `country` and `limit` come from the query string, for
 * every query: an address file's own country column is often a name, not
 * a code.
 */
export function readForwardJobInput(request: Request, query: JobQueryString): Promise<JobInput> {
  return readItems(request, query, queryFormat);
}

async function readItems(request: Request, query: JobQueryString, format: ItemFormat): Promise<JobInput> {
  const mediaType = mediaTypeOf(request) ?? "";
  const json = isJsonMediaType(mediaType);
  if (!json && !jobFileMediaTypes.includes(mediaType)) {
    throw UnsupportedMediaType.because(`send the ${format.field} as application/json, or a file as ${jobFileMediaTypes.join(", ")}`);
  }
  const text = await bodyText(request);
  if (json) {
    // A JSON body says each query's country and limit itself: the query string's would be silently dropped.
    if (format === queryFormat && (query.country !== undefined || query.limit !== undefined)) {
      throw InvalidRequest.because("country and limit in the query string are for a file; a JSON body gives them per query");
    }
    return jsonInput(text, format);
  }
  const ndjson = mediaType === "text/plain" ? text.trimStart().startsWith("{") : mediaType !== "text/csv";
  const items = ndjson ? ndjsonItems(text, format) : csvItems(text, format);
  if (format === queryFormat) {
    // A file's country and limit apply to each of its queries (an NDJSON line's own win): a bad one is the job's 400, not every row's error.
    parseForwardQuery({ q: "-", country: query.country, limit: query.limit });
    for (const item of items) {
      // A line's null is no value of its own, as GET /geocode reads it.
      if ((item.country ?? undefined) === undefined && query.country !== undefined) item.country = query.country;
      if ((item.limit ?? undefined) === undefined && query.limit !== undefined) item.limit = query.limit;
    }
  }
  return { points: items, platform: query.platform, language: query.language };
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

function jsonInput(text: string, format: ItemFormat): JobInput {
  // Each item is one object: more objects than items a job may hold is refused before JSON.parse makes them.
  if (jsonShapeOf(text).objects > maxJobPoints + 1) throw tooMany();
  const body = parseJsonBody(text);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw InvalidRequest.because("request body must be a JSON object");
  const items = (body as Record<string, unknown>)[format.field];
  if (!Array.isArray(items) || items.some((item) => typeof item !== "object" || item === null || Array.isArray(item))) {
    throw InvalidRequest.because(`${format.field} must be a list of 1 to ${maxJobPoints} objects ${format.holding}`);
  }
  if (!format.request.Check(body)) throw InvalidRequest.because(describeBodyFailure(format.request, body));
  const checked = body as { platform?: string; language?: string };
  return {
    // The fields a question has, and no other: an item's own `refused`, say, would be stored as its error.
    points: (items as Array<Record<string, unknown> & { id?: PointId }>).map((item) => ({ ...format.ndjsonItem(item), id: item.id ?? null })),
    platform: checked.platform,
    language: checked.language,
  };
}

/** A file's text in pieces, so rows are counted as they are read and reading stops past the limit. */
function* piecesOf(text: string, size = 64 * 1024): Generator<string> {
  for (let from = 0; from < text.length; from += size) yield text.slice(from, from + size);
}

function csvItems(text: string, format: ItemFormat): RawItem[] {
  const reader = new CsvRowReader();
  let columns: { question: (fields: string[]) => Omit<RawItem, "id">; id: number } | undefined;
  const items: RawItem[] = [];
  const take = (rows: ReturnType<CsvRowReader["read"]>) => {
    for (const row of rows) {
      if (!columns) {
        if (!("fields" in row)) throw noHeader(format);
        const found = format.csvColumns(row.fields);
        if ("missing" in found) throw InvalidRequest.because(found.missing);
        columns = { question: found, id: row.fields.findIndex((name) => name.trim().toLowerCase() === "id") };
        continue;
      }
      if (items.length === maxJobPoints) throw tooMany();
      if (!("fields" in row)) items.push({ id: null, refused: `line ${row.line}: ${row.problem}` });
      else {
        const fields = row.fields.map(restoredCell);
        items.push({ ...columns.question(fields), id: columns.id === -1 ? null : (fields[columns.id] ?? null) });
      }
    }
  };
  for (const piece of piecesOf(text)) take(reader.read(piece));
  take(reader.finish());
  if (!columns) throw noHeader(format);
  return items;
}

function ndjsonItems(text: string, format: ItemFormat): RawItem[] {
  const items: RawItem[] = [];
  const lineBreak = /\r\n|\n|\r/g;
  for (let start = 0, line = 1; start <= text.length; line++) {
    const found = lineBreak.exec(text);
    const end = found ? found.index : text.length;
    const content = text.slice(start, end);
    start = found ? end + found[0].length : text.length + 1;
    if (content.trim() === "") continue;
    if (items.length === maxJobPoints) throw tooMany();
    items.push(ndjsonItem(content, line, format));
  }
  return items;
}

function ndjsonItem(content: string, line: number, format: ItemFormat): RawItem {
  let parsed: unknown;
  try {
    parsed = parseJson(content);
  } catch (error) {
    if (error instanceof JsonTooDeep) return { id: null, refused: `line ${line}: ${error.message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { id: null, refused: `line ${line}: not a JSON object ${format.holding}` };
  const object = parsed as Record<string, unknown>;
  const { id } = object;
  if (id !== undefined && id !== null && typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) {
    return { id: null, refused: `line ${line}: id must be a string or a number` };
  }
  return { ...format.ndjsonItem(object), id: (id as PointId | undefined) ?? null };
}

/** A job item's refusal: its index kept, its error its result, never the job's. */
function refusedItem(point: RawItem, error: PointError): JobPointInput {
  return { id: shortId(point.id), latitude: null, longitude: null, result: { data: [], error, provider: null, cache: null } };
}

/** What every item is checked for before its question: a broken row, an over-long id. */
function itemRefusal(point: RawItem, index: number): PointError | undefined {
  if (point.refused !== undefined) return { code: "invalid_request", message: point.refused, index };
  if (typeof point.id === "string" && point.id.length > maxItemIdLength) {
    return { code: "invalid_request", message: `id must be at most ${maxItemIdLength} characters`, index };
  }
  return undefined;
}

const checkedCount = (input: JobInput) => {
  if (input.points.length === 0 || input.points.length > maxJobPoints) throw tooMany();
};

/**
 * A job's points, each checked as a batch checks its points: its
 * coordinates, its id's length; a refused one keeps its index with its
 * error, never the job's.
 */
export function checkedPoints(input: JobInput, language: string | undefined): JobPointInput[] {
  checkedCount(input);
  return input.points.map((point, index): JobPointInput => {
    const refusal = itemRefusal(point, index);
    if (refusal) return refusedItem(point, refusal);
    const check = checkPoint(point, language, index);
    if ("error" in check) return refusedItem(point, check.error);
    return { id: point.id, latitude: check.query.latitude, longitude: check.query.longitude };
  });
}

/** A forward job's queries, each checked as a forward batch checks its queries (GET /geocode's rules); a refused one keeps its index with its error. */
export function checkedQueries(input: JobInput, language: string | undefined): JobPointInput[] {
  checkedCount(input);
  return input.points.map((item, index): JobPointInput => {
    const refusal = itemRefusal(item, index);
    if (refusal) return refusedItem(item, refusal);
    try {
      return { id: item.id, latitude: null, longitude: null, query: parseSentForwardQuery(item, language) };
    } catch (error) {
      return refusedItem(item, pointError(error, index, "query"));
    }
  });
}

/** An id kept with a refused point: cut to the bound, so an over-long one is still recognisable and never stored whole. */
function shortId(id: PointId): PointId {
  return typeof id === "string" && id.length > maxItemIdLength ? id.slice(0, maxItemIdLength) : id;
}
