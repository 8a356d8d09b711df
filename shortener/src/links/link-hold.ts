/**
 * Why a link sends no one on whatever its options say (docs/abuse.md):
 * `quarantined`, its visitors see a warning page instead (a threat list
 * named its destination, or an admin acted on a report); `disabled`, it is
 * gone (an admin acted on a report). Only the threat recheck and an admin
 * set or lift one; its owner sees it and cannot.
 */
export const linkHolds = ["quarantined", "disabled"] as const;
export type LinkHold = (typeof linkHolds)[number];

/** A link's hold as the stores keep it: which, and why (a threat list's name, `banned`, or `report`). */
export interface HoldChange {
  hold: LinkHold | null;
  reason: string | null;
}

/** What `hold_reason` says of a hold an admin set from the reports' queue: the recheck never lifts it. */
export const reportHoldReason = "report";
