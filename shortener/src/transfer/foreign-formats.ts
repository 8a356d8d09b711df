import { readBitlyExport } from "./bitly-format.ts";
import { readPlainCsv } from "./csv-format.ts";
import { splitCsvLine } from "@linkgeo/shared";
import { headerKey } from "./csv-table.ts";
import { looksLikeUrl } from "./foreign-cells.ts";
import type { ImportFormat, ImportParser } from "./import-record.ts";
import { readShlinkExport } from "./shlink-format.ts";
import { readYourlsExport } from "./yourls-format.ts";

/** The formats of other tools' files, each with its parser. */
export type ForeignFormat = Extract<ImportFormat, "csv" | "shlink" | "bitly" | "yourls">;

export const foreignParsers: Record<ForeignFormat, ImportParser> = {
  csv: readPlainCsv,
  shlink: readShlinkExport,
  bitly: readBitlyExport,
  yourls: readYourlsExport,
};

const bitlyLinkKeys = new Set(["bitlink", "link", "custombitlinks", "customlink", "customlinks"]);
const bitlyLongUrlKeys = new Set(["longurl", "destinationurl", "originalurl"]);

/**
 * Which of the foreign formats a file's first line announces, or undefined
 * when it is none of them. Header names are compared as their tools write
 * them, first to last:
 *
 * - yourls: `keyword` and `url`, or no header but six fields with a URL second;
 * - shlink: `longUrl` and `shortCode` or `shortUrl`, in Shlink's camel case;
 * - bitly: a bitlink column (`link`, `Bitlink`, `Custom Link`…) and a long URL one;
 * - csv: a `long_url` or `url` column, or no header but an http(s) URL first.
 */
export function guessFormat(headerLine: string): ForeignFormat | undefined {
  const fields = splitCsvLine(headerLine);
  const names = new Set(fields.map((field) => field.trim().toLowerCase()));
  const keys = new Set(fields.map(headerKey));
  const hasAny = (wanted: Set<string>) => [...keys].some((key) => wanted.has(key));
  if ((keys.has("keyword") && keys.has("url")) || (fields.length === 6 && looksLikeUrl(fields[1]))) return "yourls";
  if (names.has("longurl") && (names.has("shortcode") || names.has("shorturl"))) return "shlink";
  if (hasAny(bitlyLinkKeys) && hasAny(bitlyLongUrlKeys)) return "bitly";
  if (keys.has("longurl") || keys.has("url") || /^https?:\/\//i.test(fields[0]?.trim() ?? "")) return "csv";
  return undefined;
}
