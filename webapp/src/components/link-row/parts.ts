import { defineParts } from "../../kit/parts.ts";

export const linkRowParts = defineParts({
  rowSelect: "input",
  rowCode: "a",
  rowBadges: "p",
  rowTitle: "td",
  rowDestination: "td",
  rowTags: "td",
  rowVisits: "td",
  rowCreated: "td",
  rowLastVisit: "td",
  rowSpark: "td",
  /** Where a form or a question opens, across the cells from the destination to the sparkline. */
  rowPanel: "td",
  rowActions: "td",
  rowOpen: "a",
  rowCopy: "button",
  rowQr: "button",
  rowEdit: "button",
  rowDelete: "button",
});

/** The cells the panel takes the place of while it is open. */
export const cellsUnderPanel = ["rowDestination", "rowTags", "rowVisits", "rowCreated", "rowLastVisit", "rowSpark"] as const;
