/** A short link as the stores keep it. */
export interface Link {
  code: string;
  longUrl: string;
  /** SHA-256 of the manage token; the token itself is shown once and never stored. */
  manageTokenHash: string;
  accessCount: number;
  lastAccessedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewLink = Pick<Link, "code" | "longUrl" | "manageTokenHash" | "createdAt">;
