import type { LinkHold } from "./link-hold.ts";
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
  /** Set by the threat recheck or an admin (link-hold.ts): the link sends no one on while it lasts. */
  hold: LinkHold | null;
  /** Why it is held: the name of the list that matched, `banned`, or `report`; null without a hold. */
  holdReason: string | null;
  /** Who made it (creator.ts): `api-key:<id>`, `person:<username>`, `admin:<username>`; null for anyone else. */
  createdBy: string | null;
}

export type NewLink = Pick<Link, "code" | "longUrl" | "manageTokenHash" | "createdAt"> &
  Partial<LinkOptions> & { workspaceId?: number | null; createdBy?: string | null };

/** What an update replaces: any of the long URL, the options, and the hold; the rest stays. */
export type LinkChanges = Partial<Pick<Link, "longUrl" | "workspaceId" | "hold" | "holdReason" | "manageTokenHash">> & Partial<LinkOptions>;

/** A link an import brings (transfer/importer.ts): its count and dates as the source had them. */
export type ImportedLink = NewLink & Pick<Link, "accessCount" | "lastAccessedAt" | "updatedAt">;
