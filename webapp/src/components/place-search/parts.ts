import { defineParts } from "../../kit/parts.ts";

/** The playground's search for a place by name: the field, its list of suggestions, and what it says. */
export const placeSearchParts = defineParts({
  input: "input",
  list: "ul",
  status: "p",
});
