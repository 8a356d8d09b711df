/**
 * The admin page's import: a file of links sent to `POST /admin/import`
 * (docs/migrating.md) with the admin's session and CSRF token, first as a
 * dry run (`dry_run=true`: every row checked, nothing stored), then for
 * real. The answer streams as NDJSON: the format, a line per row not
 * imported, progress lines, and a summary (or an error) last; it is read as
 * it comes, into one report.
 */
import { ApiError, errorOf, type Credential } from "./api.ts";
import { ndjsonLines } from "./ndjson-lines.ts";

/** The formats the import reads (the shortener's `importFormats`); "" lets the server tell the format from the file's first line. */
export const importFormats = ["linkgeo-ndjson", "linkgeo-csv", "csv", "shlink", "bitly", "yourls"] as const;
export type ImportFormat = (typeof importFormats)[number];

export interface ImportCounts {
  lines: number;
  imported: number;
  skipped: number;
  problems: number;
}

/** A row not imported: `problem`, it is wrong; `skipped`, it is fine but its code is not to be had (taken, reserved) or it had a password. */
export interface ImportRefusal {
  line: number;
  status: "skipped" | "problem";
  short_url: string | null;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  /** The format the server read the file as. */
  format: string | null;
  /** The summary's counts; until it comes, the last progress line's. */
  counts: ImportCounts;
  /** True once the summary came: every row was read. */
  finished: boolean;
  /** The rows not imported, in the order reported, the first `keptRefusals` only. */
  refusals: ImportRefusal[];
  /** Why the import stopped midway (the file turned binary, the database failed): the answer's last line. */
  stopped: string | null;
}

/** Rows refused that a report keeps to show; the counts include every one. */
export const keptRefusals = 200;

export interface ImportRequest {
  file: Blob;
  fileName: string;
  dryRun: boolean;
  format: ImportFormat | "";
  credential: Credential;
  signal?: AbortSignal;
  /** Told of the report as it grows (progress lines, refusals). */
  onProgress?: (report: ImportReport) => void;
}

export async function importLinks(request: ImportRequest): Promise<ImportReport> {
  const params = new URLSearchParams();
  if (request.dryRun) params.set("dry_run", "true");
  if (request.format) params.set("format", request.format);
  const response = await send(`/admin/import${params.size > 0 ? `?${params}` : ""}`, request);
  if (!response.ok || !response.body) throw errorOf(response, await response.json().catch(() => null));
  const report: ImportReport = {
    dryRun: request.dryRun,
    format: null,
    counts: { lines: 0, imported: 0, skipped: 0, problems: 0 },
    finished: false,
    refusals: [],
    stopped: null,
  };
  for await (const line of ndjsonLines(response.body)) {
    take(report, line);
    request.onProgress?.(report);
  }
  return report;
}

async function send(path: string, request: ImportRequest): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/x-ndjson, application/json", "content-type": mediaTypeOf(request.fileName) };
  if (request.credential.kind === "session") headers["x-csrf-token"] = request.credential.csrfToken;
  else headers.authorization = `Bearer ${request.credential.token}`;
  try {
    return await fetch(path, { method: "POST", headers, body: request.file, credentials: "same-origin", signal: request.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The server could not be reached. Check your connection and try again.");
  }
}

/** The media type the import takes for a file of this name: NDJSON for our JSON-lines export, CSV or plain text otherwise (the format is told from the content). */
export function mediaTypeOf(fileName: string): string {
  if (/\.(ndjson|jsonl|json)$/i.test(fileName)) return "application/x-ndjson";
  if (/\.csv$/i.test(fileName)) return "text/csv";
  return "text/plain";
}

/** One line of the answer into the report; a line of another shape is ignored. */
function take(report: ImportReport, line: unknown): void {
  if (typeof line !== "object" || line === null) return;
  const fields = line as Record<string, unknown>;
  const started = fields.import as { format?: unknown } | undefined;
  if (typeof started?.format === "string") report.format = started.format;
  const counts = countsOf(fields.summary) ?? countsOf(fields.progress);
  if (counts) report.counts = counts;
  if (countsOf(fields.summary)) report.finished = true;
  const error = fields.error as { message?: unknown } | undefined;
  if (error !== undefined) report.stopped = typeof error?.message === "string" ? error.message : "the import stopped on an unexpected error";
  const refusal = refusalOf(fields);
  if (refusal && report.refusals.length < keptRefusals) report.refusals.push(refusal);
}

function countsOf(value: unknown): ImportCounts | null {
  if (typeof value !== "object" || value === null) return null;
  const { lines, imported, skipped, problems } = value as Record<string, unknown>;
  const numbers = [lines, imported, skipped, problems];
  if (!numbers.every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0)) return null;
  return { lines, imported, skipped, problems } as ImportCounts;
}

function refusalOf(fields: Record<string, unknown>): ImportRefusal | null {
  const { line, status, short_url, reason } = fields;
  if (typeof line !== "number" || !Number.isSafeInteger(line) || (status !== "skipped" && status !== "problem") || typeof reason !== "string") return null;
  return { line, status, short_url: typeof short_url === "string" ? short_url : null, reason };
}
