import type { LinkOptions } from "./link-options.ts";

/** A short link as the stores keep it. */
export interface Link extends LinkOptions {
  code: string;
  longUrl: string;
  /** SHA-256 of the manage token; the token itself is shown once and never stored. */
  manageTokenHash: string;
  accessCount: number;
  lastAccessedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The workspace the link belongs to (docs/people.md); null for a link of none (made anonymously, or by an admin). */
  workspaceId: number | null;
}

export type NewLink = Pick<Link, "code" | "longUrl" | "manageTokenHash" | "createdAt"> & Partial<LinkOptions> & { workspaceId?: number | null };

/** What an update replaces: any of the long URL and the options; the rest stays. */
export type LinkChanges = Partial<Pick<Link, "longUrl" | "workspaceId">> & Partial<LinkOptions>;

/** A link an import brings (transfer/importer.ts): its count and dates as the source had them. */
export type ImportedLink = NewLink & Pick<Link, "accessCount" | "lastAccessedAt" | "updatedAt">;
