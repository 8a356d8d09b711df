import { defineParts } from "../../kit/parts.ts";

/** "Bring links from elsewhere": the parts its script works with (view.ts marks them). */
export const bringLinksParts = defineParts({
  fileForm: "form",
  file: "input",
  fileStatus: "p",
  tokenForm: "form",
  token: "input",
  tokenButton: "button",
  tokenStatus: "p",
});
