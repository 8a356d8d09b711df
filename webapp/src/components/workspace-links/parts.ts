import { defineParts } from "../../kit/parts.ts";

export const workspaceLinksParts = defineParts({
  title: "h2",
  createForm: "form",
  longUrl: "input",
  alias: "input",
  create: "button",
  searchForm: "form",
  search: "input",
  exportLink: "a",
  status: "p",
  error: "p",
  table: "table",
  body: "tbody",
  empty: "p",
  pager: "nav",
  previous: "button",
  pageInfo: "p",
  next: "button",
  questionTemplate: "template",
});
