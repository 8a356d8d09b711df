/** The API calls of the admin page's reports queue (docs/abuse.md): the open reports, and an action on one. */
import type { Credential } from "./api.ts";
import { type Answer, call } from "./api-call.ts";

export type QueuedReport = Answer<"GET /admin/reports">["results"][number];

/** What an admin may do with a report, in the order the queue offers them. */
export const reportActions = ["quarantine", "disable", "ban_domain", "revoke_key", "dismiss"] as const;
export type ReportAction = (typeof reportActions)[number];

/** The newest open reports (a page of 50). */
export async function openReports(signal?: AbortSignal): Promise<QueuedReport[]> {
  return (await call("GET /admin/reports", { signal })).results;
}

/** Does `action` to report `id`'s link; the report as it is now. */
export function actOnReport(id: number, action: ReportAction, credential: Credential): Promise<QueuedReport> {
  return call("POST /admin/reports/{id}/actions", { params: { id: String(id) }, body: { action }, credential });
}
