import { defineParts } from "../../kit/parts.ts";

/** The playground's lookup of one point: the map it holds, the coordinates form and the address found. */
export const pointLookupParts = defineParts({
  map: "section",
  form: "form",
  latitude: "input",
  longitude: "input",
  platform: "select",
  language: "input",
  resultPanel: "section",
  status: "p",
  error: "div",
  result: "div",
});
