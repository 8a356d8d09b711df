import { defineParts } from "../../kit/parts.ts";

/** Deleting a link, in two steps: the button, then the question with its two answers. */
export const linkDeleteParts = defineParts({
  deleteButton: "button",
  deleteConfirm: "div",
  deleteWhat: "span",
  deleteYes: "button",
  deleteNo: "button",
  deleteError: "p",
});
