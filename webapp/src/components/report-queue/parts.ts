import { defineParts } from "../../kit/parts.ts";

export const reportQueueParts = defineParts({
  title: "h2",
  status: "p",
  error: "p",
  table: "table",
  body: "tbody",
  empty: "p",
});
