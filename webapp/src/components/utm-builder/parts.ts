import { defineParts } from "../../kit/parts.ts";

/** The UTM builder's parts its script works with (view.ts marks them). */
export const utmBuilderParts = defineParts({
  source: "input",
  medium: "input",
  campaign: "input",
  term: "input",
  content: "input",
  add: "button",
  status: "p",
});
