import type { LinkStore } from "../links/link-store.ts";
import type { Link } from "../links/link.ts";
import { csvRow } from "@linkgeo/shared";
import { exportColumns, exportedCsvFields, toExported } from "./exported-link.ts";

export const exportFormats = ["csv", "ndjson"] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** Links read from the store at a time: a page is all an export holds. */
export const exportPageSize = 1_000;

export interface LinkExportOptions {
  format: ExportFormat;
  /** For each link's state (expired, exhausted): the export's one instant. */
  now: Date;
  /** A link's code and its domain's host, by its key (links/link-address.ts: linkPlace). */
  placeOf: (key: string) => { code: string; domain: string };
  /** Only this workspace's links (GET /admin/export/links?workspace=). */
  workspaceId?: number;
  pageSize?: number;
}

/**
 * Every link, as CSV (a header, then one row per link: exported-link.ts)
 * or NDJSON (one object per line), in code order. A page of links is read
 * only when the reader has taken the last one, so an export of any size
 * holds one page and the client's pace sets the database's. A database
 * failure midway errors the stream: the client sees a cut-off transfer, not
 * a file that looks whole.
 */
export function linkExport(store: Pick<LinkStore, "exportPage">, options: LinkExportOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pageSize = options.pageSize ?? exportPageSize;
  const line =
    options.format === "csv"
      ? (link: Link) => csvRow(exportedCsvFields(toExported(link, options.now, options.placeOf(link.code))))
      : (link: Link) => `${JSON.stringify(toExported(link, options.now, options.placeOf(link.code)))}\n`;
  let after: string | null = null;
  let headerSent = options.format !== "csv";
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvRow(exportColumns)));
          return;
        }
        const page = await store.exportPage(after, pageSize, options.workspaceId);
        if (page.length === 0) return controller.close();
        after = page.at(-1)!.code;
        controller.enqueue(encoder.encode(page.map(line).join("")));
      },
    },
    // Nothing read ahead of the client: the next page waits until this one is taken.
    { highWaterMark: 0 },
  );
}
