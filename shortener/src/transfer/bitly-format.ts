import { type CsvLayout, readCsvTable } from "./csv-table.ts";
import { codeOfShortUrl, hostOfShortUrl, optionalText, readCount, readInstant, splitTags } from "./foreign-cells.ts";
import type { ImportParser } from "./import-record.ts";

type Column = "longUrl" | "link" | "customLink" | "title" | "tags" | "createdAt" | "clicks";

/**
 * Bitly's CSV export of links. Bitly documents no column list for it, so
 * this reads the names its two sources use (any order, any case, spaces or
 * underscores alike):
 *
 * - the fields of its API's links (`long_url`, `link`, `id`,
 *   `custom_bitlinks`, `title`, `tags`, `created_at`), which scripts and
 *   the v4 "links_list" export write;
 * - the dashboard's Links › Export ("Bitlink" or "Link", "Custom Link",
 *   "Long URL" or "Destination URL", "Title", "Tags", "Date Created",
 *   "Total Clicks" or "Engagements").
 *
 * The code kept is the custom back-half when the link has one (what its
 * owner chose and shared; the first, if several), else the bitlink's hash
 * (`https://bit.ly/abc` → `abc`). Tags are separated by `|`, `;` or `,`
 * (Bitly's tags may hold spaces). Dates: ISO 8601 (`+0000` too), a SQL-like
 * date and time (UTC), or Unix seconds.
 */
const bitlyExport: CsvLayout<Column> = {
  columns: {
    longUrl: ["long_url", "destination_url", "original_url", "destination", "url"],
    link: ["bitlink", "link", "short_link", "short_url", "id"],
    customLink: ["custom_bitlinks", "custom_bitlink", "custom_links", "custom_link", "custom_back_half"],
    title: ["title"],
    tags: ["tags", "tag"],
    createdAt: ["created_at", "date_created", "created", "created_date", "creation_date", "date"],
    clicks: ["total_clicks", "clicks", "total_engagements", "engagements", "click_count"],
  },
  longUrl: "longUrl",
  details: (cells) => {
    const [customLink] = splitTags(cells("customLink"), /[\s|;,]+/) ?? [];
    return {
      code: codeOfShortUrl(customLink, "custom link") ?? codeOfShortUrl(cells("link"), "link"),
      // A custom domain's bitlinks are on it; bit.ly's own are on no domain of the person's.
      domain: hostOfShortUrl(customLink ?? cells("link"), bitlyOwnHosts),
      title: optionalText(cells("title")),
      tags: splitTags(cells("tags"), /[|;,]/),
      createdAt: readInstant(cells("createdAt"), "created"),
      accessCount: readCount(cells("clicks"), "clicks"),
    };
  },
};

/** Bitly's own domains: a link on one of them is on the default domain here. */
const bitlyOwnHosts = ["bit.ly", "j.mp", "bitly.com", "bitly.is"];

export const readBitlyExport: ImportParser = (chunks) => readCsvTable(chunks, bitlyExport);
