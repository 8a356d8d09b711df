import { defineParts } from "../../kit/parts.ts";

/** The option fields' elements their script reads and fills (view.ts marks them). */
export const optionFieldParts = defineParts({
  expiresAt: "input",
  expiresHint: "p",
  maxVisits: "input",
  expiredUrl: "input",
  redirectStatus: "select",
  password: "input",
  tags: "input",
  title: "input",
  forwardQuery: "input",
  publicStats: "input",
  ruleList: "ol",
  rulesError: "p",
  addRule: "button",
});

/** Changing a link, the fields have these too: a checkbox that removes the password, in a field shown only when there is one. */
export const passwordRemovalParts = defineParts({ removePassword: "input", removePasswordField: "div" });
