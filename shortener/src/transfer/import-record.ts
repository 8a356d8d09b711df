import type { LinkRule, RedirectStatus } from "../links/link-options.ts";

/**
 * One link as an import brings it, whatever the source format: what the
 * source had, nothing made up. Parsers (one per format, `*-format.ts` in
 * this folder) turn a file's rows into these; the importer checks each as
 * a create would (the long URL's rules, the alias's, the options') and
 * stores it with its counts and dates.
 */
export interface ImportRecord {
  /** The row's line number in the file (1-based, the header is line 1), for reports. */
  line: number;
  longUrl: string;
  /** The source's code, kept as the alias when it is one we accept; absent: a new code is made. */
  code?: string;
  /** The host of the source's domain, as it named it; absent: the default domain (see ImportDomains). */
  domain?: string;
  title?: string;
  tags?: string[];
  createdAt?: Date;
  /** Visits the source counted: they become the link's access_count (there are no visit details to import). */
  accessCount?: number;
  /** Our own export's options, kept on a round trip. */
  expiresAt?: Date | null;
  maxVisits?: number | null;
  expiredUrl?: string | null;
  redirectStatus?: RedirectStatus | null;
  forwardQuery?: boolean;
  rules?: LinkRule[];
  publicStats?: boolean;
  /** Our own export's last change and last visit, kept on a round trip (absent: the creation, and none). */
  updatedAt?: Date;
  lastAccessedAt?: Date | null;
  /**
   * The source's link had a password. No export carries one (ours writes
   * only this flag), so such a link is not imported: it would come back
   * open to anyone.
   */
  passwordProtected?: boolean;
}

/** A row a parser could not read (broken quoting, a missing URL): reported with its line, never fatal. */
export interface ImportProblem {
  line: number;
  problem: string;
}

/** What a parser yields for each row of its file, in order. */
export type ImportRow = ImportRecord | ImportProblem;

/** The formats `bun run import` and `POST /admin/import` read. */
export const importFormats = ["linkgeo-ndjson", "linkgeo-csv", "csv", "shlink", "bitly", "yourls"] as const;
export type ImportFormat = (typeof importFormats)[number];

/**
 * A format's parser: the file's text as it arrives (chunks of any size,
 * UTF-8, maybe with a BOM), its rows out, one at a time, so a file of any
 * size is read in constant memory.
 */
export type ImportParser = (chunks: AsyncIterable<string>) => AsyncIterable<ImportRow>;
