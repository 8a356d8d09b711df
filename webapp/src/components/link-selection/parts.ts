import { defineParts } from "../../kit/parts.ts";

export const linkSelectionParts = defineParts({
  selectPage: "input",
  bulkBar: "div",
  bulkCount: "p",
  bulkActions: "div",
  bulkExport: "a",
  bulkDelete: "button",
  bulkClear: "button",
  bulkConfirm: "div",
  bulkQuestion: "p",
  bulkError: "p",
  bulkConfirmDelete: "button",
  bulkCancel: "button",
});
