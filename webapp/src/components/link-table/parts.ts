import { defineParts } from "../../kit/parts.ts";

export const linkTableParts = defineParts({
  linksTitle: "h2",
  linksFilters: "form",
  linksStatus: "p",
  linksError: "p",
  linksSelection: "div",
  linksTable: "table",
  linksBody: "tbody",
  linksEmpty: "p",
  pagePrevious: "button",
  pageInfo: "p",
  pageNext: "button",
  rowTemplate: "template",
  editTemplate: "template",
  questionTemplate: "template",
});
