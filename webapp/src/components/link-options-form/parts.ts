import { defineParts } from "../../kit/parts.ts";

/** The form that changes a link's options, around the option fields (whose root it holds). */
export const linkOptionsFormParts = defineParts({
  optionsForm: "form",
  optionFieldsRoot: "div",
  optionsButton: "button",
  optionsStatus: "p",
  optionsError: "p",
});
