import { defineParts } from "../../kit/parts.ts";

/** Your links' list: the parts its script works with (view.ts marks them). */
export const yourLinksParts = defineParts({
  heading: "h2",
  tools: "div",
  searchForm: "form",
  search: "input",
  sort: "select",
  summary: "p",
  deleted: "div",
  deletedSays: "p",
  forgetDeleted: "button",
  forgotten: "p",
  empty: "p",
  list: "ul",
  pager: "nav",
  previous: "button",
  pageStatus: "p",
  next: "button",
  exportRow: "p",
  export: "a",
});
