import { type CsvLayout, readCsvTable } from "./csv-table.ts";
import { codeOfShortUrl, optionalText, readCount, readInstant, splitTags } from "./foreign-cells.ts";
import type { ImportParser } from "./import-record.ts";

type Column = "createdAt" | "domain" | "shortCode" | "shortUrl" | "longUrl" | "title" | "tags" | "visits";

/**
 * Shlink's export of short URLs: the CSV its web client (shlink-web-client,
 * later shlink-web-component: `ExportShortUrlsBtn`) writes with json2csv,
 * every name and text quoted:
 *
 *     "createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"
 *     "2024-05-01T10:20:30+02:00","s.test","promo","https://s.test/promo","https://example.com/a","Sale","sales|spring",42
 *
 * `createdAt` is the API's ISO 8601 `dateCreated`, tags are joined with
 * `|`, `visits` is the total. Older clients wrote no `domain` nor
 * `shortCode`: the code is then the path of `shortUrl`. `domain` is the
 * link's domain (empty: Shlink's default one), which the import maps to
 * ours (ImportDomains).
 */
const shlinkExport: CsvLayout<Column> = {
  columns: {
    createdAt: ["createdAt"],
    domain: ["domain"],
    shortCode: ["shortCode"],
    shortUrl: ["shortUrl"],
    longUrl: ["longUrl"],
    title: ["title"],
    tags: ["tags"],
    visits: ["visits"],
  },
  longUrl: "longUrl",
  details: (cells) => ({
    code: optionalText(cells("shortCode")) ?? codeOfShortUrl(cells("shortUrl"), "shortUrl"),
    domain: optionalText(cells("domain")),
    title: optionalText(cells("title")),
    tags: splitTags(cells("tags"), /\|/),
    createdAt: readInstant(cells("createdAt"), "createdAt"),
    accessCount: readCount(cells("visits"), "visits"),
  }),
};

export const readShlinkExport: ImportParser = (chunks) => readCsvTable(chunks, shlinkExport);
