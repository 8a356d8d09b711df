/** Why someone reports a link: a short list, so the queue can be sorted and counted. */
export const reportReasons = ["phishing", "malware", "spam", "scam", "illegal", "other"] as const;
export type ReportReason = (typeof reportReasons)[number];

/**
 * What an admin does with a report (docs/abuse.md): hold the link
 * (`quarantine`, `disable`), put its destination's domain on the ban list
 * (`ban_domain`, which also quarantines it), revoke the API key that made it
 * (`revoke_key`), or close the report with nothing done (`dismiss`). Each
 * resolves every open report of the link.
 */
export const reportActions = ["quarantine", "disable", "ban_domain", "revoke_key", "dismiss"] as const;
export type ReportAction = (typeof reportActions)[number];

/** The longest note kept, in characters. */
export const maxReportNote = 1_000;

/** Open reports kept per link: more say nothing new, and a flood must not fill the table. */
export const maxOpenReportsPerLink = 20;

export interface Report {
  id: number;
  /** The link's key (links/link-key.ts). */
  code: string;
  reason: ReportReason;
  note: string | null;
  createdAt: Date;
  /** What an admin did, once resolved; null while it waits in the queue. */
  resolution: ReportAction | null;
  resolvedAt: Date | null;
}

export type NewReport = Pick<Report, "code" | "reason" | "note" | "createdAt">;

/** The reports' port: the stores of both engines implement it. */
export interface ReportStore {
  /** Keeps the report unless its link has `maxOpen` open ones already; null then. */
  insert(report: NewReport, maxOpen: number): Promise<Report | null>;
  /** Up to `limit` reports, newest first, before report `before` when given; open ones only with `open`. */
  page(query: { open: boolean; limit: number; before?: number }): Promise<Report[]>;
  find(id: number): Promise<Report | null>;
  /** Resolves every open report of the link `code` with `action`; how many. */
  resolveLink(code: string, action: ReportAction, at: Date): Promise<number>;
  /** Reports waiting in the queue. */
  openCount(): Promise<number>;
}
