import { InvalidRequest } from "@linkgeo/shared";
import { foreignParsers, guessFormat as guessForeignFormat } from "./foreign-formats.ts";
import { splitCsvLine } from "@linkgeo/shared";
import { exportColumns, laterColumns } from "./exported-link.ts";
import { importFormats, type ImportFormat, type ImportParser } from "./import-record.ts";
import { parseLinkgeoCsv } from "./linkgeo-csv-format.ts";
import { parseLinkgeoNdjson } from "./linkgeo-ndjson-format.ts";

const parsers: Record<ImportFormat, ImportParser> = {
  "linkgeo-ndjson": parseLinkgeoNdjson,
  "linkgeo-csv": parseLinkgeoCsv,
  ...foreignParsers,
};

/** The parser of a format, by its name: our own two (what the export writes), and the other tools' (foreign-formats.ts). */
export function parserFor(format: ImportFormat): ImportParser {
  return parsers[format];
}

export function parseImportFormat(value: string): ImportFormat {
  if (!importFormats.includes(value as ImportFormat)) throw InvalidRequest.because(`format must be one of ${importFormats.join(", ")}`);
  return value as ImportFormat;
}

/**
 * A file's format from its first line (`head`, a BOM allowed): a JSON
 * object is our NDJSON; our CSV is told by its exact columns; any other
 * header is the other tools' (guessForeignFormat). Undefined when none
 * fits: the caller must name the format.
 */
export async function guessFormat(head: string): Promise<ImportFormat | undefined> {
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("{")) return "linkgeo-ndjson";
  const firstLine = text.split("\n")[0] ?? "";
  const columns = splitCsvLine(firstLine).map((name) => name.trim().toLowerCase().replaceAll(" ", "_"));
  if (exportColumns.every((column) => laterColumns.has(column) || columns.includes(column))) return "linkgeo-csv";
  return guessForeignFormat(firstLine);
}
