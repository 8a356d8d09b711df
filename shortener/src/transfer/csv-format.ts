import { type CsvLayout, readCsvTable } from "./csv-table.ts";
import { codeOfShortUrl, optionalText, splitTags } from "./foreign-cells.ts";
import type { ImportParser } from "./import-record.ts";

type Column = "longUrl" | "shortUrl" | "title" | "tags";

/**
 * A plain CSV of links, as a person or a spreadsheet writes one:
 *
 *     long_url,short_url,title,tags
 *     https://example.com/a,promo,Spring sale,sales|spring
 *
 * With a header, its columns may come in any order and only `long_url` is
 * needed (also named `url`; `short_url` also `code` or `alias`); other
 * columns are ignored. Without one, when the first line starts with an
 * http(s) URL, the columns are those four in that order, the last ones
 * optional. `short_url` is a code (`promo`) or a short URL whose path is
 * the code (`https://s.test/promo`). Tags are separated by `|`, `;`, `,`
 * or spaces: a tag is letters, digits, `_` and `-`, so none is ambiguous.
 * A cell's `'` before a formula is the text mark (the admin page's
 * selected links are such a file): read without it.
 */
const plainCsv: CsvLayout<Column> = {
  columns: {
    longUrl: ["long_url", "url"],
    shortUrl: ["short_url", "code", "short_code", "alias"],
    title: ["title"],
    tags: ["tags", "tag"],
  },
  longUrl: "longUrl",
  textMarks: "restored",
  headerless: {
    isData: (fields) => /^https?:\/\//i.test(fields[0]?.trim() ?? ""),
    order: ["longUrl", "shortUrl", "title", "tags"],
    minFields: 1,
  },
  details: (cells) => ({
    code: codeOfShortUrl(cells("shortUrl"), "short_url"),
    title: optionalText(cells("title")),
    tags: splitTags(cells("tags"), /[|;,\s]+/),
  }),
};

export const readPlainCsv: ImportParser = (chunks) => readCsvTable(chunks, plainCsv);
