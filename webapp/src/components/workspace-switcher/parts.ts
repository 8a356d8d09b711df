import { defineParts } from "../../kit/parts.ts";

export const workspaceSwitcherParts = defineParts({
  choice: "div",
  select: "select",
  role: "strong",
  status: "p",
  none: "p",
  loadError: "p",
  newForm: "form",
  newName: "input",
  newCreate: "button",
});
