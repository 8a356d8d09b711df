import { defineParts } from "../../kit/parts.ts";

/** "Many points at once": the points to send, the progress, the first answers and the downloads. */
export const manyPointsParts = defineParts({
  form: "form",
  lines: "textarea",
  file: "input",
  button: "button",
  result: "div",
  progress: "progress",
  status: "p",
  problems: "ul",
  csv: "a",
  geoJson: "a",
  table: "table",
  rows: "tbody",
});
