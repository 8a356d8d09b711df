import { defineParts } from "../../kit/parts.ts";

export const linkImportParts = defineParts({
  importForm: "form",
  importFile: "input",
  importFormat: "select",
  importCheck: "button",
  importStatus: "p",
  importError: "p",
  importReport: "div",
  importReportTitle: "h3",
  importCounts: "dl",
  importRefusedBox: "div",
  importRefusals: "tbody",
  importMore: "p",
  importConfirmRow: "div",
  importConfirm: "button",
  importCancel: "button",
  importDoneRow: "p",
  importAnother: "button",
});
