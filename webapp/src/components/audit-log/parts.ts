import { defineParts } from "../../kit/parts.ts";

export const auditLogParts = defineParts({
  fileLink: "a",
  error: "p",
  table: "table",
  body: "tbody",
  empty: "p",
  older: "button",
});
