import { InvalidRequest } from "@linkgeo/shared";
import { csvRows } from "./csv-reader.ts";
import { exportColumns } from "./exported-link.ts";
import { importFormats, type ImportFormat, type ImportParser } from "./import-record.ts";
import { parseLinkgeoCsv } from "./linkgeo-csv-format.ts";
import { parseLinkgeoNdjson } from "./linkgeo-ndjson-format.ts";

const ownParsers: Partial<Record<ImportFormat, ImportParser>> = { "linkgeo-ndjson": parseLinkgeoNdjson, "linkgeo-csv": parseLinkgeoCsv };

/**
 * The parser of a format, by its name. Our own two are here; each other
 * format's lives in `<format>-format.ts` beside this file and exports it
 * as `parse<Format>` (parseCsv, parseShlink, parseBitly, parseYourls), as
 * ours do. Those are imported when first asked for, so a build without one
 * of them still runs, and answers that format as not available.
 */
export async function parserFor(format: ImportFormat): Promise<ImportParser> {
  const own = ownParsers[format];
  if (own) return own;
  const name = `parse${format.replace(/(^|-)(\w)/g, (_, _dash: string, letter: string) => letter.toUpperCase())}`;
  const module: Record<string, unknown> | undefined = await import(`./${format}-format.ts`).catch(() => undefined);
  const parser = module?.[name] ?? module?.default;
  if (typeof parser !== "function") throw InvalidRequest.because(`the ${format} format is not available in this build`);
  return parser as ImportParser;
}

export function parseImportFormat(value: string): ImportFormat {
  if (!importFormats.includes(value as ImportFormat)) throw InvalidRequest.because(`format must be one of ${importFormats.join(", ")}`);
  return value as ImportFormat;
}

/**
 * A file's format from its first line (`head`, a BOM allowed): a JSON
 * object is our NDJSON; a CSV header is told by its column names (ours
 * exactly; Shlink's shortCode; YOURLS' keyword and url; Bitly's bitlink, or
 * link with long_url; else any column named like a URL is plain CSV).
 * Undefined when none fits: the caller must name the format.
 */
export async function guessFormat(head: string): Promise<ImportFormat | undefined> {
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("{")) return "linkgeo-ndjson";
  const firstLine = text.split("\n")[0] ?? "";
  let columns: string[] = [];
  for await (const row of csvRows(once(firstLine))) {
    if ("fields" in row) columns = row.fields.map((name) => name.trim().toLowerCase().replaceAll(" ", "_"));
    break;
  }
  if (exportColumns.every((column) => columns.includes(column))) return "linkgeo-csv";
  if (columns.includes("shortcode") || columns.includes("short_code")) return "shlink";
  if (columns.includes("keyword") && columns.includes("url")) return "yourls";
  if (columns.some((column) => column.includes("bitlink")) || (columns.includes("link") && columns.includes("long_url"))) return "bitly";
  if (columns.some((column) => ["url", "long_url", "longurl", "destination"].includes(column))) return "csv";
  return undefined;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}
