import { defineParts } from "../../kit/parts.ts";

/** The shorten form's parts its script works with (view.ts marks them). */
export const shortenFormParts = defineParts({
  form: "form",
  url: "input",
  utm: "details",
  customize: "details",
  alias: "div",
  options: "div",
  button: "button",
  error: "p",
});
